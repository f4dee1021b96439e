"""firebase-admin (from PyPI) against a running `latchd serve --emulator`.

Usage: firebase_admin_interop.py HOST:PORT API_KEY [PROJECT]

It starts nothing: `run-firebase-admin-interop.sh` starts latchd, makes the API key with
`latchd client create --api-key`, runs this script and stops latchd. Each step is a check; steps
that need work not yet in the server (password-hash import, out-of-band links) are skipped with a
message saying why. The last line reads `interop: N passed, N failed, N skipped`.
Spec: reference/firebase-auth-protocol.md §§ 6, 7.
"""

import base64
import hashlib
import json
import os
import sys
import time
import traceback
import urllib.request
import urllib.error

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

HOST, API_KEY = sys.argv[1], sys.argv[2]
PROJECT = sys.argv[3] if len(sys.argv) > 3 else "default"
os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = HOST

import firebase_admin  # noqa: E402  (reads the emulator variable on first use)
from firebase_admin import auth, credentials  # noqa: E402


class Credential(credentials.Base):
    """firebase-admin wants some credential; against an emulator it sends `Bearer owner` instead."""

    def get_credential(self):
        return None


firebase_admin.initialize_app(Credential(), {"projectId": PROJECT})

results = {"passed": 0, "failed": 0, "skipped": 0}


def step(name):
    def run(function):
        try:
            outcome = function()
        except Exception:  # a failed step is reported and the next one runs
            results["failed"] += 1
            print(f"FAIL {name}")
            traceback.print_exc()
            return function
        if outcome == "skip":
            results["skipped"] += 1
        else:
            results["passed"] += 1
            print(f"ok   {name}")
        return function

    return run


def skip(name, why):
    print(f"SKIP {name}: {why}")
    return "skip"


def rest(endpoint, body):
    """POSTs to the Identity Toolkit v1 REST API with the API key; answers (status, JSON)."""
    url = f"http://{HOST}/identitytoolkit.googleapis.com/v1/{endpoint}?key={API_KEY}"
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def sign_in(email, password):
    status, body = rest("accounts:signInWithPassword", {"email": email, "password": password, "returnSecureToken": True})
    assert status == 200, body
    return body["idToken"]


def firebase_scrypt(password, salt, signer_key, separator, rounds, memory_cost):
    """Firebase's modified scrypt: AES-256-CTR of the signer key under scrypt(password, salt + separator)."""
    key = hashlib.scrypt(password, salt=salt + separator, n=1 << memory_cost, r=rounds, p=1, dklen=64)[:32]
    encryptor = Cipher(algorithms.AES(key), modes.CTR(b"\0" * 16)).encryptor()
    return encryptor.update(signer_key) + encryptor.finalize()


PASSWORD = "interop correct horse"
state = {}


@step("this script's Firebase scrypt matches the published test vector")
def scrypt_vector():
    # The example parameters and hash published with Firebase's scrypt description.
    digest = firebase_scrypt(
        b"user1password", base64.b64decode("42xEC+ixf3L2lw=="),
        base64.b64decode("jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA=="),
        base64.b64decode("Bw=="), 8, 14)
    expected = "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="
    assert base64.b64encode(digest).decode() == expected


@step("create_user, get_user and get_user_by_email")
def users():
    created = auth.create_user(
        uid="interop-alice", email="Interop.Alice@example.com", password=PASSWORD, display_name="Alice")
    assert created.uid == "interop-alice"
    by_id = auth.get_user("interop-alice")
    assert by_id.email == "interop.alice@example.com", by_id.email
    assert by_id.display_name == "Alice"
    assert by_id.user_metadata.creation_timestamp > 0
    assert any(p.provider_id == "password" for p in by_id.provider_data)
    assert auth.get_user_by_email("interop.alice@example.com").uid == "interop-alice"
    try:
        auth.get_user("nobody-here")
        raise AssertionError("get_user of an unknown uid succeeded")
    except auth.UserNotFoundError:
        pass
    try:
        auth.create_user(uid="interop-alice")
        raise AssertionError("a duplicate uid was accepted")
    except auth.UidAlreadyExistsError:
        pass
    try:
        auth.create_user(email="interop.alice@example.com")
        raise AssertionError("a duplicate e-mail was accepted")
    except auth.EmailAlreadyExistsError:
        pass


@step("update_user")
def update():
    auth.update_user("interop-alice", display_name="Alice B", email_verified=True, photo_url="https://example.com/a.png")
    user = auth.get_user("interop-alice")
    assert user.display_name == "Alice B" and user.email_verified and user.photo_url == "https://example.com/a.png"
    auth.update_user("interop-alice", display_name=auth.DELETE_ATTRIBUTE)
    assert auth.get_user("interop-alice").display_name is None


@step("list_users pages through every account")
def listing():
    for index in range(5):
        auth.create_user(uid=f"interop-list-{index}")
    page = auth.list_users(max_results=2)
    pages, seen = 0, []
    while page:
        seen += [user.uid for user in page.users]
        pages += 1
        page = page.get_next_page()
    assert pages >= 3, pages
    assert all(f"interop-list-{index}" in seen for index in range(5)), seen
    assert len(seen) == len(set(seen))
    assert {user.uid for user in auth.list_users().iterate_all()} >= set(seen)


@step("set_custom_user_claims shows in get_user and in ID tokens")
def claims():
    auth.set_custom_user_claims("interop-alice", {"role": "admin", "level": 3})
    assert auth.get_user("interop-alice").custom_claims == {"role": "admin", "level": 3}
    token = sign_in("interop.alice@example.com", PASSWORD)
    decoded = auth.verify_id_token(token)
    assert decoded["uid"] == "interop-alice" and decoded["role"] == "admin" and decoded["level"] == 3, decoded
    try:
        auth.set_custom_user_claims("interop-alice", {"sub": "x"})
        raise AssertionError("a reserved claim was accepted")
    except ValueError:
        pass


@step("verify_id_token with check_revoked, then revoke_refresh_tokens revokes it")
def revoke():
    token = sign_in("interop.alice@example.com", PASSWORD)
    assert auth.verify_id_token(token, check_revoked=True)["uid"] == "interop-alice"
    time.sleep(1.1)  # validSince has a resolution of one second
    auth.revoke_refresh_tokens("interop-alice")
    try:
        auth.verify_id_token(token, check_revoked=True)
        raise AssertionError("a revoked ID token was accepted")
    except auth.RevokedIdTokenError:
        pass
    assert auth.get_user("interop-alice").tokens_valid_after_timestamp > 0


@step("create_custom_token, then REST signInWithCustomToken")
def custom_token():
    token = auth.create_custom_token("interop-custom", {"plan": "pro"})
    status, body = rest("accounts:signInWithCustomToken", {"token": token.decode(), "returnSecureToken": True})
    assert status == 200, body
    decoded = auth.verify_id_token(body["idToken"])
    assert decoded["uid"] == "interop-custom" and decoded["plan"] == "pro", decoded
    state["custom_id_token"] = body["idToken"]


@step("create_session_cookie and verify_session_cookie")
def session_cookie():
    import datetime

    cookie = auth.create_session_cookie(state["custom_id_token"], expires_in=datetime.timedelta(minutes=10))
    decoded = auth.verify_session_cookie(cookie)
    assert decoded["uid"] == "interop-custom", decoded


@step("import_users of 1,000 accounts without passwords")
def import_plain():
    records = [
        auth.ImportUserRecord(
            uid=f"interop-plain-{index}", email=f"plain{index}@example.com", display_name=f"Plain {index}",
            email_verified=index % 2 == 0, custom_claims={"cohort": index % 7},
            user_metadata=auth.UserMetadata(creation_timestamp=1_500_000_000_000 + index))
        for index in range(1000)
    ]
    result = auth.import_users(records)
    assert result.failure_count == 0, [(e.index, e.reason) for e in result.errors[:5]]
    user = auth.get_user("interop-plain-42")
    assert user.email == "plain42@example.com" and user.email_verified and user.custom_claims == {"cohort": 0}
    assert user.user_metadata.creation_timestamp == 1_500_000_000_042, user.user_metadata.creation_timestamp


@step("import_users of 1,000 accounts with scrypt hashes, then sign in with an old password")
def import_scrypt():
    signer_key = os.urandom(64)
    separator = b"\x07"
    own_salt, shared_salt = os.urandom(16), os.urandom(16)
    own = firebase_scrypt(b"imported password 0", own_salt, signer_key, separator, 8, 14)
    shared = firebase_scrypt(b"imported password", shared_salt, signer_key, separator, 8, 14)
    records = [
        auth.ImportUserRecord(
            uid=f"interop-hash-{index}", email=f"hash{index}@example.com",
            password_hash=own if index == 0 else shared, password_salt=own_salt if index == 0 else shared_salt)
        for index in range(1000)
    ]
    hash_options = auth.UserImportHash.scrypt(key=signer_key, rounds=8, memory_cost=14, salt_separator=separator)
    result = auth.import_users(records, hash_alg=hash_options)
    assert result.failure_count == 0, [(e.index, e.reason) for e in result.errors[:5]]
    assert auth.verify_id_token(sign_in("hash0@example.com", "imported password 0"))["uid"] == "interop-hash-0"
    assert auth.verify_id_token(sign_in("hash7@example.com", "imported password"))["uid"] == "interop-hash-7"


@step("generate_password_reset_link, applied through the hosted action page; the new password signs in")
def reset_link():
    import html.parser
    import http.cookiejar
    import urllib.parse

    auth.create_user(uid="interop-reset", email="reset.user@example.com", password=PASSWORD)
    link = auth.generate_password_reset_link("reset.user@example.com")
    assert "oobCode=" in link and "mode=resetPassword" in link, link

    class Form(html.parser.HTMLParser):
        def __init__(self):
            super().__init__()
            self.action, self.fields = None, {}

        def handle_starttag(self, tag, attributes):
            attributes = dict(attributes)
            if tag == "form":
                self.action = attributes.get("action")
            elif tag == "input" and attributes.get("type") == "hidden":
                self.fields[attributes["name"]] = attributes.get("value", "")

    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with browser.open(link, timeout=30) as page:
        assert page.status == 200
        assert "frame-ancestors 'none'" in page.headers.get("Content-Security-Policy", "")
        form = Form()
        form.feed(page.read().decode())
    assert form.action and form.fields, "the action page has no form"
    new_password = "interop reset password 2"
    fields = dict(form.fields, newPassword=new_password)
    target = urllib.parse.urljoin(link, form.action)
    with browser.open(target, data=urllib.parse.urlencode(fields).encode(), timeout=30) as done:
        assert done.status == 200
    assert auth.verify_id_token(sign_in("reset.user@example.com", new_password))["uid"] == "interop-reset"
    status, body = rest("accounts:resetPassword", {"oobCode": urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)["oobCode"][0]})
    assert status == 400 and body["error"]["message"].startswith("INVALID_OOB_CODE"), body


@step("a custom token from create_custom_token signs in with the latch CLI")
def cli_custom_token():
    import subprocess
    import tempfile

    latch = os.environ.get("LATCH_BIN")
    if not latch:
        return skip("latch signin --custom-token", "LATCH_BIN is not set")
    token = auth.create_custom_token("interop-cli", {"tier": "gold"}).decode()
    with tempfile.TemporaryDirectory() as home:
        completed = subprocess.run(
            [latch, "--json", "--server", f"http://{HOST}", "--api-key", API_KEY, "--cache", f"{home}/credentials.json",
             "signin", "--custom-token", token],
            capture_output=True, text=True, timeout=60, env=dict(os.environ, HOME=home))
        assert completed.returncode == 0, completed.stderr + completed.stdout
        assert json.loads(completed.stdout)["uid"] == "interop-cli", completed.stdout
    assert auth.get_user("interop-cli").uid == "interop-cli"


@step("delete_users in a batch, delete_user")
def delete():
    uids = [f"interop-plain-{index}" for index in range(1000)]
    result = auth.delete_users(uids)
    assert result.failure_count == 0, [(e.index, e.reason) for e in result.errors[:5]]
    assert result.success_count == 1000
    found = auth.get_users([auth.UidIdentifier(uid) for uid in uids[:10]])
    assert not found.users and len(found.not_found) == 10
    auth.delete_user("interop-alice")
    try:
        auth.get_user("interop-alice")
        raise AssertionError("a deleted account was found")
    except auth.UserNotFoundError:
        pass


print(f"interop: {results['passed']} passed, {results['failed']} failed, {results['skipped']} skipped")
sys.exit(1 if results["failed"] else 0)
