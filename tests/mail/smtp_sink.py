"""An SMTP server for the mail tests (aiosmtpd) on 127.0.0.1:PORT: each message it accepts is
written to DIR as one JSON file (envelope, headers, decoded text and HTML parts). Recipients whose
address starts with "bounce" are refused for good (550), as a relay refuses an unknown mailbox.

    python3 smtp_sink.py PORT DIR
"""

import asyncio
import email
import email.policy
import json
import os
import sys

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, folder):
        self.folder = folder
        self.count = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("bounce"):
            return "550 5.1.1 No such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        parts = {}
        for part in message.walk():
            if part.get_content_maintype() == "text":
                parts[part.get_content_subtype()] = part.get_content()
        record = {
            "from": envelope.mail_from,
            "to": envelope.rcpt_tos,
            "headers": {k: str(v) for k, v in message.items()},
            "text": parts.get("plain", ""),
            "html": parts.get("html", ""),
        }
        self.count += 1
        name = os.path.join(self.folder, f"{os.getpid()}-{self.count:06d}.json")
        with open(name + ".tmp", "w", encoding="utf-8") as f:
            json.dump(record, f)
        os.rename(name + ".tmp", name)
        return "250 Message accepted"


def main():
    port, folder = int(sys.argv[1]), sys.argv[2]
    os.makedirs(folder, exist_ok=True)
    controller = Controller(Sink(folder), hostname="127.0.0.1", port=port)
    controller.start()
    print("ready", flush=True)
    try:
        asyncio.new_event_loop().run_forever()
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
