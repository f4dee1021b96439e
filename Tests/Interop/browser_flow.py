"""The hosted pages in headless Chromium (selenium, Debian's chromium + chromium-driver) against a
running `latchd serve --dev` (issue 11, "How it is checked" → "A real browser").

Usage: browser_flow.py --base URL --log LATCHD_LOG --latchd BIN --data-dir DIR --artifacts DIR [--probe]

run-browser-tests.sh starts latchd and stops it. The flow, in one browser profile (English):
discovery → a third-party client (`latchd client create --third-party`) → sign-in page → sign-up →
the code from the outbox (latchd's log; a wrong one first) → consent → the redirect with code, state
and iss → the code exchanged with PKCE → a second authorize is silent (SSO) →
response_mode=form_post → prompt=none with the session → the device-code page (approved in the
browser, polled over HTTP; a second device denied answers access_denied) → RP-initiated logout → prompt=none answers login_required → the
sign-in page in Polish → a password sign-in redirects straight to the client → a password reset
from the sign-in page (prompt=login) → prompt=consent and
"deny" answer access_denied → an unknown client gets an error page, no redirect. Then a Hebrew profile (`ui_locales=he`, Accept-Language he): every
page `<html lang="he" dir="rtl">`, sign-up → code → consent → redirect, a sign-in with an e-mailed
code, and the device page.

Every latchd page is checked for its CSP (no 'unsafe-inline', frame-ancestors 'none'),
X-Frame-Options DENY and Cache-Control no-store, its cookies for HttpOnly, SameSite=Lax and the
tenant path, and a `<label for>` on every field (the wrong code's error tied to its field), and is
saved as a PNG under --artifacts; on the sign-in page Tab visits the controls in page order.

A navigation the CSP blocks (say `form-action 'self'` against the redirect to the client after a
form's POST) leaves Chromium on the page it posted from; every form post here waits for the page to
go and, when it stays, fails saying so, with Chromium's console. `--probe` checks only the browser
and that detector, on pages latchd served before the hosted pages.
"""

import argparse
import secrets
import subprocess
import time
import urllib.parse

import requests
from selenium.common.exceptions import NoSuchElementException, TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from interop_support import (Browser, Failure, Outbox, RedirectTarget, Steps, check_cookie_attributes,
                             check_page_headers, expect, jwt_claims, pkce, url_with)

arguments = argparse.ArgumentParser()
arguments.add_argument("--base", required=True)
arguments.add_argument("--log", required=True)
arguments.add_argument("--latchd")
arguments.add_argument("--data-dir")
arguments.add_argument("--artifacts", required=True)
arguments.add_argument("--probe", action="store_true")
options = arguments.parse_args()

BASE = options.base.rstrip("/")
TENANT = "default"
DEV_CLIENT = "latch-dev"
THIRD_PARTY = "browser-third-party"
SCOPE = "openid profile offline_access"
http = requests.Session()
outbox = Outbox(options.log)
target = RedirectTarget()
steps = Steps("browser")
steps.cleanups.append(target.close)
state = {}


# --- Driving the pages ------------------------------------------------------------------------------


def latchd_document(browser, where):
    """The response of the latchd page the browser shows now (from the performance log)."""
    documents = [document for document in browser.drain()
                 if (document["url"] or "").startswith(BASE) and not 300 <= (document["status"] or 0) < 400]
    expect(documents, f"a document response from latchd for {where}", "none in Chromium's performance log")
    return documents[-1]


def check_page(browser, form_id, name, language="en"):
    """The browser shows latchd's page with `<form id=form_id>` (or `<h1 id=...>` when form_id starts
    with 'h1#'), in `language` and its direction, with the contract's headers; screenshots it."""
    browser.screenshot(name)
    if form_id.startswith("h1#"):
        found = browser.driver.find_elements(By.CSS_SELECTOR, form_id)
        expect(found, f"the {name} page ({form_id})", browser.describe())
    else:
        expect(form_id in browser.form_ids(), f"the {name} page (form#{form_id})", browser.describe())
    document = latchd_document(browser, f"the {name} page")
    check_page_headers(document["headers"], f"the {name} page")
    attributes = browser.html_attributes()
    direction = "rtl" if language in ("he", "ar") else "ltr"
    expect((attributes["lang"] or "").split("-")[0] == language and attributes["dir"] == direction,
           f'<html lang="{language}" dir="{direction}"> on the {name} page', attributes)
    check_cookie_attributes(browser.cookies(), f"after the {name} page", path_prefix=f"/{TENANT}")
    check_labels(browser, name)
    return document


def check_labels(browser, name):
    """Every field a person fills in has an id and a `<label for>` naming it (the pages contract)."""
    fields = browser.driver.find_elements(
        By.CSS_SELECTOR, "form input:not([type=hidden]):not([type=submit]):not([type=button]), form select, form textarea")
    labelled = {label.get_attribute("for") for label in browser.driver.find_elements(By.CSS_SELECTOR, "label[for]")}
    for field in fields:
        field_id = field.get_attribute("id")
        expect(field_id and field_id in labelled, f"a <label for> for the field {field.get_attribute('name')} "
               f"on the {name} page", f"id {field_id!r}, labels for {sorted(labelled)}")


def check_keyboard_order(browser, name):
    """Tab from the top of the page visits every control (links, fields, buttons) in the order the
    page shows them: no tabindex reshuffles it and nothing is skipped."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    label = ("function label(e) { if (!e) return null; if (e.id) return e.id; var n = e.getAttribute('name');"
             " if (n) return n + '=' + (e.getAttribute('value') || '');"
             " return e.tagName.toLowerCase() + '(' + (e.textContent || '').trim().slice(0, 24) + ')'; }")
    describe = label + " return label(document.activeElement);"
    expected = browser.driver.execute_script(
        label + " return Array.from(document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea'))"
        ".filter(e => !e.disabled && e.offsetParent !== null && e.tabIndex >= 0).map(label);")
    browser.driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
    visited = []
    for _ in expected:
        ActionChains(browser.driver).send_keys(Keys.TAB).perform()
        visited.append(browser.driver.execute_script(describe))
    expect(visited == expected, f"Tab to visit the {name} page's controls in page order", f"{visited} (page order {expected})")
    return visited


def fill(browser, form_id, fields):
    form = browser.driver.find_element(By.ID, form_id)
    for name, value in fields.items():
        try:
            field = form.find_element(By.NAME, name)
        except NoSuchElementException:
            raise Failure(f"a field named {name} in form#{form_id}", browser.describe())
        field.clear()
        field.send_keys(value)
    return form


def mark_document(browser):
    """Marks the document shown now (a property of its window, which a navigation replaces)."""
    marker = secrets.token_hex(8)
    browser.driver.execute_script("window.__latchDocument = arguments[0];", marker)
    return marker


def wait_for_new_document(browser, marker, timeout=10):
    """Waits until another document than the marked one is shown and loaded. Element staleness is
    not used: mid-navigation, chromedriver answers it with errors of its own."""
    def replaced(driver):
        try:
            return (driver.execute_script("return window.__latchDocument || null;") != marker
                    and driver.execute_script("return document.readyState;") == "complete")
        except WebDriverException:  # the old document is going and the new one not there yet
            return False

    WebDriverWait(browser.driver, timeout, poll_frequency=0.1).until(replaced)


def submit(browser, form_id, button_name, button_value, fields=None, leaves_for=None):
    """Fills and posts form#form_id with its button name=button_value, and waits for the page to be
    replaced. A page that stays is a blocked navigation: fails with what Chromium's console said."""
    form = fill(browser, form_id, fields or {})
    selector = f"button[name='{button_name}'][value='{button_value}'], input[type=submit][name='{button_name}'][value='{button_value}']"
    buttons = form.find_elements(By.CSS_SELECTOR, selector)
    expect(buttons, f"a button name={button_name} value={button_value} in form#{form_id}", browser.describe())
    posted_from = browser.driver.current_url
    browser.console()  # what was said before this post is not about it
    marker = mark_document(browser)
    buttons[0].click()
    try:
        wait_for_new_document(browser, marker)
    except TimeoutException:
        console = browser.console()
        blocked = [line for line in console if "Content Security Policy" in line or "form-action" in line]
        where = f" to {leaves_for}" if leaves_for else ""
        raise Failure(
            f"the browser to leave {posted_from} after posting form#{form_id} ({button_name}={button_value}){where}",
            "it stayed on the page: the navigation was blocked"
            + (f" by the Content-Security-Policy: {blocked}" if blocked else f" (console: {console or 'silent'})"))
    if browser.driver.current_url.startswith("chrome-error://"):
        raise Failure(f"a page after posting form#{form_id}", f"Chromium's error page ({browser.console()})")


def expect_redirect(browser, since, path, where):
    """The browser arrived at the redirect target `path` (the first request after `since`);
    answers the parameters (query, or the form_post body)."""
    hit = target.wait_for(since, timeout=10)
    expect(hit, f"the browser redirected to {target.uri(path)} ({where})", browser.describe())
    expect(hit["path"] == path, f"a redirect to {path} ({where})", hit["url"])
    parameters = hit["form"] if hit["method"] == "POST" else hit["query"]
    return parameters


def authorize_url(client_id, redirect_path="/callback", **extra):
    verifier, challenge = pkce()
    request = {
        "state": secrets.token_urlsafe(12), "nonce": secrets.token_urlsafe(12), "verifier": verifier,
        "redirect_uri": target.uri(redirect_path), "client_id": client_id,
    }
    request["url"] = url_with(
        state["discovery"]["authorization_endpoint"], response_type="code", client_id=client_id,
        redirect_uri=request["redirect_uri"], scope=SCOPE, state=request["state"], nonce=request["nonce"],
        code_challenge=challenge, code_challenge_method="S256", **extra)
    return request


def check_code_redirect(parameters, request, where):
    expect("error" not in parameters, f"a code ({where})", parameters)
    expect(parameters.get("code"), f"a code in the redirect ({where})", parameters)
    expect(parameters.get("state") == request["state"], f"state {request['state']} back ({where})",
           parameters.get("state"))
    expect(parameters.get("iss") == state["discovery"]["issuer"],
           f"iss={state['discovery']['issuer']} in the redirect (RFC 9207) ({where})", parameters.get("iss"))
    return parameters["code"]


def exchange(request, code):
    response = http.post(state["discovery"]["token_endpoint"], data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": request["redirect_uri"],
        "client_id": request["client_id"], "code_verifier": request["verifier"]}, timeout=30)
    expect(response.status_code == 200, "200 with tokens from the code exchange",
           f"{response.status_code} {response.text[:300]}")
    tokens = response.json()
    for field in ("access_token", "id_token", "refresh_token"):
        expect(tokens.get(field), f"{field} in the token response", sorted(tokens))
    expect(tokens.get("token_type", "").lower() == "bearer", "token_type Bearer", tokens.get("token_type"))
    claims = jwt_claims(tokens["id_token"])
    expect(claims.get("nonce") == request["nonce"], f"nonce {request['nonce']} in the ID token", claims.get("nonce"))
    expect(claims.get("aud") == request["client_id"] or request["client_id"] in (claims.get("aud") or []),
           f"aud {request['client_id']} in the ID token", claims.get("aud"))
    expect(claims.get("iss") == state["discovery"]["issuer"], "the issuer in the ID token", claims.get("iss"))
    return tokens


def sign_up(browser, address, password, language, request):
    """From the sign-in page: the sign-up link, the sign-up form, the code page with the outbox code."""
    try:
        link = browser.driver.find_element(By.ID, "signup-link")
    except NoSuchElementException:
        raise Failure("a#signup-link on the sign-in page", browser.describe())
    marker = mark_document(browser)
    link.click()
    wait_for_new_document(browser, marker)
    check_page(browser, "signup", "sign-up", language)
    fields = {"username": address, "password": password}
    for element in browser.driver.find_elements(By.CSS_SELECTOR, "form#signup input[name^='attr_']"):
        if element.get_attribute("type") != "hidden" and element.get_attribute("required") is not None:
            fields[element.get_attribute("name")] = "Browser Test"
    mark = outbox.mark()
    submit(browser, "signup", "action", "signup", fields)
    check_page(browser, "code", "code (sign-up)", language)
    code = outbox.code_for(address, mark)
    return code


# --- The probe: the browser itself, before the hosted pages ---------------------------------------


def probe():
    browser = Browser(options.artifacts, "en", "probe")
    steps.cleanups.append(browser.quit)

    def healthz():
        browser.driver.get(f"{BASE}/healthz")
        body = browser.driver.find_element(By.TAG_NAME, "body").text
        browser.screenshot("healthz")
        expect(body.strip(), "a body on /healthz", repr(body))
        return body.strip()[:40]

    def action_page():
        browser.driver.get(f"{BASE}/__/auth/action?mode=resetPassword&oobCode=not-a-code&apiKey=probe")
        browser.screenshot("action-page")
        document = latchd_document(browser, "the action page")
        check_page_headers(document["headers"], "the action page")
        check_cookie_attributes(browser.cookies(), "the action page")
        return f"{document['status']}, CSP {document['headers']['content-security-policy']}"

    def blocked_redirect_is_detected():
        # A page of the redirect target's own, with form-action 'self', whose POST answers 303 to
        # another origin (latchd): Chromium must refuse it, and submit() must say so.
        def form_page(hit):
            page = ("<!DOCTYPE html><html lang='en' dir='ltr'><title>csp</title>"
                    "<form id='probe' method='post' action='/probe-post'>"
                    "<button name='action' value='go'>Go</button></form></html>").encode()
            return 200, [("Content-Type", "text/html"), ("Content-Security-Policy", "form-action 'self'")], page

        def post(hit):
            return 303, [("Location", f"{BASE}/healthz")], b""

        target.routes["/probe-form"] = form_page
        target.routes["/probe-post"] = post
        browser.driver.get(target.uri("/probe-form"))
        try:
            submit(browser, "probe", "action", "go")
        except Failure as failure:
            expect("Content-Security-Policy" in str(failure), "the block blamed on the CSP", str(failure))
            browser.screenshot("csp-blocked")
            return str(failure)[str(failure).find("seen") :][:160]
        raise Failure("Chromium to block a cross-origin redirect after a POST under form-action 'self'",
                      f"it went on to {browser.driver.current_url}")

    steps.run("Chromium starts headless (selenium + chromedriver)",
              lambda: browser.driver.capabilities.get("browserVersion"))
    steps.run("/healthz in the browser, with a screenshot", healthz)
    steps.run("the action page: CSP, X-Frame-Options, Cache-Control, cookies", action_page)
    steps.run("a CSP-blocked redirect after a form post is detected", blocked_redirect_is_detected)
    steps.finish()


# --- The flow ---------------------------------------------------------------------------------------


def discovery():
    response = http.get(f"{BASE}/{TENANT}/v2.0/.well-known/openid-configuration", timeout=30)
    expect(response.status_code == 200, "200 from discovery", response.status_code)
    document = response.json()
    for field in ("issuer", "authorization_endpoint", "token_endpoint", "jwks_uri"):
        expect(document.get(field), f"{field} in discovery", sorted(document))
    state["discovery"] = document
    return document["issuer"]


def advertised(field):
    """An endpoint discovery must list for the step that uses it."""
    expect(state["discovery"].get(field), f"{field} in discovery", sorted(state["discovery"]))
    return state["discovery"][field]


def device_grant_offered(title):
    """Whether discovery lists the device authorization endpoint (RFC 8628 § 4). latchd offers the
    device grant, so a document without it fails the step instead of skipping it."""
    if state["discovery"].get("device_authorization_endpoint"):
        return True
    steps.run(title, lambda: expect(False, "device_authorization_endpoint in discovery", sorted(state["discovery"])))
    return False


def register_third_party():
    command = [options.latchd, "client", "create", "--id", THIRD_PARTY, "--name", "Browser Test App",
               "--redirect-uri", target.uri("/callback"), "--third-party", "--data-dir", options.data_dir]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    expect(result.returncode == 0, f"`{' '.join(command)}` to succeed", (result.stderr or result.stdout).strip())
    return THIRD_PARTY


def english_run():
    browser = Browser(options.artifacts, "en", "en")
    steps.cleanups.append(browser.quit)
    address = f"browser-{secrets.token_hex(4)}@example.com"
    password = "Browser-" + secrets.token_urlsafe(12)
    state["user"] = (address, password)

    def sign_in_page():
        request = authorize_url(THIRD_PARTY)
        state["first"] = request
        browser.driver.get(request["url"])
        check_page(browser, "signin", "sign-in")
        expect(browser.driver.find_elements(By.ID, "reset-link"), "a#reset-link on the sign-in page",
               browser.describe())
        order = check_keyboard_order(browser, "sign-in")
        return f"form#signin; Tab order {' → '.join(order)}"

    def sign_up_and_code():
        code = sign_up(browser, address, password, "en", state["first"])
        wrong = "".join("1" if ch != "1" else "2" for ch in code)
        submit(browser, "code", "action", "verify_code", {"code": wrong})
        check_page(browser, "code", "code (a wrong code)")
        field = browser.driver.find_element(By.CSS_SELECTOR, "form#code [name='code']")
        errors = browser.driver.find_elements(By.CSS_SELECTOR, "#code-error[role=alert]")
        expect(errors and errors[0].text.strip(), 'a <p id="code-error" role="alert"> with a message', browser.describe())
        expect(field.get_attribute("aria-invalid") == "true" and "code-error" in (field.get_attribute("aria-describedby") or ""),
               'the code field aria-invalid="true" aria-describedby="code-error"',
               f"aria-invalid={field.get_attribute('aria-invalid')!r} aria-describedby={field.get_attribute('aria-describedby')!r}")
        message = errors[0].text.strip()
        submit(browser, "code", "action", "verify_code", {"code": code})
        return f"{address}; a wrong code first: {message!r}"

    def consent():
        check_page(browser, "consent", "consent")
        since = target.count()
        submit(browser, "consent", "decision", "allow", leaves_for=state["first"]["redirect_uri"])
        parameters = expect_redirect(browser, since, "/callback", "after consent")
        state["first"]["code"] = check_code_redirect(parameters, state["first"], "after consent")
        return "code, state and iss back"

    def session_cookie():
        cookies = browser.cookies()
        names = [cookie["name"] for cookie in cookies]
        expect("latch_browser" in names, "the SSO cookie latch_browser after signing in", names)
        check_cookie_attributes(cookies, "after signing in", path_prefix=f"/{TENANT}")
        return ", ".join(f"{c['name']} HttpOnly SameSite={c['sameSite']} Path={c['path']}" for c in cookies)

    def exchange_code():
        tokens = exchange(state["first"], state["first"]["code"])
        state["third_party_tokens"] = tokens
        again = http.post(state["discovery"]["token_endpoint"], data={
            "grant_type": "authorization_code", "code": state["first"]["code"],
            "redirect_uri": state["first"]["redirect_uri"], "client_id": THIRD_PARTY,
            "code_verifier": state["first"]["verifier"]}, timeout=30)
        expect(again.status_code == 400 and again.json().get("error") == "invalid_grant",
               "invalid_grant for the code used twice", f"{again.status_code} {again.text[:200]}")
        return "tokens with the nonce; a second use is invalid_grant"

    def silent_authorize():
        request = authorize_url(DEV_CLIENT)
        since = target.count()
        browser.drain()
        browser.driver.get(request["url"])
        parameters = expect_redirect(browser, since, "/callback", "a second authorize with the SSO session")
        pages = [d for d in browser.drain() if (d["url"] or "").startswith(BASE) and not 300 <= d["status"] < 400]
        expect(not pages, "no latchd page on the way (a silent redirect)", [(d["url"], d["status"]) for d in pages])
        code = check_code_redirect(parameters, request, "silent authorize")
        state["dev_tokens"] = exchange(request, code)
        return "straight to the client"

    def form_post():
        request = authorize_url(DEV_CLIENT, response_mode="form_post")
        since = target.count()
        browser.driver.get(request["url"])
        hit = target.wait_for(since, timeout=3)
        if hit is None:
            # Without script the page shows its form: a person presses its button.
            forms = browser.form_ids()
            expect(forms, "a POST to the redirect URI, or a page whose form posts there", browser.describe())
            browser.screenshot("form-post")
            document = latchd_document(browser, "the form_post page")
            check_page_headers(document["headers"], "the form_post page")
            buttons = browser.driver.find_elements(By.CSS_SELECTOR, "form button, form input[type=submit]")
            expect(buttons, "a button on the form_post page", browser.describe())
            marker = mark_document(browser)
            buttons[0].click()
            try:
                wait_for_new_document(browser, marker)
            except TimeoutException:
                raise Failure("the form_post form to post to the client",
                              f"the browser stayed on the page (console: {browser.console()})")
        hit = target.wait_for(since, timeout=10)
        expect(hit and hit["method"] == "POST" and hit["path"] == "/callback",
               "a POST to the redirect URI (response_mode=form_post)", hit or browser.describe())
        check_code_redirect(hit["form"], request, "form_post")
        return "code, state and iss in the POST body"

    def polish():
        request = authorize_url(DEV_CLIENT, ui_locales="pl")
        browser.driver.get(request["url"])
        check_page(browser, "signin", "sign-in (Polish)", "pl")
        return '<html lang="pl" dir="ltr">'

    def prompt_none_with_session():
        request = authorize_url(DEV_CLIENT, prompt="none")
        since = target.count()
        browser.driver.get(request["url"])
        parameters = expect_redirect(browser, since, "/callback", "prompt=none with a session")
        check_code_redirect(parameters, request, "prompt=none with a session")
        return "a code"

    def device_page():
        endpoint = advertised("device_authorization_endpoint")
        started = http.post(endpoint, data={"client_id": DEV_CLIENT, "scope": SCOPE}, timeout=30)
        expect(started.status_code == 200, "200 from the device authorization endpoint",
               f"{started.status_code} {started.text[:300]}")
        grant = started.json()
        for field in ("device_code", "user_code", "verification_uri", "verification_uri_complete", "interval"):
            expect(field in grant, f"{field} in the device authorization response", sorted(grant))
        interval = int(grant.get("interval") or 5)

        def poll():
            return http.post(state["discovery"]["token_endpoint"], data={
                "grant_type": "urn:ietf:params:oauth:grant-type:device_code",
                "device_code": grant["device_code"], "client_id": DEV_CLIENT}, timeout=30)

        pending = poll()
        polled = time.monotonic()
        expect(pending.status_code == 400 and pending.json().get("error") == "authorization_pending",
               "authorization_pending before approval", f"{pending.status_code} {pending.text[:200]}")
        approve_device(browser, grant, "en")
        deadline = time.monotonic() + 60
        while True:
            time.sleep(max(0.0, polled + interval + 0.2 - time.monotonic()))
            answer = poll()
            polled = time.monotonic()
            body = answer.json()
            if answer.status_code == 200:
                break
            expect(body.get("error") in ("authorization_pending", "slow_down") and time.monotonic() < deadline,
                   "tokens after approval", f"{answer.status_code} {answer.text[:200]}")
            if body.get("error") == "slow_down":
                interval += 5
        expect(body.get("access_token") and body.get("refresh_token"), "access and refresh tokens from the device grant",
               sorted(body))
        # A second device, denied on the page: its poll answers access_denied.
        denied = http.post(endpoint, data={"client_id": DEV_CLIENT, "scope": SCOPE}, timeout=30).json()
        approve_device(browser, denied, "en", decision="deny")
        answer = http.post(state["discovery"]["token_endpoint"], data={
            "grant_type": "urn:ietf:params:oauth:grant-type:device_code", "device_code": denied["device_code"],
            "client_id": DEV_CLIENT}, timeout=30)
        expect(answer.status_code == 400 and answer.json().get("error") == "access_denied",
               "access_denied for a device the user denied", f"{answer.status_code} {answer.text[:200]}")
        return f"user code {grant['user_code']} approved, tokens polled; a denied one answers access_denied"

    def logout():
        request_state = secrets.token_urlsafe(8)
        url = url_with(advertised("end_session_endpoint"), id_token_hint=state["dev_tokens"]["id_token"],
                       post_logout_redirect_uri=target.uri("/signed-out"), state=request_state, client_id=DEV_CLIENT)
        since = target.count()
        browser.driver.get(url)
        if not browser.driver.current_url.startswith(target.base):
            # A confirmation page: check it like any other, then confirm with its first button.
            forms = browser.form_ids()
            expect(forms, "a redirect to post_logout_redirect_uri, or a page to confirm", browser.describe())
            check_page(browser, forms[0], "sign-out")
            submit(browser, forms[0], *first_button(browser, forms[0]), leaves_for=target.uri("/signed-out"))
        parameters = expect_redirect(browser, since, "/signed-out", "RP-initiated logout")
        expect(parameters.get("state") == request_state, "state back from logout", parameters)
        names = [cookie["name"] for cookie in browser.cookies()]
        expect("latch_browser" not in names, "the SSO cookie gone after logout", names)
        return "back at post_logout_redirect_uri, latch_browser cleared"

    def prompt_none_without_session():
        request = authorize_url(DEV_CLIENT, prompt="none")
        since = target.count()
        browser.driver.get(request["url"])
        parameters = expect_redirect(browser, since, "/callback", "prompt=none after logout")
        expect(parameters.get("error") == "login_required", "error=login_required", parameters)
        expect(parameters.get("state") == request["state"], "state back with the error", parameters)
        return "login_required"

    def password_sign_in():
        request = authorize_url(DEV_CLIENT)
        browser.driver.get(request["url"])
        check_page(browser, "signin", "sign-in (password)")
        since = target.count()
        submit(browser, "signin", "action", "password", {"username": address, "password": password},
               leaves_for=request["redirect_uri"])
        parameters = expect_redirect(browser, since, "/callback", "after the sign-in form's POST")
        check_code_redirect(parameters, request, "password sign-in")
        return "the CSP let the redirect to the client through"

    def password_reset():
        request = authorize_url(DEV_CLIENT, prompt="login")
        browser.driver.get(request["url"])
        check_page(browser, "signin", "sign-in (prompt=login)")
        marker = mark_document(browser)
        browser.driver.find_element(By.ID, "reset-link").click()
        wait_for_new_document(browser, marker)
        check_page(browser, "reset", "password reset")
        mark = outbox.mark()
        submit(browser, "reset", *first_button(browser, "reset"), {"username": address})
        check_page(browser, "code", "code (password reset)")
        submit(browser, "code", "action", "verify_code", {"code": outbox.code_for(address, mark)})
        check_page(browser, "new-password", "new password")
        since = target.count()
        fresh = "Reset-" + secrets.token_urlsafe(12)
        submit(browser, "new-password", *first_button(browser, "new-password"), {"new_password": fresh},
               leaves_for=request["redirect_uri"])
        parameters = expect_redirect(browser, since, "/callback", "after the new password")
        check_code_redirect(parameters, request, "password reset")
        state["user"] = (address, fresh)
        return "reset → code → new password → redirect"

    def consent_denied():
        request = authorize_url(THIRD_PARTY, prompt="consent")
        browser.driver.get(request["url"])
        check_page(browser, "consent", "consent (prompt=consent)")
        since = target.count()
        submit(browser, "consent", "decision", "deny", leaves_for=request["redirect_uri"])
        parameters = expect_redirect(browser, since, "/callback", "after denying consent")
        expect(parameters.get("error") == "access_denied", "error=access_denied", parameters)
        expect(parameters.get("state") == request["state"], "state back with the error", parameters)
        return "access_denied"

    def unknown_client_page():
        since = target.count()
        request = authorize_url("no-such-client")
        browser.driver.get(request["url"])
        time.sleep(0.3)
        expect(target.count() == since, "no redirect for an unknown client", target.hits[since:])
        document = latchd_document(browser, "the error page")
        expect(document["status"] == 400, "400 for an unknown client", document["status"])
        browser.screenshot("error-unknown-client")
        check_page_headers(document["headers"], "the error page")
        return "an error page"

    steps.run("the sign-in page (English)", sign_in_page)
    steps.run("sign-up, then the code from the outbox", sign_up_and_code)
    steps.run("consent for the third-party client, then the redirect", consent)
    steps.run("the SSO cookie is HttpOnly, SameSite=Lax, under the tenant", session_cookie)
    steps.run("the code exchanged with PKCE", exchange_code)
    steps.run("a second authorize is silent (SSO)", silent_authorize)
    steps.run("response_mode=form_post with the session", form_post)
    steps.run("prompt=none with the session", prompt_none_with_session)
    if device_grant_offered("the device-code page"):
        steps.run("the device-code page", device_page)
    steps.run("RP-initiated logout", logout)
    steps.run("prompt=none after logout", prompt_none_without_session)
    steps.run("the sign-in page in Polish (ui_locales=pl)", polish)
    steps.run("password sign-in redirects to the client", password_sign_in)
    steps.run("password reset from the sign-in page (prompt=login)", password_reset)
    steps.run("prompt=consent shows consent again; deny answers access_denied", consent_denied)
    steps.run("an unknown client gets an error page", unknown_client_page)
    browser.quit()
    steps.cleanups.remove(browser.quit)


def first_button(browser, form_id):
    button = browser.driver.find_element(By.CSS_SELECTOR, f"form#{form_id} button[name]")
    return button.get_attribute("name"), button.get_attribute("value")


def approve_device(browser, grant, language, decision="allow"):
    browser.driver.get(grant["verification_uri_complete"])
    check_page(browser, "device", "device code", language)
    shown = browser.driver.find_element(By.CSS_SELECTOR, "form#device [name='user_code']").get_attribute("value")
    normal = lambda code: "".join(ch for ch in (code or "").upper() if ch.isalnum())
    expect(normal(shown) == normal(grant["user_code"]), f"the user code {grant['user_code']} filled in", shown)
    submit(browser, "device", "action", "continue")
    check_page(browser, "device-confirm", "device confirmation", language)
    submit(browser, "device-confirm", "decision", decision)
    check_page(browser, "h1#done", f"device done ({decision})", language)


def hebrew_run():
    browser = Browser(options.artifacts, "he", "he")
    steps.cleanups.append(browser.quit)
    address = f"browser-he-{secrets.token_hex(4)}@example.com"
    password = "Browser-" + secrets.token_urlsafe(12)

    def sign_in_page():
        request = authorize_url(THIRD_PARTY, ui_locales="he")
        state["hebrew"] = request
        browser.driver.get(request["url"])
        check_page(browser, "signin", "sign-in", "he")
        check_keyboard_order(browser, "Hebrew sign-in")
        return '<html lang="he" dir="rtl">; Tab order as shown'

    def sign_up_code_consent():
        code = sign_up(browser, address, password, "he", state["hebrew"])
        submit(browser, "code", "action", "verify_code", {"code": code})
        check_page(browser, "consent", "consent", "he")
        since = target.count()
        submit(browser, "consent", "decision", "allow", leaves_for=state["hebrew"]["redirect_uri"])
        parameters = expect_redirect(browser, since, "/callback", "after consent (Hebrew)")
        check_code_redirect(parameters, state["hebrew"], "Hebrew run")
        return "every page right-to-left"

    def code_sign_in():
        request = authorize_url(DEV_CLIENT, prompt="login", ui_locales="he")
        browser.driver.get(request["url"])
        check_page(browser, "signin", "sign-in (prompt=login)", "he")
        mark = outbox.mark()
        submit(browser, "signin", "action", "send_code", {"username": address})
        check_page(browser, "code", "code (sign-in)", "he")
        since = target.count()
        submit(browser, "code", "action", "verify_code", {"code": outbox.code_for(address, mark)},
               leaves_for=request["redirect_uri"])
        check_code_redirect(expect_redirect(browser, since, "/callback", "after the e-mailed code"), request,
                            "e-mail code sign-in")
        return "send_code → code → redirect"

    def device_page():
        started = http.post(advertised("device_authorization_endpoint"),
                            data={"client_id": DEV_CLIENT, "scope": SCOPE}, timeout=30)
        expect(started.status_code == 200, "200 from the device authorization endpoint", started.status_code)
        approve_device(browser, started.json(), "he")
        return "approved in Hebrew"

    steps.run("the sign-in page in Hebrew (ui_locales=he)", sign_in_page)
    steps.run("sign-up → code → consent → redirect, in Hebrew", sign_up_code_consent)
    steps.run("sign-in with an e-mailed code, in Hebrew", code_sign_in)
    if device_grant_offered("the device-code page in Hebrew"):
        steps.run("the device-code page in Hebrew", device_page)
    browser.quit()
    steps.cleanups.remove(browser.quit)


if options.probe:
    probe()
steps.run("discovery lists the browser-flow endpoints", discovery)
steps.run("a third-party client (latchd client create --third-party)", register_third_party)
english_run()
hebrew_run()
steps.finish()
