"""Send one raw message to the server's SMTP listener with Python's smtplib, as a mail server
would hand it over, and print the code of the server's final answer (250, 550, 552, 451...).

    python3 send_reply.py PORT MAIL_FROM RCPT_TO FILE
"""

import re
import smtplib
import sys


def main():
    port, sender, recipient, path = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    with open(path, "rb") as f:
        data = re.sub(rb"\r?\n", b"\r\n", f.read())
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=60) as smtp:
            smtp.sendmail(sender, [recipient], data)
        print(250)
    except smtplib.SMTPRecipientsRefused as e:
        print(list(e.recipients.values())[0][0])
    except smtplib.SMTPResponseException as e:
        print(e.smtp_code)


if __name__ == "__main__":
    main()
