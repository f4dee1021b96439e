"""authlib (from PyPI), a standard OAuth 2.0 / OpenID Connect client, against a running
`latchd serve --dev --tls` (issue 11, "How it is checked" → "A standard client").

Usage: authlib_flow.py --base https://127.0.0.1:PORT --log LATCHD_LOG --ca-file DEV_CA_PEM

run-browser-tests.sh starts latchd and stops it. Over HTTPS, trusting latchd's development CA:
discovery → `OAuth2Session(code_challenge_method='S256')` → the authorization URL → the hosted pages,
posted as a browser with JavaScript off would (requests: sign-up → the code from the outbox in latchd's
log; every page's headers and Set-Cookie checked, Secure included) → the redirect with code, state and
iss → `fetch_token` → the ID token validated with `authlib.jose` against the JWKS (signature, iss, aud,
nonce, exp, at_hash; a wrong nonce, a wrong audience and a forged signature refused) →
`refresh_token` → `revoke_token` → the revoked refresh token, and the one it was rotated from, no
longer work.
"""

import argparse
import secrets
import time
import urllib.parse
import warnings

import requests

# authlib.jose is deprecated in favour of joserfc from 1.x on, and still the API authlib's OIDC
# claims (CodeIDToken) are validated through; the warning says nothing about this server.
import authlib.deprecate  # noqa: E402  (sets its warnings to "always" on import; this filter goes before it)

warnings.filterwarnings("ignore", message="authlib.jose module is deprecated",
                        category=authlib.deprecate.AuthlibDeprecationWarning)
from authlib.integrations.base_client import OAuthError  # noqa: E402
from authlib.integrations.requests_client import OAuth2Session  # noqa: E402
from authlib.jose import JsonWebKey, jwt  # noqa: E402
from authlib.oidc.core import CodeIDToken  # noqa: E402

from interop_support import (Failure, Outbox, RedirectTarget, Steps, check_page_headers, expect,  # noqa: E402
                             parse_page)

arguments = argparse.ArgumentParser()
arguments.add_argument("--base", required=True)
arguments.add_argument("--log", required=True)
arguments.add_argument("--ca-file", required=True)
options = arguments.parse_args()

BASE = options.base.rstrip("/")
TENANT = "default"
CLIENT = "latch-dev"
SCOPE = "openid profile offline_access"
outbox = Outbox(options.log)
target = RedirectTarget()
steps = Steps("authlib")
steps.cleanups.append(target.close)
state = {}
browser = requests.Session()  # the "browser": cookies kept, redirects followed by hand
browser.verify = options.ca_file
# A CA bundle or proxy named in the environment would override the CA above: loopback needs neither.
browser.trust_env = False


def discovery():
    response = requests.get(f"{BASE}/{TENANT}/v2.0/.well-known/openid-configuration", verify=options.ca_file,
                            timeout=30)
    expect(response.status_code == 200, "200 from discovery over HTTPS", response.status_code)
    document = response.json()
    for field in ("issuer", "authorization_endpoint", "token_endpoint", "jwks_uri", "revocation_endpoint"):
        expect(document.get(field, "").startswith("https://"), f"an https {field} in discovery", document.get(field))
    state["discovery"] = document
    return document["issuer"]


def session():
    client = OAuth2Session(client_id=CLIENT, scope=SCOPE, redirect_uri=target.uri("/callback"),
                           code_challenge_method="S256")
    client.verify = options.ca_file
    client.trust_env = False
    return client


def check_set_cookies(response, where):
    """Each Set-Cookie latchd sends over TLS is HttpOnly, SameSite=Lax, Secure and under the tenant."""
    for header in response.raw.headers.getlist("Set-Cookie"):
        attributes = [part.strip().lower() for part in header.split(";")[1:]]
        name = header.split("=", 1)[0]
        expect("httponly" in attributes, f"Set-Cookie {name} HttpOnly ({where})", header)
        expect("samesite=lax" in attributes, f"Set-Cookie {name} SameSite=Lax ({where})", header)
        expect("secure" in attributes, f"Set-Cookie {name} Secure under TLS ({where})", header)
        paths = [value.split("=", 1)[1] for value in attributes if value.startswith("path=")]
        expect(paths and paths[0].startswith(f"/{TENANT}"), f"Set-Cookie {name} Path under /{TENANT} ({where})",
               header)


def hosted_pages(url, address, password):
    """Goes through the hosted pages from the authorization URL the way a browser with JavaScript
    off does: GET, follow latchd's redirects, post the forms (every hidden input copied back),
    until latchd redirects to the client. Answers the redirect URL and the pages seen."""
    redirect_uri = target.uri("/callback")
    seen = []
    response = browser.get(url, allow_redirects=False, timeout=30)
    signed_up = False
    for _ in range(20):
        check_set_cookies(response, response.url)
        if response.status_code in (301, 302, 303, 307, 308):
            location = urllib.parse.urljoin(response.url, response.headers["Location"])
            if location.startswith(redirect_uri):
                return location, seen
            expect(location.startswith(BASE), "redirects within latchd or to the client", location)
            response = browser.get(location, allow_redirects=False, timeout=30)
            continue
        expect(response.status_code == 200, f"a page from {response.url}", f"{response.status_code} {response.text[:300]}")
        check_page_headers({name.lower(): value for name, value in response.headers.items()}, response.url)
        page = parse_page(response.text)
        forms = page.forms
        seen.append(next(iter(forms), "?"))
        if "signin" in forms and not signed_up:
            expect("signup-link" in page.links, "a#signup-link on the sign-in page", page.links)
            response = browser.get(urllib.parse.urljoin(response.url, page.links["signup-link"]),
                                   allow_redirects=False, timeout=30)
            continue
        if "signup" in forms:
            fields = {"username": address, "password": password}
            fields.update({name: "Authlib Test" for name in forms["signup"]["inputs"] if name.startswith("attr_")})
            mark = outbox.mark()
            response = post(response, forms["signup"], fields, ("action", "signup"))
            signed_up = True
            state["code_mark"] = mark
            continue
        if "code" in forms:
            code = outbox.code_for(address, state["code_mark"])
            response = post(response, forms["code"], {"code": code}, ("action", "verify_code"))
            continue
        if "consent" in forms:
            response = post(response, forms["consent"], {}, ("decision", "allow"))
            continue
        raise Failure("the sign-in, sign-up, code or consent page", f"forms {list(forms)} alerts {page.alerts}")
    raise Failure("a redirect to the client within 20 pages", seen)


def post(response, form, fields, button):
    expect(form["method"] == "post", f"form#{form['id']} posts", form["method"])
    expect(button in form["buttons"], f"a button {button[0]}={button[1]} in form#{form['id']}", form["buttons"])
    expect("csrf_token" in form["inputs"], f"a csrf_token in form#{form['id']}", sorted(form["inputs"]))
    data = dict(form["inputs"])
    data.update(fields)
    data[button[0]] = button[1]
    action = urllib.parse.urljoin(response.url, form["action"] or response.url)
    return browser.post(action, data=data, allow_redirects=False, timeout=30)


def authorize_and_exchange():
    expect("S256" in state["discovery"].get("code_challenge_methods_supported", []),
           "S256 in discovery's code_challenge_methods_supported", state["discovery"].get("code_challenge_methods_supported"))
    client = session()
    state["client"] = client
    verifier = secrets.token_urlsafe(48)
    nonce = secrets.token_urlsafe(12)
    url, request_state = client.create_authorization_url(
        state["discovery"]["authorization_endpoint"], code_verifier=verifier, nonce=nonce)
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))
    expect(query.get("code_challenge_method") == "S256" and query.get("code_challenge"),
           "authlib to send an S256 code challenge", query)
    address = f"authlib-{secrets.token_hex(4)}@example.com"
    callback, seen = hosted_pages(url, address, "Authlib-" + secrets.token_urlsafe(12))
    parameters = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(callback).query))
    expect(parameters.get("iss") == state["discovery"]["issuer"], "iss in the redirect (RFC 9207)", parameters)
    token = client.fetch_token(state["discovery"]["token_endpoint"], authorization_response=callback,
                               state=request_state, code_verifier=verifier)
    for field in ("access_token", "refresh_token", "id_token"):
        expect(token.get(field), f"{field} from fetch_token", sorted(token))
    state.update(token=token, nonce=nonce)
    return f"pages {' → '.join(seen)}; state checked by authlib"


def validate_id_token():
    jwks = requests.get(state["discovery"]["jwks_uri"], verify=options.ca_file, timeout=30).json()
    keys = JsonWebKey.import_key_set(jwks)
    token = state["token"]

    def decode(id_token, nonce=state["nonce"], client_id=CLIENT):
        claims = jwt.decode(
            id_token, keys, claims_cls=CodeIDToken,
            claims_options={"iss": {"essential": True, "value": state["discovery"]["issuer"]},
                            "aud": {"essential": True, "value": client_id}},
            claims_params={"nonce": nonce, "client_id": client_id, "access_token": token["access_token"]})
        claims.validate(now=int(time.time()), leeway=5)
        return claims

    claims = decode(token["id_token"])
    expect(claims.get("exp", 0) > time.time(), "exp in the future", claims.get("exp"))
    refusals = []
    for wrong, arguments in (("a wrong nonce", {"nonce": "not-the-nonce"}),
                             ("a wrong audience", {"client_id": "another-client"})):
        try:
            decode(token["id_token"], **arguments)
        except Exception as error:  # authlib raises its own errors and joserfc's (authlib 1.x is built on it)
            refusals.append(type(error).__name__)
            continue
        raise Failure(f"authlib to refuse the ID token for {wrong}", "it was accepted")
    header, payload, signature = token["id_token"].split(".")
    forged = f"{header}.{payload}.{signature[:-4]}{'AAAA' if signature[-4:] != 'AAAA' else 'BBBB'}"
    try:
        decode(forged)
    except Exception as error:
        refusals.append(type(error).__name__)
    else:
        raise Failure("authlib to refuse an ID token with a forged signature", "it was accepted")
    checked = "iss, aud, nonce, exp" + (", at_hash" if "at_hash" in claims else "")
    return (f"{claims.header.get('alg')} kid {claims.header.get('kid')}; {checked}; "
            f"wrong nonce, audience, signature refused: {', '.join(refusals)}")


def refresh():
    client = state["client"]
    old = state["token"]["refresh_token"]
    token = client.refresh_token(state["discovery"]["token_endpoint"], refresh_token=old)
    expect(token.get("access_token"), "an access token from refresh_token", sorted(token))
    state["previous_refresh_token"] = old
    state["refresh_token"] = token.get("refresh_token") or old
    return "rotated" if token.get("refresh_token") and token["refresh_token"] != old else "same refresh token"


def revoke():
    response = state["client"].revoke_token(state["discovery"]["revocation_endpoint"], token=state["refresh_token"],
                                            token_type_hint="refresh_token")
    expect(response.status_code == 200, "200 from revoke_token (RFC 7009 § 2.2)", f"{response.status_code} {response.text[:200]}")
    return "200"


def revoked_refresh_fails():
    for label, refresh_token in (("the revoked refresh token", state["refresh_token"]),
                                 ("the refresh token it was rotated from", state["previous_refresh_token"])):
        try:
            state["client"].refresh_token(state["discovery"]["token_endpoint"], refresh_token=refresh_token)
        except OAuthError as error:
            expect(error.error == "invalid_grant", f"invalid_grant for {label}", error.error)
            continue
        raise Failure(f"refresh_token to fail with {label}", "new tokens")
    return "invalid_grant"


steps.run("discovery over HTTPS (the development CA trusted)", discovery)
steps.run("authorization code + PKCE (S256) through the hosted pages, fetch_token", authorize_and_exchange)
steps.run("the ID token validated with authlib.jose against the JWKS", validate_id_token)
steps.run("refresh_token", refresh)
steps.run("revoke_token (the refresh token's family)", revoke)
steps.run("the revoked refresh token no longer works", revoked_refresh_fails)
steps.finish()
