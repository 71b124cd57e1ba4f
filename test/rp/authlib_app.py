"""A Flask app that signs people in with Cairn through Authlib, set up by the catalog's snippet.

Usage: python3 authlib_app.py <port> <setup.json>, where setup.json holds {"snippet": <the filled
snippet text>, "values": <its values>}. The snippet runs unchanged: it sets the secret key, registers
the "cairn" client and adds /login and /auth/callback. This file adds what a test needs to watch:
"/" (the protected page), /refresh (the refresh_token grant) and /logout (the entry's notes).
"""

import json
import sys
from urllib.parse import urlencode

from flask import Flask, g, jsonify, redirect, session
from markupsafe import escape

port = int(sys.argv[1])
with open(sys.argv[2], encoding="utf-8") as f:
    setup = json.load(f)
values = setup["values"]

app = Flask(__name__)
# The dashboard's snippet is the code under test; it defines `oauth`, `login` and `callback`.
exec(setup["snippet"], globals())

# Tokens stay on the server, by user: the snippet keeps only the ID token's claims in Flask's
# signed (not encrypted) cookie session.
TOKENS = {}
SHOWN_CLAIMS = ("sub", "preferred_username", "email", "name")


@app.after_request
def keep_token(response):
    token = g.get("_oauth_token_cairn")  # set by authorize_access_token() in the snippet's callback
    if token and "user" in session:
        TOKENS[session["user"]["sub"]] = token
    return response


@app.route("/")
def home():
    user = session.get("user")
    if not user:
        return redirect("/login")
    rows = "".join(f'<dt>{name}</dt><dd data-claim="{name}">{escape(user.get(name, ""))}</dd>' for name in SHOWN_CLAIMS)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authlib app</title></head>'
        f"<body><h1>Signed in with Authlib</h1><dl>{rows}</dl></body></html>"
    )


@app.route("/refresh")
def refresh():
    user = session.get("user")
    if not user or user["sub"] not in TOKENS:
        return jsonify(error="not signed in"), 401
    before = TOKENS[user["sub"]]
    if "refresh_token" not in before:
        return jsonify(error="Cairn issued no refresh token (the scopes lack offline_access)"), 409
    after = oauth.cairn.fetch_access_token(grant_type="refresh_token", refresh_token=before["refresh_token"])
    TOKENS[user["sub"]] = after
    return jsonify(before=before["access_token"], after=after["access_token"], rotated=after.get("refresh_token") != before["refresh_token"])


@app.route("/logout")
def logout():
    user = session.pop("user", None)
    if user:
        TOKENS.pop(user["sub"], None)
    session.clear()
    query = urlencode({"client_id": values["client_id"], "post_logout_redirect_uri": values["post_logout_redirect_uri"]})
    return redirect(f"{values['end_session_endpoint']}?{query}")


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=port)
