"""What browser_flow.py and authlib_flow.py share: step reporting, the dev outbox read from latchd's
log, the loopback redirect target, PKCE, and (for the browser) headless Chromium with the checks every
hosted page must pass (issue 11, "How it is checked"; the pages contract: CSP, framing, cookies).

Nothing here starts latchd: run-browser-tests.sh does, and stops it.
"""

import base64
import hashlib
import html.parser
import json
import os
import re
import secrets
import sys
import tempfile
import threading
import time
import traceback
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Failure(Exception):
    """A check that did not hold: what was expected and what was seen."""

    def __init__(self, expected, seen):
        super().__init__(f"expected {expected}; seen {seen}")


def expect(condition, expected, seen):
    """Raises a Failure unless `condition`."""
    if not condition:
        raise Failure(expected, seen)


class Steps:
    """Runs the steps of one flow in order, one line each. The steps depend on one another, so the
    first failure ends the flow; the last line reads `NAME: N passed, N failed, N skipped`."""

    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.cleanups = []

    def skip(self, title, why):
        """A step the server does not offer (says so, e.g. its discovery document lists no endpoint for it)."""
        self.skipped += 1
        print(f"SKIP {title}: {why}", flush=True)

    def run(self, title, function, *args):
        started = time.monotonic()
        try:
            result = function(*args)
        except Failure as failure:
            self.fail(title, str(failure))
        except Exception as error:  # an unexpected error is a failure of this step, with its trace
            traceback.print_exc()
            self.fail(title, f"{type(error).__name__}: {error}")
        self.passed += 1
        detail = f" ({result})" if isinstance(result, str) and result else ""
        print(f"ok   {title}{detail} [{time.monotonic() - started:.1f}s]", flush=True)
        return result

    def fail(self, title, message):
        self.failed += 1
        print(f"FAIL {title}: {message}", flush=True)
        self.finish()

    def finish(self):
        for cleanup in reversed(self.cleanups):
            try:
                cleanup()
            except Exception:
                traceback.print_exc()
        self.cleanups = []
        print(f"{self.name}: {self.passed} passed, {self.failed} failed, {self.skipped} skipped", flush=True)
        sys.exit(1 if self.failed else 0)


# --- The dev outbox -------------------------------------------------------------------------------


class Outbox:
    """Codes from `latchd serve --dev`'s log: one line per message, `outbox ... to=<address> ... code=<code>`."""

    LINE = re.compile(r"\boutbox\b.*\bto=(\S+).*\bcode=(\S+)")

    def __init__(self, log_path):
        self.log_path = log_path

    def mark(self):
        """Where the log ends now: codes sent after it are the new ones."""
        try:
            return os.path.getsize(self.log_path)
        except OSError:
            return 0

    def code_for(self, address, since, timeout=15.0):
        """The newest code sent to `address` after the offset `since`."""
        deadline = time.monotonic() + timeout
        while True:
            with open(self.log_path, "rb") as log:
                log.seek(since)
                text = log.read().decode("utf-8", "replace")
            codes = [match.group(2) for match in map(self.LINE.search, text.splitlines())
                     if match and match.group(1) == address]
            if codes:
                return codes[-1]
            if time.monotonic() > deadline:
                raise Failure(f"an outbox line with to={address} and code=… in latchd's log",
                              f"none in {timeout:.0f}s")
            time.sleep(0.1)


# --- The loopback redirect target (RFC 8252 § 7.3) -----------------------------------------------


class RedirectTarget:
    """A tiny HTTP server on 127.0.0.1 with a random port, the client's redirect URI: it records
    each request's path, query and (form_post) body and answers with a small page."""

    def __init__(self):
        self.hits = []
        self.lock = threading.Lock()
        # path -> function(hit) -> (status, [(header, value)], body bytes): pages of its own (the probe's).
        self.routes = {}
        target = self

        class Handler(BaseHTTPRequestHandler):
            def record(self, body):
                parsed = urllib.parse.urlsplit(self.path)
                if parsed.path == "/favicon.ico":  # Chromium asks on its own; not a redirect
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                hit = {
                    "method": self.command, "path": parsed.path,
                    "query": dict(urllib.parse.parse_qsl(parsed.query, keep_blank_values=True)),
                    "form": dict(urllib.parse.parse_qsl(body, keep_blank_values=True)),
                    "url": f"{target.base}{self.path}",
                }
                with target.lock:
                    target.hits.append(hit)
                route = target.routes.get(parsed.path)
                if route:
                    status, headers, page = route(hit)
                    self.send_response(status)
                    for name, value in headers + [("Content-Length", str(len(page)))]:
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(page)
                    return
                page = (b"<!DOCTYPE html><html lang='en'><title>received</title><link rel='icon' href='data:,'>"
                        b"<h1 id='received'>received</h1></html>")
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)

            def do_GET(self):
                self.record("")

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                self.record(self.rfile.read(length).decode("utf-8", "replace"))

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def uri(self, path="/callback"):
        return self.base + path

    def count(self):
        with self.lock:
            return len(self.hits)

    def wait_for(self, since, timeout=10.0):
        """The first request after the first `since` ones, or None."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.hits) > since:
                    return self.hits[since]
            time.sleep(0.05)
        return None

    def close(self):
        self.server.shutdown()
        self.server.server_close()


# --- OAuth helpers ---------------------------------------------------------------------------------


def pkce():
    """A code verifier and its S256 challenge (RFC 7636 § 4.1, § 4.2)."""
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


def jwt_claims(token):
    """The payload of a JWT, unverified (authlib_flow.py verifies signatures against the JWKS)."""
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def url_with(base, **parameters):
    return base + ("&" if "?" in base else "?") + urllib.parse.urlencode(
        {key: value for key, value in parameters.items() if value is not None})


class FormParser(html.parser.HTMLParser):
    """The forms of a page (`id`, `action`, `method`, inputs, buttons), its `<html>` attributes and
    its field errors, for the steps that post the hosted forms without a browser."""

    def __init__(self):
        super().__init__()
        self.forms = {}
        self.html = {}
        self.links = {}
        self.alerts = []
        self.current = None
        self.alert_depth = 0

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "html":
            self.html = attributes
        elif tag == "form":
            self.current = {"id": attributes.get("id"), "action": attributes.get("action") or "",
                            "method": (attributes.get("method") or "get").lower(), "inputs": {}, "buttons": []}
            self.forms[attributes.get("id")] = self.current
        elif tag == "input" and self.current is not None and attributes.get("name"):
            kind = (attributes.get("type") or "text").lower()
            if kind in ("submit", "button"):
                self.current["buttons"].append((attributes["name"], attributes.get("value") or ""))
            elif kind not in ("checkbox", "radio") or "checked" in attributes:
                self.current["inputs"][attributes["name"]] = attributes.get("value") or ""
        elif tag == "button" and self.current is not None and attributes.get("name"):
            self.current["buttons"].append((attributes["name"], attributes.get("value") or ""))
        elif tag == "a" and attributes.get("id"):
            self.links[attributes["id"]] = attributes.get("href") or ""
        if attributes.get("role") == "alert":
            self.alerts.append("")
            self.alert_depth = 1
        elif self.alert_depth:
            self.alert_depth += 1

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None
        if self.alert_depth:
            self.alert_depth -= 1

    def handle_data(self, data):
        if self.alert_depth and self.alerts:
            self.alerts[-1] += data.strip()


def parse_page(text):
    parser = FormParser()
    parser.feed(text)
    return parser


# --- Page security (the pages contract: headers on every page, cookies) ---------------------------


def check_page_headers(headers, where):
    """`headers` (lower-case names) of a hosted page: a CSP without 'unsafe-inline' that denies
    framing, `X-Frame-Options: DENY` and `Cache-Control: no-store`. Returns the CSP."""
    csp = headers.get("content-security-policy")
    expect(csp, f"a Content-Security-Policy header on {where}", f"headers {sorted(headers)}")
    expect("'unsafe-inline'" not in csp, f"no 'unsafe-inline' in the CSP of {where}", csp)
    directives = {part.strip().split(" ")[0].lower(): part.strip() for part in csp.split(";") if part.strip()}
    expect(directives.get("frame-ancestors", "").replace("  ", " ") == "frame-ancestors 'none'",
           f"frame-ancestors 'none' in the CSP of {where}", csp)
    frame = headers.get("x-frame-options", "")
    expect(frame.strip().upper() == "DENY", f"X-Frame-Options: DENY on {where}", repr(frame))
    cache = headers.get("cache-control", "")
    expect("no-store" in cache.lower(), f"Cache-Control: no-store on {where}", repr(cache))
    return csp


def check_cookie_attributes(cookies, where, secure=False, path_prefix=None):
    """Each cookie (CDP Network.Cookie objects) is HttpOnly and SameSite=Lax, Secure under TLS, and
    scoped to the tenant's path when `path_prefix` is given."""
    for cookie in cookies:
        name = cookie.get("name")
        expect(cookie.get("httpOnly") is True, f"cookie {name} HttpOnly ({where})", cookie)
        expect(cookie.get("sameSite") == "Lax", f"cookie {name} SameSite=Lax ({where})", cookie.get("sameSite"))
        if secure:
            expect(cookie.get("secure") is True, f"cookie {name} Secure under TLS ({where})", cookie)
        if path_prefix:
            expect((cookie.get("path") or "").startswith(path_prefix),
                   f"cookie {name} with Path under {path_prefix} ({where})", cookie.get("path"))


# --- Headless Chromium -----------------------------------------------------------------------------


def chromium_binary():
    for path in ("/usr/lib/chromium/chromium", "/usr/bin/chromium"):
        if os.access(path, os.X_OK):
            return path
    raise Failure("Debian's chromium installed", "neither /usr/lib/chromium/chromium nor /usr/bin/chromium")


class Browser:
    """Headless Chromium through Debian's chromedriver, with its own temporary profile, the browser
    language `language` (Accept-Language), the performance log on (to read each document's response
    headers) and host names resolving nowhere (only loopback literals are reached)."""

    def __init__(self, artifacts, language="en", label="en"):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.artifacts = artifacts
        self.label = label
        self.shots = 0
        self.profile = tempfile.mkdtemp(prefix="latch-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = chromium_binary()
        for argument in (
            "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
            "--window-size=1000,1100", f"--user-data-dir={self.profile}", f"--lang={language}",
            "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-default-apps", "--disable-extensions",
            "--disable-crash-reporter", "--disable-breakpad", "--disable-domain-reliability", "--no-pings",
            "--disable-features=Translate,OptimizationHints,MediaRouter,AutofillServerCommunication",
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
        ):
            options.add_argument(argument)
        options.add_experimental_option("prefs", {"intl.accept_languages": language})
        options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
        service = Service(executable_path="/usr/bin/chromedriver",
                          log_output=os.path.join(artifacts, f"chromedriver-{label}.log"))
        self.driver = webdriver.Chrome(options=options, service=service)
        self.driver.set_page_load_timeout(30)
        self.documents = []

    def quit(self):
        try:
            self.driver.quit()
        finally:
            import shutil
            shutil.rmtree(self.profile, ignore_errors=True)

    # Documents and their headers, from the performance log (CDP Network events).
    def drain(self):
        """The document responses since the last drain, in order: {url, status, headers}; redirects
        included (their `Location` in the headers)."""
        fresh = []
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"]).get("message", {})
            params = message.get("params", {})
            if message.get("method") == "Network.requestWillBeSent" and params.get("redirectResponse") \
                    and params.get("type") == "Document":
                response = params["redirectResponse"]
            elif message.get("method") == "Network.responseReceived" and params.get("type") == "Document":
                response = params["response"]
            else:
                continue
            fresh.append({"url": response.get("url"), "status": response.get("status"),
                          "headers": {name.lower(): value for name, value in (response.get("headers") or {}).items()}})
        self.documents.extend(fresh)
        return fresh

    def console(self):
        """Chromium's console since the last read (CSP violations land here)."""
        return [entry.get("message", "") for entry in self.driver.get_log("browser")]

    def cookies(self, host="127.0.0.1"):
        cookies = self.driver.execute_cdp_cmd("Network.getAllCookies", {}).get("cookies", [])
        return [cookie for cookie in cookies if cookie.get("domain", "").lstrip(".") == host]

    def screenshot(self, name):
        self.shots += 1
        slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
        path = os.path.join(self.artifacts, f"{self.label}-{self.shots:02d}-{slug}.png")
        self.driver.save_screenshot(path)
        return path

    def html_attributes(self):
        element = self.driver.find_element("css selector", "html")
        return {"lang": element.get_attribute("lang"), "dir": element.get_attribute("dir")}

    def form_ids(self):
        return [element.get_attribute("id") for element in self.driver.find_elements("css selector", "form")]

    def alerts(self):
        return [element.text for element in self.driver.find_elements("css selector", "[role=alert]") if element.text]

    def describe(self):
        """What the browser shows, for failure messages."""
        heading = [element.text for element in self.driver.find_elements("css selector", "h1")][:1]
        return (f"url {self.driver.current_url}, forms {self.form_ids()}, heading {heading}, "
                f"alerts {self.alerts()}")
