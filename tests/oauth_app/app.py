"""A third-party app, written for the tests with Python's standard library alone (no code shared
with the server), runs OAuth 2.0 with PKCE against a Keltis server the way an app would.

Usage: app.py BASE_URL SESSION_TOKEN
SESSION_TOKEN is a signed-in player's access token: it stands for the player answering the
consent screen (the web client does the same two calls). Prints one JSON line; exits non-zero on
any mismatch.
"""

import base64
import hashlib
import json
import secrets
import sys
import urllib.error
import urllib.parse
import urllib.request

BASE, SESSION = sys.argv[1], sys.argv[2]
APP = "Python Helper"
REDIRECT = "http://127.0.0.1:8765/callback"


def call(method, path, token=None, body=None, form=None):
    headers = {}
    data = None
    if token:
        headers["Authorization"] = "Bearer " + token
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    if form is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        data = urllib.parse.urlencode(form).encode()
    req = urllib.request.Request(BASE + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req) as r:
            text = r.read().decode()
            return r.status, (json.loads(text) if text else None)
    except urllib.error.HTTPError as e:
        text = e.read().decode()
        return e.code, (json.loads(text) if text else None)


def pkce():
    verifier = base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()
    challenge = (
        base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    )
    return verifier, challenge


def authorize(challenge, state, scope="read", method="S256", approve=True):
    """The player's answer through the consent screen's calls; the redirect's query."""
    request = {
        "response_type": "code",
        "client_id": APP,
        "redirect_uri": REDIRECT,
        "scope": scope,
        "state": state,
        "code_challenge": challenge,
        "code_challenge_method": method,
    }
    status, answer = call(
        "POST", "/api/v1/oauth/authorize", SESSION, {"request": request, "approve": approve}
    )
    assert status == 200, (status, answer)
    to = urllib.parse.urlsplit(answer["redirect_to"])
    assert to.scheme + "://" + to.netloc + to.path == REDIRECT, answer
    return dict(urllib.parse.parse_qsl(to.query))


def exchange(code, verifier, redirect=REDIRECT, client=APP):
    return call(
        "POST",
        "/oauth/token",
        form={
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": redirect,
            "client_id": client,
            "code_verifier": verifier,
        },
    )


def refused(answer, error="invalid_grant"):
    status, body = answer
    assert status == 400 and body["error"] == error, answer


report = {}
status, meta = call("GET", "/.well-known/oauth-authorization-server")
assert status == 200 and meta["code_challenge_methods_supported"] == ["S256"], meta

verifier, challenge = pkce()
state = secrets.token_urlsafe(12)
back = authorize(challenge, state)
# The app checks the state it sent: a mismatch would be a forged answer.
assert back["state"] == state, back
code = back["code"]
refused(exchange(code, verifier[:-1] + ("A" if verifier[-1] != "A" else "B")))
refused(exchange(code, verifier, redirect=REDIRECT + "x"))
refused(exchange(code, verifier, redirect="http://127.0.0.2:8765/callback"))
status, granted = exchange(code, verifier)
assert status == 200 and granted["token_type"] == "Bearer" and granted["scope"] == "read", granted
token = granted["access_token"]

status, me = call("GET", "/api/v1/me", token)
assert status == 200, me
report["name"] = me["name"]
status, problem = call("POST", "/api/v1/games", token, {"variant": "keltis", "players": 2})
assert status == 403 and problem["code"] == "insufficient_scope", problem
status, problem = call("GET", "/api/v1/me/webhooks", token)
assert status == 403 and problem["code"] == "insufficient_scope", problem

# The code again: refused, and the token it gave stops working.
refused(exchange(code, verifier))
status, _ = call("GET", "/api/v1/me", token)
assert status == 401, status

# plain, or no challenge: sent back to the app as invalid_request, with the state.
for method, chal in [("plain", verifier), ("S256", "")]:
    back = authorize(chal, "s2", method=method)
    assert back.get("error") == "invalid_request" and back["state"] == "s2", back
# The player says no.
back = authorize(challenge, "s3", approve=False)
assert back.get("error") == "access_denied", back

# A token with play, revoked by the app.
verifier, challenge = pkce()
code = authorize(challenge, "s4", scope="read play")["code"]
status, granted = exchange(code, verifier)
assert status == 200 and granted["scope"] == "play read", granted
token = granted["access_token"]
status, game = call("POST", "/api/v1/games", token, {"variant": "keltis", "players": 2})
assert status == 201, game
status, checked = call("POST", "/oauth/introspect", form={"token": token})
assert checked["active"] is True and checked["client_id"] == APP, checked
status, _ = call("POST", "/oauth/revoke", form={"token": token})
assert status == 200
status, checked = call("POST", "/oauth/introspect", form={"token": token})
assert checked == {"active": False}, checked
status, _ = call("GET", "/api/v1/me", token)
assert status == 401
report["game"] = game["id"]
report["ok"] = True
print(json.dumps(report))
