#!/usr/bin/env python3
"""A scripted user: plays the person at the browser against the test provider, over plain HTTP.

Four ways to call it:

    scripted_user.py URL            As $BROWSER (via the scripted_browser wrapper): like xdg-open it
                                    returns at once and logs in from a detached process. An
                                    authorization URL runs the code flow; a URL ending in /device
                                    (verification_uri[_complete]) runs the device flow.
    scripted_user.py login URL      The code flow in the foreground; the exit code tells the outcome.
    scripted_user.py device URL     The device flow in the foreground.
    scripted_user.py logout URL     RP-initiated logout in the foreground (as $BROWSER, a URL whose
                                    path ends in /logout runs it detached).

Code flow: it follows redirects by hand, fills in the login form (hidden fields with Django's CSRF
token, the submit button's name, Referer/Origin headers), answers a consent page, and stops at the
first Location whose scheme, host, port and path equal the redirect_uri of the authorization URL.
It then GETs that callback URL afresh, as a browser would (with the cookies it holds for that
host and path), so the CLI's loopback listener gets the real request, and records the answer.

kcauth starts the browser at a one-shot local start URL (http://127.0.0.1:PORT/start/...) that
redirects to the authorization (or logout) URL and sets a cookie binding the browser to the
login: like a browser, the scripted user follows it in the same cookie session.

Environment (passed through the CLI to its browser child):
    SCRIPTED_USER, SCRIPTED_PASSWORD   credentials (default alice / wonderland)
    SCRIPTED_ACTION                    approve (default) or deny, on consent and device pages
    SCRIPTED_MODE                      normal (default); wrong-state-first: GET the callback with
                                       a tampered state first and record that answer, then the real
                                       one; foreign-callback-first: before the real callback, sign in
                                       as SCRIPTED_ATTACKER_USER / SCRIPTED_ATTACKER_PASSWORD
                                       (default bob / builder) for the same
                                       authorization URL in a second, cookie-less client and deliver
                                       that callback first (an attacker who learned the request)
    SCRIPTED_RESULT                    path of the JSON result file (written atomically)
    SCRIPTED_USER_CODE                 device flow: the user code to type (default: from the URL)
    SCRIPTED_DELAY                     seconds to wait before starting (default 0)

Exit codes (also in the result as exit_code): 0 done, 1 error, 2 usage, 3 login rejected,
4 user code rejected.
"""

import html
import json
import os
import re
import sys
import time
from html.parser import HTMLParser
from urllib.parse import parse_qs, parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

import requests

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_LOGIN_REJECTED, EXIT_USER_CODE_REJECTED = 0, 1, 2, 3, 4
MAX_HOPS = 25
TIMEOUT = 30  # seconds, per HTTP request
BODY_LIMIT = 65536  # characters of the callback's answer kept in the result


class Failure(Exception):
    def __init__(self, message, exit_code=EXIT_ERROR):
        super().__init__(message)
        self.exit_code = exit_code


# --- HTML forms ---------------------------------------------------------------------------------


class _FormParser(HTMLParser):
    """Collects each <form> with its inputs and buttons; enough for the provider's pages."""

    def __init__(self):
        super().__init__()
        self.forms = []
        self._form = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self._form = {"id": a.get("id", ""), "action": a.get("action", ""),
                          "method": a.get("method", "get").lower(), "fields": [], "submits": []}
            self.forms.append(self._form)
        elif self._form is not None and tag in ("input", "button"):
            kind = a.get("type", "submit" if tag == "button" else "text").lower()
            entry = {"name": a.get("name", ""), "value": a.get("value", ""), "type": kind, "id": a.get("id", "")}
            (self._form["submits"] if kind == "submit" else self._form["fields"]).append(entry)

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None


def parse_forms(text):
    parser = _FormParser()
    parser.feed(text)
    return parser.forms


def _form_data(form, submit=None, **values):
    """The form's fields as a browser would send them, with `values` filled in and one submit."""
    data = [(f["name"], values.get(f["name"], f["value"])) for f in form["fields"]
            if f["name"] and f["type"] not in ("checkbox", "radio")]
    if submit is not None and submit["name"]:
        data.append((submit["name"], submit["value"]))
    return data


def _submit(form, name=None, value=None):
    for s in form["submits"]:
        if (name is None or s["name"] == name) and (value is None or s["value"] == value):
            return s
    return None


# --- the browser --------------------------------------------------------------------------------


def _origin(url):
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _endpoint(url):
    """(scheme, host, port, path): what identifies a redirect target, query aside."""
    parts = urlsplit(url)
    port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    return parts.scheme, (parts.hostname or "").lower(), port, parts.path


class Browser:
    def __init__(self):
        self.session = requests.Session()
        self.session.headers["User-Agent"] = "kcauth-scripted-user/1"
        self.steps = []

    def request(self, method, url, data=None, referer=None):
        headers = {}
        if referer:
            headers["Referer"] = referer
            headers["Origin"] = _origin(referer)
        response = self.session.request(method, url, data=data, headers=headers,
                                        allow_redirects=False, timeout=TIMEOUT)
        # Paths only: queries carry codes and states, which have no business in a log.
        self.steps.append({"method": method, "path": urlsplit(url).path, "status": response.status_code})
        return response

    def walk(self, url, on_page, stop_at=None):
        """Follow redirects and pages from `url`.

        on_page(response, forms) returns (method, url, data) for the next request, or None when
        the walk is done. If stop_at(url) is true for a URL about to be requested, the walk stops
        there and returns that URL without requesting it.
        """
        method, data, referer = "GET", None, None
        for _ in range(MAX_HOPS):
            if stop_at and stop_at(url):
                return url, None
            response = self.request(method, url, data=data, referer=referer)
            if response.is_redirect:
                url = urljoin(response.url, response.headers["Location"])
                method, data, referer = "GET", None, None
                continue
            forms = parse_forms(response.text) if "html" in response.headers.get("Content-Type", "") else []
            following = on_page(response, forms)
            if following is None:
                return url, response
            method, action, data = following
            referer = response.url
            url = urljoin(response.url, action or response.url)
        raise Failure(f"more than {MAX_HOPS} hops")


class UserAgent:
    """The person: knows the credentials and whether to approve."""

    def __init__(self, username, password, action):
        if action not in ("approve", "deny"):
            raise Failure(f"SCRIPTED_ACTION must be approve or deny, not {action!r}", EXIT_USAGE)
        self.username, self.password, self.action = username, password, action
        self.logged_in = False
        self.consent = None  # "approve"/"deny" once a consent page was answered

    def login_form(self, response, forms):
        form = next((f for f in forms if any(x["type"] == "password" for x in f["fields"])), None)
        if form is None:
            return None
        if self.logged_in:
            # The form came back after the credentials were sent: they were refused.
            raise Failure("login rejected", EXIT_LOGIN_REJECTED)
        self.logged_in = True
        data = _form_data(form, _submit(form, "login") or _submit(form),
                          username=self.username, password=self.password)
        return form["method"].upper(), form["action"], data

    def consent_form(self, forms):
        """DOT's consent page (#kc-oauth with an `allow` button) or the device approval page."""
        for form in forms:
            allow = _submit(form, "allow")
            if allow is not None:  # authorization-code consent: allow=..., or leave it out to deny
                self.consent = self.action
                chosen = allow if self.action == "approve" else _submit(form, "cancel")
                return form["method"].upper(), form["action"], _form_data(form, chosen)
            accept = _submit(form, "action", "accept")
            if accept is not None:  # device approval: action=accept or action=deny
                self.consent = self.action
                chosen = accept if self.action == "approve" else _submit(form, "action", "deny")
                return form["method"].upper(), form["action"], _form_data(form, chosen)
        return None


def _page_error(response):
    message = f"unexpected page: HTTP {response.status_code} at {urlsplit(response.url).path}"
    # The provider's error pages carry the reason in #kc-error-message, as Keycloak's do.
    found = re.search(r'id="kc-error-message"[^>]*>(.*?)<', response.text, re.S)
    return f"{message}: {html.unescape(found.group(1).strip())}" if found else message


# --- the authorization-code flow ----------------------------------------------------------------


def _tamper_state(url):
    parts = urlsplit(url)
    query = [(k, "tampered-" + v if k == "state" else v) for k, v in parse_qsl(parts.query, keep_blank_values=True)]
    if not any(k == "state" for k, _ in query):
        query.append(("state", "tampered"))
    return urlunsplit(parts._replace(query=urlencode(query)))


def _fetch_callback(url, cookies=None):
    """A fresh GET of the callback, as the browser's navigation would be: a new connection, with
    the cookies the browser holds for it (`cookies`, a jar: matched by host and path)."""
    try:
        response = requests.get(url, allow_redirects=False, timeout=TIMEOUT, cookies=cookies,
                                headers={"User-Agent": "kcauth-scripted-user/1"})
    except requests.RequestException as exc:
        return {"status": None, "error": f"callback unreachable: {exc.__class__.__name__}: {exc}"}
    return {
        "status": response.status_code,
        "content_type": response.headers.get("Content-Type", ""),
        "location": response.headers.get("Location"),
        "body": response.text[:BODY_LIMIT],
    }


def code_flow(auth_url, username="alice", password="wonderland", action="approve", mode="normal", result=None,
              browser=None, attacker=("bob", "builder")):
    """Log in for an authorization URL; return the result dict (see README.md for its shape).
    `browser` is the Browser that followed kcauth's start URL (it holds the binding cookie)."""
    result = result if result is not None else {}
    result.update({"flow": "code", "authorization_url": auth_url})
    if mode not in ("normal", "wrong-state-first", "foreign-callback-first"):
        raise Failure(f"SCRIPTED_MODE must be normal, wrong-state-first or foreign-callback-first, not {mode!r}",
                      EXIT_USAGE)
    query = parse_qs(urlsplit(auth_url).query)
    redirect_uris = query.get("redirect_uri")
    if redirect_uris:
        target = _endpoint(redirect_uris[0])
    elif query.get("request_uri") and result.get("start_url"):
        # A pushed request (RFC 9126): the URL names only client_id and request_uri; the redirect
        # goes to the listener that served the start URL.
        start = urlsplit(result["start_url"])
        target = _endpoint(f"{start.scheme}://{start.netloc}/callback")
    elif query.get("request_uri"):
        target = "loopback"  # opened by hand: any loopback /callback
    else:
        raise Failure("the authorization URL has no redirect_uri", EXIT_USAGE)

    browser, user = browser or Browser(), UserAgent(username, password, action)
    result["steps"] = browser.steps
    callback = _walk_to_callback(browser, user, auth_url, target)
    result["callback_url"] = callback
    result["callback_params"] = dict(parse_qsl(urlsplit(callback).query, keep_blank_values=True))
    result["consent"] = user.consent
    if mode == "wrong-state-first":
        tampered = _tamper_state(callback)
        result["tampered_callback_url"] = tampered
        result["tampered_callback_response"] = _fetch_callback(tampered, browser.session.cookies)
        # Flat copies, for short assertions.
        result["wrong_state_status"] = result["tampered_callback_response"]["status"]
        result["wrong_state_body"] = result["tampered_callback_response"].get("body")
    if mode == "foreign-callback-first":
        # Another client (no kcauth cookie) signs in as the attacker with the same request and
        # delivers its callback first.
        other = Browser()
        foreign = _walk_to_callback(other, UserAgent(attacker[0], attacker[1], "approve"), auth_url, target)
        result["foreign_callback_params"] = dict(parse_qsl(urlsplit(foreign).query, keep_blank_values=True))
        result["foreign_callback_response"] = _fetch_callback(foreign, other.session.cookies)
        result["foreign_callback_status"] = result["foreign_callback_response"]["status"]
        result["foreign_callback_body"] = result["foreign_callback_response"].get("body")
    result["callback_response"] = _fetch_callback(callback, browser.session.cookies)
    result["callback_status"] = result["callback_response"]["status"]
    result["callback_body"] = result["callback_response"].get("body")
    if result["callback_response"].get("error"):
        raise Failure(result["callback_response"]["error"])
    return result


def _walk_to_callback(browser, user, auth_url, target):
    """Sign in at the provider; the callback URL it redirects to (not requested)."""

    def on_page(response, forms):
        following = user.login_form(response, forms) or (user.consent_form(forms) if response.ok else None)
        if following is None:
            raise Failure(_page_error(response))
        return following

    def stop_at(url):
        if target == "loopback":
            scheme, host, _, path = _endpoint(url)
            return scheme == "http" and host in ("127.0.0.1", "[::1]", "::1") and path == "/callback"
        return _endpoint(url) == target

    callback, _ = browser.walk(auth_url, on_page, stop_at=stop_at)
    return callback


# --- the device flow ----------------------------------------------------------------------------


def device_flow(url, username="alice", password="wonderland", action="approve", user_code=None, result=None):
    """Open the verification URL, log in, type the user code, approve or deny."""
    result = result if result is not None else {}
    result.update({"flow": "device", "verification_url": url})
    browser, user = Browser(), UserAgent(username, password, action)
    result["steps"] = browser.steps
    code_sent = []

    def on_page(response, forms):
        following = user.login_form(response, forms)
        if following:
            return following
        code_form = next((f for f in forms if any(x["name"] == "user_code" for x in f["fields"])), None)
        if code_form is not None:
            if code_sent:
                raise Failure("user code rejected", EXIT_USER_CODE_REJECTED)
            prefilled = next(x["value"] for x in code_form["fields"] if x["name"] == "user_code")
            code = user_code or prefilled
            if not code:
                raise Failure("no user code: pass verification_uri_complete or set SCRIPTED_USER_CODE", EXIT_USAGE)
            code_sent.append(code)
            data = _form_data(code_form, _submit(code_form), user_code=code)
            return code_form["method"].upper(), code_form["action"], data
        following = user.consent_form(forms) if response.ok else None
        if following:
            return following
        if response.ok and user.consent:
            return None  # the status page after approve or deny
        raise Failure(_page_error(response))

    _, response = browser.walk(url, on_page)
    result["user_code"] = code_sent[0] if code_sent else None
    result["consent"] = user.consent
    marker = 'data-status="'
    text = response.text
    result["device_status"] = text.split(marker, 1)[1].split('"', 1)[0] if marker in text else None
    return result


# --- RP-initiated logout -----------------------------------------------------------------------


def logout_flow(url, result=None, browser=None, **_):
    """Follow an end-session URL (OpenID Connect RP-Initiated Logout) to its post-logout redirect.

    GETs the URL and follows redirects by hand; a "do you want to log out?" page is answered with
    its Logout button (`allow`). It stops at the first Location whose scheme, host, port and path
    equal the post_logout_redirect_uri of the URL, and GETs that afresh, as the browser's new
    navigation would, so the CLI's loopback listener gets the real request. Needs no login: the
    provider identifies the session by id_token_hint.
    """
    result = result if result is not None else {}
    result.update({"flow": "logout", "logout_url": url, "confirmed": False})
    targets = parse_qs(urlsplit(url).query).get("post_logout_redirect_uri")
    if not targets:
        raise Failure("the logout URL has no post_logout_redirect_uri", EXIT_USAGE)
    target = _endpoint(targets[0])
    browser = browser or Browser()
    result["steps"] = browser.steps

    def on_page(response, forms):
        for form in forms:
            confirm = _submit(form, "allow")
            if confirm is not None and response.ok and not result["confirmed"]:
                result["confirmed"] = True
                return form["method"].upper(), form["action"], _form_data(form, confirm)
        raise Failure(_page_error(response))

    final, _ = browser.walk(url, on_page, stop_at=lambda u: _endpoint(u) == target)
    result["post_logout_url"] = final
    result["post_logout_params"] = dict(parse_qsl(urlsplit(final).query, keep_blank_values=True))
    result["callback_response"] = _fetch_callback(final, browser.session.cookies)
    result["callback_status"] = result["callback_response"]["status"]
    result["callback_body"] = result["callback_response"].get("body")
    if result["callback_response"].get("error"):
        raise Failure(result["callback_response"]["error"])
    return result


# --- running it ---------------------------------------------------------------------------------


def _write_result(path, result):
    if not path:
        return
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        json.dump(result, f, indent=2)
    os.replace(tmp, path)  # atomic: a test polling for the file never sees half of it


def run(flow, url):
    """Run one flow with the settings from the environment; write the result; return the exit code."""
    env = os.environ
    started = time.monotonic()
    result = {"ok": False, "exit_code": EXIT_ERROR, "error": None, "pid": os.getpid()}
    try:
        delay = float(env.get("SCRIPTED_DELAY", "0") or 0)
        if delay > 0:
            time.sleep(delay)
        common = dict(username=env.get("SCRIPTED_USER", "alice"),
                      password=env.get("SCRIPTED_PASSWORD", "wonderland"),
                      action=env.get("SCRIPTED_ACTION", "approve"), result=result)
        browser = None
        if flow == "start":
            # kcauth's one-shot local start URL (login, logout --browser): it redirects to the real
            # URL, which must not appear in a browser's argv, and may set a cookie that binds this
            # browser to the login. Follow it once, keep its cookies, then play that flow.
            browser = Browser()
            url = _resolve_start(url, result, browser)
            flow = _flow_for(url)
        if flow == "device":
            device_flow(url, user_code=env.get("SCRIPTED_USER_CODE") or None, **common)
        elif flow == "logout":
            logout_flow(url, browser=browser, **common)
        else:
            code_flow(url, mode=env.get("SCRIPTED_MODE", "normal"), browser=browser,
                      attacker=(env.get("SCRIPTED_ATTACKER_USER", "bob"),
                                env.get("SCRIPTED_ATTACKER_PASSWORD", "builder")), **common)
        result.update(ok=True, exit_code=EXIT_OK)
    except Failure as exc:
        result.update(error=str(exc), exit_code=exc.exit_code)
    except Exception as exc:  # anything else is still reported, never lost in a detached process
        result.update(error=f"{exc.__class__.__name__}: {exc}", exit_code=EXIT_ERROR)
    result["duration_s"] = round(time.monotonic() - started, 3)
    _write_result(env.get("SCRIPTED_RESULT"), result)
    if result["error"]:
        print(f"scripted user: {result['error']}", file=sys.stderr)
    return result["exit_code"]


def _detach_and_run(flow, url):
    """Double fork: the caller gets exit 0 at once, as from xdg-open; the login goes on alone."""
    if os.fork() > 0:
        return EXIT_OK
    os.setsid()  # out of the caller's session and process group
    if os.fork() > 0:
        os._exit(0)
    # Let go of the caller's terminal and pipes, so nobody waits on our output.
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    try:
        code = run(flow, url)
    finally:
        sys.stdout.flush()
    os._exit(code)


def _resolve_start(url, result, browser):
    answer = browser.request("GET", url)
    result["start_url"], result["start_status"] = url, answer.status_code
    result["start_cookies"] = sorted(c.name for c in browser.session.cookies if c.name.startswith("kcauth-"))
    if answer.status_code != 302 or "Location" not in answer.headers:
        result["start_body"] = answer.text[:BODY_LIMIT]
        raise Failure(f"the start URL {url} answered {answer.status_code} without a redirect")
    return answer.headers["Location"]


def _flow_for(url):
    path = urlsplit(url).path.rstrip("/")
    # kcauth's start URLs: the one-shot one in the browser's argv (/start/…), and the one it
    # prints for another browser on the machine (/show/…).
    if urlsplit(url).hostname == "127.0.0.1" and ("/start/" in path + "/" or "/show/" in path + "/"):
        return "start"
    if path.endswith("/logout"):
        return "logout"
    return "device" if path.endswith("/device") else "code"


def main(argv):
    args = argv[1:]
    if len(args) == 1 and not args[0].startswith("-"):
        return _detach_and_run(_flow_for(args[0]), args[0])  # as $BROWSER
    if len(args) == 2 and args[0] in ("login", "device", "logout"):
        flow = {"login": "code"}.get(args[0], args[0])
        return run("start" if flow == "code" and _flow_for(args[1]) == "start" else flow, args[1])
    print(__doc__, file=sys.stderr)
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main(sys.argv))
