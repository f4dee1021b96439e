"""E-mail over SMTP against a real SMTP server (issue 12, "An SMTP test").

Starts aiosmtpd servers in this process (one with STARTTLS and AUTH on a certificate made here, one
plain development sink), runs `latchd serve` against them, and checks:
  - production-like (no --dev): a native-auth sign-up's code arrives as a real message over STARTTLS
    with AUTH, from the tenant's sender (display name = the tenant's brand name, RFC 2047 encoded),
    with To, Subject, Date, Message-ID and a multipart/alternative body whose text/plain and
    text/html parts both hold the code and the tenant's name; the code completes the sign-up;
  - a server answering 451 leads to attempts that grow with backoff and then a dead letter in
    `latchd outbox --failed`, and a 550 to a dead letter at once, while each challenge answer comes
    back in under 2 seconds; the password never shows in the log or in `latchd outbox`;
  - --dev with --smtp-url: the message reaches the sink and the dev log line is still written.

Usage: smtp_delivery.py path/to/latchd   (run by run-smtp-tests.sh)
"""

import asyncio
import email
import email.policy
import email.utils
import json
import logging
import os
import re
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import warnings

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

from interop_support import Failure, Steps, expect

warnings.filterwarnings("ignore", message="Session.login_data is deprecated")
warnings.filterwarnings("ignore", message="Requiring AUTH while not requiring TLS")
logging.getLogger("mail.log").setLevel(logging.ERROR)

USER = "latch-mailer"
PASSWORD = "smtp-" + os.urandom(9).hex()
API_KEY = "smtp-" + os.urandom(12).hex()
BRAND = "Bäckerei Müller"
SENDER = "shop@latch.test"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RecordingHandler:
    """Records each accepted envelope; `mode` makes it accept, answer 451 (transient) or 550
    (permanent) to RCPT TO, counting every attempt."""

    def __init__(self):
        self.messages = []
        self.mode = "accept"
        self.refusals = []
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.mode != "accept":
            with self.lock:
                self.refusals.append((time.monotonic(), address, self.mode))
            return "451 4.3.0 Try again later" if self.mode == "451" else "550 5.1.1 Mailbox unavailable"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.messages.append({
                "mail_from": envelope.mail_from,
                "rcpt_tos": list(envelope.rcpt_tos),
                "content": envelope.original_content or envelope.content,
                "tls": session.ssl is not None,
                "authenticated": bool(getattr(session, "authenticated", False)),
            })
        return "250 Message accepted for delivery"

    def wait_for(self, recipient, timeout=15.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                for message in self.messages:
                    if recipient in message["rcpt_tos"]:
                        return message
            time.sleep(0.1)
        raise Failure(f"a message to {recipient} within {timeout:.0f} s", "none arrived")


def authenticator(server, session, envelope, mechanism, auth_data):
    ok = auth_data.login == USER.encode() and auth_data.password == PASSWORD.encode()
    return AuthResult(success=ok, handled=False)


def make_certificate(directory):
    key, cert = os.path.join(directory, "smtp.key"), os.path.join(directory, "smtp.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
        check=True, capture_output=True)
    return key, cert


class Latchd:
    """One `latchd serve` on a free port with a temporary data directory."""

    def __init__(self, binary, directory, arguments, environment=None):
        os.makedirs(directory, exist_ok=True)
        self.binary = binary
        self.data = os.path.join(directory, "data")
        self.port = free_port()
        self.log_path = os.path.join(directory, "latchd.log")
        self.log = open(self.log_path, "w")
        env = dict(os.environ)
        env.update(environment or {})
        self.process = subprocess.Popen(
            [binary, "serve", "--listen", f"127.0.0.1:{self.port}", "--data-dir", self.data, "--durability", "normal"]
            + arguments, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.base = f"http://127.0.0.1:{self.port}"
        for _ in range(150):
            try:
                urllib.request.urlopen(self.base + "/healthz", timeout=1).read()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise Failure("latchd to start", self.log_text())
                time.sleep(0.1)
        raise Failure("latchd to answer /healthz", self.log_text())

    def admin(self, *arguments):
        done = subprocess.run([self.binary, *arguments, "--data-dir", self.data], capture_output=True, text=True)
        expect(done.returncode == 0, f"`latchd {' '.join(arguments)}` to succeed", done.stderr or done.stdout)
        return done.stdout

    def post(self, path, **fields):
        data = urllib.parse.urlencode(fields).encode()
        request = urllib.request.Request(self.base + path, data=data, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def log_text(self):
        self.log.flush()
        with open(self.log_path) as handle:
            return handle.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def sign_up_challenge(server, client_id, address):
    """Starts a sign-up of `address` and asks for the e-mail code; returns the continuation token
    and how long the challenge took."""
    status, body = server.post(
        "/default/signup/v1.0/start", client_id=client_id, username=address, password="Correct-Horse-9",
        challenge_type="oob password redirect")
    expect(status == 200 and "continuation_token" in body, "sign-up start to answer a continuation token", (status, body))
    started = time.monotonic()
    status, body = server.post(
        "/default/signup/v1.0/challenge", client_id=client_id, continuation_token=body["continuation_token"])
    elapsed = time.monotonic() - started
    expect(status == 200 and body.get("challenge_type") == "oob", "the challenge to send an e-mail code", (status, body))
    expect(elapsed < 2.0, "the challenge answer in under 2 s", f"{elapsed:.2f} s")
    return body["continuation_token"], elapsed


def outbox_line(server, address, failed=False):
    arguments = ["outbox", "--to", address, "--limit", "1"] + (["--failed"] if failed else [])
    lines = [line for line in server.admin(*arguments).splitlines() if line.strip()]
    return lines[0] if lines else None


def field(line, name):
    match = re.search(rf"\t{name}=([^\t]*)", "\t" + line)
    return match.group(1) if match else None


def main():
    binary = os.path.abspath(sys.argv[1])
    directory = tempfile.mkdtemp(prefix="latch-smtp-")
    key, cert = make_certificate(directory)
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    tls.load_cert_chain(cert, key)

    secure = RecordingHandler()
    secure_port = free_port()
    secure_server = Controller(
        secure, hostname="127.0.0.1", port=secure_port, tls_context=tls, require_starttls=True,
        auth_required=True, auth_require_tls=True, authenticator=authenticator)
    secure_server.start()
    implicit = RecordingHandler()
    implicit_port = free_port()
    implicit_server = Controller(
        implicit, hostname="127.0.0.1", port=implicit_port, ssl_context=tls, auth_required=True,
        auth_require_tls=False, authenticator=authenticator)  # the whole session is TLS; aiosmtpd cannot tell
    implicit_server.start()
    sink = RecordingHandler()
    sink_port = free_port()
    sink_server = Controller(sink, hostname="127.0.0.1", port=sink_port)
    sink_server.start()

    steps = Steps("smtp")
    production = None
    development = None
    try:
        production = Latchd(binary, os.path.join(directory, "production"), [
            "--smtp-url", f"smtp://{USER}@127.0.0.1:{secure_port}", "--smtp-starttls", "required",
            "--smtp-ca-file", cert, "--smtp-from", "Fallback <no-reply@latch.test>",
            "--outbox-max-attempts", "3", "--outbox-retry-base-seconds", "1",
        ], {"LATCH_SMTP_PASSWORD": PASSWORD})
        state = {}

        def configure():
            production.admin("client", "create", "--id", "smtp-test")
            production.admin("client", "create", "--id", "smtp-firebase", "--api-key", API_KEY)
            production.admin("tenant", "update", "default", "--brand-name", BRAND, "--email-from", SENDER)
            time.sleep(2.5)  # running servers apply tenant changes within 2 seconds
            expect("email:" in production.log_text(), "the banner to name the SMTP server", production.log_text())

        def code_arrives():
            state["token"], elapsed = sign_up_challenge(production, "smtp-test", "ada@example.com")
            message = secure.wait_for("ada@example.com")
            expect(message["tls"], "the message sent after STARTTLS", "in the clear")
            expect(message["authenticated"], "the session authenticated (AUTH)", "not authenticated")
            expect(message["mail_from"] == SENDER, f"MAIL FROM {SENDER}", message["mail_from"])
            expect(message["rcpt_tos"] == ["ada@example.com"], "RCPT TO ada@example.com", message["rcpt_tos"])
            state["message"] = message
            print(f"     challenge answered in {elapsed:.2f} s")

        def headers_and_parts():
            raw = state["message"]["content"]
            expect(all(len(line) <= 998 for line in raw.split(b"\r\n")), "no line over 998 octets", "a longer one")
            expect(b"\n" not in raw.replace(b"\r\n", b""), "CRLF line endings only", "a bare LF")
            parsed = email.message_from_bytes(raw, policy=email.policy.default)
            name, address = email.utils.parseaddr(str(parsed["From"]))
            expect(address == SENDER, f"From address {SENDER}", parsed["From"])
            expect(name == BRAND, f"From display name {BRAND!r}", name)
            expect("=?UTF-8?" in raw.decode("ascii").split("\r\n\r\n")[0], "an RFC 2047 encoded name", "none")
            expect(str(parsed["To"]) == "ada@example.com", "To ada@example.com", parsed["To"])
            expect(str(parsed["Subject"]) == "Verify your e-mail address", "the sign-up subject", parsed["Subject"])
            date = email.utils.parsedate_to_datetime(str(parsed["Date"]))
            expect(abs(time.time() - date.timestamp()) < 120, "a current Date", parsed["Date"])
            expect(re.fullmatch(r"<[0-9a-f]{32}@latch\.test>", str(parsed["Message-ID"])) is not None,
                   "Message-ID <hex@latch.test>", parsed["Message-ID"])
            expect(str(parsed["MIME-Version"]) == "1.0", "MIME-Version 1.0", parsed["MIME-Version"])
            expect(parsed.get_content_type() == "multipart/alternative", "multipart/alternative",
                   parsed.get_content_type())
            parts = {part.get_content_type(): part.get_content() for part in parsed.iter_parts()}
            expect(sorted(parts) == ["text/html", "text/plain"], "a text/plain and a text/html part", sorted(parts))
            match = re.search(r"\b(\d{6,10})\b", parts["text/plain"])
            expect(match is not None, "a code in the text part", parts["text/plain"])
            code = match.group(1)
            expect(code in parts["text/html"], "the same code in the HTML part", parts["text/html"])
            for kind, text in parts.items():
                expect(BRAND in text, f"the tenant's name in the {kind} part", text)
            state["code"] = code

        def code_completes_sign_up():
            status, body = production.post(
                "/default/signup/v1.0/continue", client_id="smtp-test", continuation_token=state["token"],
                grant_type="oob", oob=state["code"])
            expect(status == 200 and "continuation_token" in body, "the e-mailed code to complete the sign-up",
                   (status, body))

        def sign_in_link_arrives():
            request = urllib.request.Request(
                f"{production.base}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key={API_KEY}",
                data=json.dumps({"requestType": "EMAIL_SIGNIN", "email": "frank@example.com",
                                 "continueUrl": "https://app.example/done"}).encode(),
                headers={"Content-Type": "application/json"}, method="POST")
            with urllib.request.urlopen(request, timeout=10) as response:
                expect(response.status == 200, "sendOobCode to answer 200", response.status)
            parsed = email.message_from_bytes(secure.wait_for("frank@example.com")["content"], policy=email.policy.default)
            expect(str(parsed["Subject"]) == "Your sign-in link", "the sign-in link subject", parsed["Subject"])
            parts = {part.get_content_type(): part.get_content() for part in parsed.iter_parts()}
            match = re.search(r"https?://\S*oobCode=[\w-]+\S*", parts["text/plain"])
            expect(match is not None, "the link in the text part", parts["text/plain"])
            link = match.group(0)
            expect(f'href="{link.replace("&", "&amp;")}"' in parts["text/html"], "the same link in the HTML part",
                   parts["text/html"])
            for kind, text in parts.items():
                expect(BRAND in text, f"the tenant's name in the {kind} part", text)

        def transient_refusals_dead_letter():
            secure.mode = "451"
            before = len(secure.refusals)
            sign_up_challenge(production, "smtp-test", "bob@example.com")
            attempts_seen = set()
            deadline = time.monotonic() + 30
            line = None
            while time.monotonic() < deadline:
                line = outbox_line(production, "bob@example.com")
                if line:
                    attempts_seen.add(int(field(line, "attempts") or 0))
                    if "\tabandoned\t" in line:
                        break
                time.sleep(0.2)
            expect(line and "\tabandoned\t" in line, "the message abandoned after its last attempt", line)
            expect(field(line, "attempts") == "3", "3 attempts", line)
            expect("451" in (field(line, "last_error") or ""), "the 451 reply in last_error", line)
            times = [moment for moment, address, _ in secure.refusals[before:] if "bob@" in address]
            expect(len(times) == 3, "3 delivery attempts at the server", len(times))
            gaps = [later - earlier for earlier, later in zip(times, times[1:])]
            expect(gaps[1] > gaps[0] * 1.3, "growing waits between attempts (backoff)", [f"{gap:.2f}" for gap in gaps])
            failed = outbox_line(production, "bob@example.com", failed=True)
            expect(failed and "\tabandoned\t" in failed, "`latchd outbox --failed` to list it", failed)
            print(f"     attempts seen while pending: {sorted(attempts_seen)}; waits {[round(g, 2) for g in gaps]} s")

        def permanent_refusal_dead_letter():
            secure.mode = "550"
            sign_up_challenge(production, "smtp-test", "carol@example.com")
            deadline = time.monotonic() + 15
            line = None
            while time.monotonic() < deadline:
                line = outbox_line(production, "carol@example.com", failed=True)
                if line:
                    break
                time.sleep(0.2)
            expect(line is not None, "a dead letter for the 550 refusal", "none")
            expect("550" in (field(line, "last_error") or ""), "the 550 reply in last_error", line)
            time.sleep(1.5)  # past the first retry's wait: a second attempt would have come by now
            tries = [address for _, address, _ in secure.refusals if "carol@" in address]
            expect(len(tries) == 1, "one attempt only (a 5xx refusal is not retried)", len(tries))
            secure.mode = "accept"

        def no_password_anywhere():
            listing = production.admin("outbox", "--limit", "20")
            expect(PASSWORD not in production.log_text(), "no password in the log", "it is there")
            expect(PASSWORD not in listing, "no password in `latchd outbox`", "it is there")

        steps.run("configure a client and the tenant's sender", configure)
        steps.run("the sign-up code arrives over STARTTLS with AUTH", code_arrives)
        steps.run("headers, both parts, the code and the tenant's name", headers_and_parts)
        steps.run("the e-mailed code completes the sign-up", code_completes_sign_up)
        steps.run("an account API sign-in link arrives with the link in both parts", sign_in_link_arrives)
        steps.run("451 refusals: attempts with backoff, then a dead letter", transient_refusals_dead_letter)
        steps.run("a 550 refusal: a dead letter at once", permanent_refusal_dead_letter)
        steps.run("the SMTP password shows nowhere", no_password_anywhere)
        production.stop()
        production = None

        development = Latchd(binary, os.path.join(directory, "development"), [
            "--dev", "--smtp-url", f"smtp://127.0.0.1:{sink_port}", "--smtp-starttls", "off",
        ])

        def dev_log_and_sink():
            sign_up_challenge(development, "latch-dev", "dave@example.com")
            message = sink.wait_for("dave@example.com")
            parsed = email.message_from_bytes(message["content"], policy=email.policy.default)
            text = next(part.get_content() for part in parsed.iter_parts() if part.get_content_type() == "text/plain")
            deadline = time.monotonic() + 5
            logged = None
            while time.monotonic() < deadline and not logged:
                logged = re.search(r"outbox channel=email to=dave@example.com code=(\d+)", development.log_text())
                time.sleep(0.1)
            expect(logged is not None, "the dev log line beside the SMTP sink", development.log_text()[-500:])
            expect(logged.group(1) in text, "the logged code in the e-mailed message", text)
            name, address = email.utils.parseaddr(str(parsed["From"]))
            expect(address == "no-reply@localhost" and name == "default",
                   "the default sender named after the tenant", parsed["From"])

        steps.run("--dev with --smtp-url: the sink gets it and the dev log line is written", dev_log_and_sink)
        development.stop()
        development = None

        def implicit_tls():
            server = Latchd(binary, os.path.join(directory, "implicit"), [
                "--dev", "--smtp-url", f"smtps://{USER}@127.0.0.1:{implicit_port}", "--smtp-ca-file", cert,
            ], {"LATCH_SMTP_PASSWORD": PASSWORD})
            try:
                sign_up_challenge(server, "latch-dev", "erin@example.com")
                try:
                    message = implicit.wait_for("erin@example.com")
                except Failure:
                    print(server.log_text()[-1500:], file=sys.stderr)
                    raise
                expect(message["authenticated"], "the session authenticated (AUTH)", "not authenticated")
            finally:
                server.stop()

        steps.run("smtps:// (implicit TLS) with AUTH", implicit_tls)
    finally:
        for server in (production, development):
            if server:
                if steps.failed:
                    print("latchd log (tail):\n" + server.log_text()[-3000:], file=sys.stderr)
                server.stop()
        secure_server.stop()
        sink_server.stop()
        implicit_server.stop()
    return steps.finish()


if __name__ == "__main__":
    sys.exit(main())
