#!/usr/bin/env python3
"""An outside bot for a Keltis server, in Python's standard library alone.

It signs in the way a native app does (OAuth 2.0 with PKCE and a loopback redirect: you approve
it once in your browser, signed in as the bot's account), waits on its stream for the server to
say it is to act, and plays the decision that scores best by its own simple, one-step-ahead
measure ("greedy"). It plays every game its account sits at: invite it by its name, or seat it
with a game of its own.

Before it runs, sign in to the web client as the bot's account and mark it as a bot in the
settings ("A bot's account"), or call POST /api/v1/me/bot.

    python3 examples/greedy_bot.py --server http://127.0.0.1:8080
    python3 examples/greedy_bot.py --server ... --token-file ~/.keltis-bot  # keep the token
    python3 examples/greedy_bot.py --server ... --games 1  # stop after one finished game

The authorization address is printed on a line of its own, starting with "authorize: ", and
opened in a browser unless --no-browser is given. At the end (with --games) the bot prints one
JSON line: the games it finished and how many decisions it made.
"""

import argparse
import base64
import hashlib
import http.server
import json
import os
import random
import secrets
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import webbrowser

APP_NAME = "Greedy example bot"
SCOPES = "read play"


class Server:
    """The few calls the bot makes, with the bearer token once it has one."""

    def __init__(self, base):
        self.base = base.rstrip("/")
        self.token = None

    def call(self, method, path, body=None, form=None):
        """(status, JSON body); waits and tries again when the server says to slow down."""
        while True:
            headers = {"Accept": "application/json"}
            data = None
            if self.token:
                headers["Authorization"] = "Bearer " + self.token
            if body is not None:
                headers["Content-Type"] = "application/json"
                data = json.dumps(body).encode()
            if form is not None:
                headers["Content-Type"] = "application/x-www-form-urlencoded"
                data = urllib.parse.urlencode(form).encode()
            req = urllib.request.Request(self.base + path, data, headers, method=method)
            try:
                with urllib.request.urlopen(req, timeout=60) as r:
                    text = r.read().decode()
                    return r.status, (json.loads(text) if text else None)
            except urllib.error.HTTPError as e:
                if e.code in (429, 503):
                    time.sleep(int(e.headers.get("Retry-After", "1")))
                    continue
                text = e.read().decode()
                return e.code, (json.loads(text) if text else None)

    def open_stream(self, after):
        """The caller's notices as server-sent events, from after notice `after`: the open
        response (the server sends a comment at once, so this returns when the stream is open)."""
        path = "/api/v1/me/stream" + (f"?after={after}" if after else "")
        req = urllib.request.Request(
            self.base + path,
            headers={"Authorization": "Bearer " + self.token, "Accept": "text/event-stream"},
        )
        return urllib.request.urlopen(req, timeout=120)


def notices(response):
    """The (id, kind, data) of each server-sent event, until the server ends the stream."""
    with response:
        event = {}
        for raw in response:
            line = raw.decode().rstrip("\r\n")
            if not line:
                if "data" in event:
                    yield event.get("id"), event.get("event"), json.loads(event["data"])
                event = {}
            elif not line.startswith(":"):
                field, _, value = line.partition(":")
                event[field] = value[1:] if value.startswith(" ") else value


def sign_in(server, open_browser):
    """OAuth 2.0 authorization code with PKCE (RFC 7636) and a loopback redirect (RFC 8252)."""
    status, meta = server.call("GET", "/.well-known/oauth-authorization-server")
    if status != 200:
        sys.exit(f"no OAuth metadata at {server.base}: {status}")
    verifier = base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
    challenge = challenge.rstrip(b"=").decode()
    state = secrets.token_urlsafe(16)
    answer = {}

    class Callback(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(self.path).query))
            if urllib.parse.urlsplit(self.path).path != "/callback":
                self.send_error(404)
                return
            answer.update(query)
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.end_headers()
            self.wfile.write(b"The bot has its answer: you can close this window.\n")

        def log_message(self, *args):
            pass

    loopback = http.server.HTTPServer(("127.0.0.1", 0), Callback)
    redirect = f"http://127.0.0.1:{loopback.server_port}/callback"
    query = urllib.parse.urlencode(
        {
            "response_type": "code",
            "client_id": APP_NAME,
            "redirect_uri": redirect,
            "scope": SCOPES,
            "state": state,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        }
    )
    address = meta["authorization_endpoint"] + "?" + query
    print("authorize: " + address, flush=True)
    if open_browser:
        webbrowser.open(address)
    while "state" not in answer:
        loopback.handle_request()
    loopback.server_close()
    # A redirect that does not carry our state is not the server's answer to us.
    if not secrets.compare_digest(answer["state"], state):
        sys.exit("the answer's state is not ours: refused")
    if "code" not in answer:
        sys.exit("not allowed: " + answer.get("error", "no code"))
    status, granted = server.call(
        "POST",
        "/oauth/token",
        form={
            "grant_type": "authorization_code",
            "code": answer["code"],
            "redirect_uri": redirect,
            "client_id": APP_NAME,
            "code_verifier": verifier,
        },
    )
    if status != 200:
        sys.exit(f"token refused: {granted}")
    return granted["access_token"]


def score(decision, view, me):
    """How good a decision looks now, by a rough rule of thumb (higher is better)."""
    kind = decision["type"]
    if kind == "lay":
        card = decision["card"]
        row = next((r for r in me.get("rows", []) if r.get("color") == card["color"]), None)
        started = 3 if row and row.get("cards") else 0
        return 10 + started
    if kind == "take_stone":
        return 12
    if kind == "step":
        return 6
    if kind in ("discard_from_row", "discard_from_hand"):
        return 2
    if kind == "draw_pile":
        return 3
    if kind == "draw_deck":
        return 2
    if kind == "discard":
        # Discard what is worth least to keep: low cards (an end card has no value).
        return 1 - (decision["card"].get("value") or 0) / 20
    return 0  # skip, pass


def choose(view, seat):
    me = next((s for s in view.get("seats", []) if s.get("seat") == seat), {})
    legal = view["legal_decisions"]
    best = max(score(d, view, me) for d in legal)
    return random.choice([d for d in legal if score(d, view, me) == best])


def play(server, game_id, stats):
    """Play the game's decisions while it is this bot's turn."""
    for _ in range(100):
        status, game = server.call("GET", f"/api/v1/games/{game_id}")
        view = game.get("state") if status == 200 else None
        seat = game.get("your_seat") if status == 200 else None
        if not view or game["status"] != "active" or view.get("to_act") != seat:
            return
        status, answer = server.call(
            "POST",
            f"/api/v1/games/{game_id}/decisions",
            {"expected_version": game["version"], "decision": choose(view, seat)},
        )
        if status == 200:
            stats["decisions"] += 1
        elif status != 409:  # 409: the game moved on meanwhile; read it again
            print(f"game {game_id}: decision refused: {answer}", file=sys.stderr)
            return


def waiting_games(server):
    status, page = server.call("GET", "/api/v1/me/games?limit=100")
    return [g["id"] for g in page["games"] if g["your_turn"]] if status == 200 else []


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="the server's address")
    parser.add_argument("--token-file", help="keep the token here between runs")
    parser.add_argument("--games", type=int, help="stop after this many finished games")
    parser.add_argument("--no-browser", action="store_true", help="only print the address")
    args = parser.parse_args()

    server = Server(args.server)
    if args.token_file and os.path.exists(args.token_file):
        with open(args.token_file) as f:
            server.token = f.read().strip()
        if server.call("GET", "/api/v1/me")[0] != 200:
            server.token = None
    if not server.token:
        server.token = sign_in(server, not args.no_browser)
        if args.token_file:
            with open(os.open(args.token_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
                f.write(server.token)
    status, me = server.call("GET", "/api/v1/me")
    print(f"playing as {me['name']}", file=sys.stderr, flush=True)

    stats = {"decisions": 0, "finished": []}
    last_notice = None
    while args.games is None or len(stats["finished"]) < args.games:
        try:
            response = server.open_stream(last_notice)
            # The stream is open: what waits now is played now, and whatever happens from here
            # arrives on it.
            for game_id in waiting_games(server):
                play(server, game_id, stats)
            for notice_id, kind, data in notices(response):
                last_notice = notice_id or last_notice
                notice = data.get("notice", {})
                if kind in ("your_turn", "game_started"):
                    play(server, notice["game_id"], stats)
                elif kind == "game_over" and notice["game_id"] not in stats["finished"]:
                    stats["finished"].append(notice["game_id"])
                    if args.games is not None and len(stats["finished"]) >= args.games:
                        break
        except (urllib.error.URLError, TimeoutError, ConnectionError) as e:
            print(f"stream interrupted ({e}): reconnecting", file=sys.stderr, flush=True)
            time.sleep(1)
    print(json.dumps(stats), flush=True)


if __name__ == "__main__":
    main()
