#!/usr/bin/env python3
"""A real browser for tests: headless Chromium (Debian's `chromium` + `chromium-driver`) driven by
selenium plays the person at the browser, and records kcauth's landing page.

    chromium_user.py URL          As $BROWSER (via the chromium_browser wrapper): like xdg-open it
                                  returns at once and does the work in a detached process.
    chromium_user.py login URL    The same in the foreground; the exit code tells the outcome.

For an authorization URL (or kcauth's local start URL, which redirects to one and sets a cookie
that binds the browser to the login) it opens the URL in Chromium, fills in the provider's login form
(`#kc-form-login`: `username`, `password`, submit `login`), answers a consent page (`#kc-oauth`:
`#kc-login` = Yes, `#kc-cancel` = No), and lets the browser itself follow the redirect to the
loopback callback, so kcauth's listener gets a genuine browser request and the browser shows
kcauth's landing page. Of that page it saves, into the artifacts directory:

    landing-light.png, landing-dark.png     screenshots (1024x720) with prefers-color-scheme light / dark
    landing-narrow.png                      screenshot at a phone-sized 390x740 viewport (light)
    landing.html                            the HTML exactly as served (from the DevTools network log)
    landing.txt                             the visible text
    requests.json                           every request of the session (DevTools performance log)

JavaScript is disabled for the whole session (Chrome content setting
`profile.managed_default_content_settings.javascript = 2`): the provider's forms are plain HTML,
and the landing page must work without it. A self-check at start proves that a page's own
<script> does not run. Measurements (computed styles) use the DevTools protocol
(DOM.getDocument + CSS.getComputedStyleForNode), which runs no JavaScript in the page.

Settings from shared/notes/test-providers.md §8: never download a driver
(Service(executable_path="/usr/bin/chromedriver"), binary_location="/usr/bin/chromium",
SE_OFFLINE=true); as root --headless=new --no-sandbox --disable-dev-shm-usage. Chromium and
chromedriver are always stopped (driver.quit(), then by PID if anything is left) before the result
is written, so a test that sees the result can check that they are gone (`browser_pids`).

Environment (the scripted user's names, so the same test setup works):
    SCRIPTED_USER, SCRIPTED_PASSWORD   credentials (default alice / wonderland)
    SCRIPTED_ACTION                    approve (default) or deny, on a consent page
    SCRIPTED_RESULT                    path of the JSON result file (written atomically)
    SCRIPTED_DELAY                     seconds to wait before starting (default 0)
    CHROMIUM_ARTIFACTS                 directory for the files above (default: the result file's
                                       directory, else a new temp dir)
    CHROMIUM_TIMEOUT                   seconds for the whole walk to the landing page (default 30)
    CHROMIUM_BINARY, CHROMEDRIVER      default /usr/bin/chromium, /usr/bin/chromedriver

Exit codes (also exit_code in the result): 0 done, 1 error, 2 usage, 3 login rejected.

Result JSON (keys shared with scripted_user.py where they mean the same):
    ok, exit_code, error, pid, duration_s, flow ("code"), browser ("chromium"), browser_version,
    javascript ("disabled"), authorization_url, consent, steps (document navigations: method,
    path, status), callback_url, callback_params, callback_status, callback_body (the served HTML),
    callback_response {status, content_type, location, body}, browser_pids (chromedriver and
    Chromium's main process), artifacts (directory), landing {url, title, text, screenshots
    {light, dark, narrow}, html_path, text_path, requests_path, requests (the landing page's
    own requests: the document and everything it loaded), styles {light, dark}}, timings_s
    (start, javascript_check, sign_in, record, stop). When the walk fails: steps, stuck_at (the
    path the browser is at) and stuck_screenshot.
    styles[scheme][selector] = {font_size_px, font_weight, color, background, contrast} for the
    text elements of the page; background is the first opaque background among the element and
    its ancestors, contrast the WCAG 2 contrast ratio of color on it.
"""

import json
import os
import re
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qs, parse_qsl, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scripted_user import (  # noqa: E402  (same directory)
    EXIT_ERROR, EXIT_LOGIN_REJECTED, EXIT_OK, EXIT_USAGE, Failure, _endpoint, _write_result,
)

CHROMIUM = os.environ.get("CHROMIUM_BINARY", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
WINDOW = (1024, 720)
NARROW = (390, 740)
BODY_LIMIT = 65536
# The elements whose text is measured; the first match of each selector.
TEXT_SELECTORS = ("h1", "p", "p:last-of-type", "p code", "p strong", "footer", ".mark")

_JS_PROBE = ("data:text/html,<title>js-probe</title>"
             "<script>document.title='javascript-ran'</script><p>probe</p>")


def _chrome_options(profile_dir):
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    arguments = [
        "--headless=new",
        f"--window-size={WINDOW[0]},{WINDOW[1]}",
        f"--user-data-dir={profile_dir}",
        "--lang=en-US",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        # Quiet: no first-run UI, no background traffic to Google that could blur the request log.
        "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-extensions",
        "--disable-features=Translate,OptimizationHints,MediaRouter",
        "--password-store=basic",  # never touch the test's keyring on the session bus
        "--disable-dev-shm-usage",
    ]
    if os.geteuid() == 0:
        arguments.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    for argument in arguments:
        options.add_argument(argument)
    options.add_experimental_option("prefs", {
        "profile.managed_default_content_settings.javascript": 2,  # JavaScript off, every site
        "credentials_enable_service": False,
        "profile.password_manager_enabled": False,
    })
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    options.set_capability("pageLoadStrategy", "normal")
    return options


def _children(pid):
    """PIDs whose parent is `pid` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry))
    return found


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class Chromium:
    """One headless Chromium session; close() stops chromedriver and the browser by PID."""

    def __init__(self):
        os.environ["SE_OFFLINE"] = "true"  # selenium manager must never download anything
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.profile_dir = tempfile.mkdtemp(prefix="kcauth-chromium-")
        self.driver = None
        self.pids = []
        # Chromium's own files (crashpad's "Crash Reports", caches) stay in the temp dir too,
        # not in the XDG_CONFIG_HOME of the kcauth under test.
        environment = {**os.environ, "XDG_CONFIG_HOME": os.path.join(self.profile_dir, "xdg-config"),
                       "XDG_CACHE_HOME": os.path.join(self.profile_dir, "xdg-cache")}
        service = Service(executable_path=CHROMEDRIVER, env=environment)
        try:
            self.driver = webdriver.Chrome(options=_chrome_options(self.profile_dir), service=service)
        except Exception:
            if service.process is not None:
                self.pids.append(service.process.pid)
            self.close()
            raise
        driver_pid = self.driver.service.process.pid
        self.pids = [driver_pid, *_children(driver_pid)]
        self.driver.set_page_load_timeout(30)
        self.version = self.driver.capabilities.get("browserVersion")

    def close(self):
        try:
            if self.driver is not None:
                self.driver.quit()
        except Exception:
            pass
        finally:
            self.driver = None
            deadline = time.monotonic() + 5
            while any(_alive(p) for p in self.pids) and time.monotonic() < deadline:
                time.sleep(0.05)
            for pid in self.pids:  # anything quit() left behind, by PID
                if _alive(pid):
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
            shutil.rmtree(self.profile_dir, ignore_errors=True)


# --- DevTools helpers ---------------------------------------------------------------------------


def _network_events(driver):
    """Drains the performance log: the Network.* events, in order."""
    events = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method", "").startswith("Network."):
            events.append(message)
    return events


def _requests(events):
    """One dict per request (redirect hops are separate requests), in the order they were sent."""
    requests, by_id = [], {}
    for event in events:
        params = event["params"]
        if event["method"] == "Network.requestWillBeSent":
            if "redirectResponse" in params and params["requestId"] in by_id:
                by_id[params["requestId"]]["status"] = params["redirectResponse"].get("status")
            entry = {
                "request_id": params["requestId"], "url": params["request"]["url"],
                "method": params["request"]["method"], "type": params.get("type"),
                "document_url": params.get("documentURL"),
                "initiator": params.get("initiator", {}).get("type"), "status": None,
                "mime_type": None, "failed": None,
            }
            requests.append(entry)
            by_id[params["requestId"]] = entry
        elif event["method"] == "Network.responseReceived" and params["requestId"] in by_id:
            by_id[params["requestId"]].update(status=params["response"].get("status"),
                                              mime_type=params["response"].get("mimeType"),
                                              headers=params["response"].get("headers", {}))
        elif event["method"] == "Network.loadingFailed" and params["requestId"] in by_id:
            by_id[params["requestId"]]["failed"] = params.get("errorText") or "failed"
    return requests


def _parse_color(text):
    """'rgb(r, g, b)' / 'rgba(r, g, b, a)' -> (r, g, b, a)."""
    found = re.match(r"rgba?\(([^)]*)\)", text.strip())
    if not found:
        raise ValueError(f"not a computed rgb() color: {text!r}")
    parts = [float(x) for x in re.split(r"[,\s/]+", found.group(1).strip()) if x]
    return (*parts[:3], parts[3] if len(parts) > 3 else 1.0)


def _over(top, bottom):
    """Alpha-composites color `top` over opaque `bottom`."""
    a = top[3]
    return tuple(top[i] * a + bottom[i] * (1 - a) for i in range(3)) + (1.0,)


def _luminance(rgb):
    def channel(c):
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(foreground, background):
    """WCAG 2 contrast ratio of two opaque colors, 1.0 … 21.0."""
    lighter, darker = sorted((_luminance(foreground), _luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _hex(rgba):
    return "#" + "".join(f"{round(c):02x}" for c in rgba[:3])


def measure_styles(driver):
    """Computed font size, weight, color and effective background of the page's text elements,
    read through DevTools (DOM + CSS domains): no JavaScript runs in the page."""
    driver.execute_cdp_cmd("DOM.enable", {})
    driver.execute_cdp_cmd("CSS.enable", {})
    root = driver.execute_cdp_cmd("DOM.getDocument", {"depth": -1, "pierce": False})["root"]
    parents = {}

    def index(node, parent):
        parents[node["nodeId"]] = parent
        for child in node.get("children", []):
            index(child, node["nodeId"])
    index(root, None)

    def style(node_id):
        computed = driver.execute_cdp_cmd("CSS.getComputedStyleForNode", {"nodeId": node_id})["computedStyle"]
        return {p["name"]: p["value"] for p in computed}

    def background(node_id):
        """The element's backdrop: its own and its ancestors' background colors composited from
        the outermost inward, over white (kcauth's pages give <body> an opaque background, so
        the white only matters for a page that sets none)."""
        layers = []
        while node_id is not None and node_id in parents:
            s = style(node_id) if parents[node_id] is not None else {}
            if s.get("background-color"):
                layers.append(_parse_color(s["background-color"]))
            node_id = parents[node_id]
        color = (255.0, 255.0, 255.0, 1.0)
        for layer in reversed(layers):
            color = _over(layer, color)
        return color

    measured = {}
    for selector in TEXT_SELECTORS:
        found = driver.execute_cdp_cmd("DOM.querySelector", {"nodeId": root["nodeId"], "selector": selector})
        node_id = found.get("nodeId")
        if not node_id:
            continue
        s = style(node_id)
        back = background(node_id)
        fore = _over(_parse_color(s["color"]), back)
        measured[selector] = {
            "font_size_px": float(s["font-size"].removesuffix("px")),
            "font_weight": s.get("font-weight"),
            "font_family": s.get("font-family"),
            "color": _hex(fore), "background": _hex(back),
            "contrast": round(contrast_ratio(fore, back), 2),
        }
    driver.execute_cdp_cmd("CSS.disable", {})
    return measured


def _set_viewport(driver, size, mobile):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": mobile})


def _set_color_scheme(driver, scheme):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"media": "", "features": [{"name": "prefers-color-scheme", "value": scheme}]})


# --- the walk -----------------------------------------------------------------------------------


def _first(driver, css):
    from selenium.webdriver.common.by import By
    found = driver.find_elements(By.CSS_SELECTOR, css)
    return found[0] if found else None


def _javascript_is_off(driver):
    """Loads a page whose only script would rename it: the title must stay as served."""
    driver.get(_JS_PROBE)
    return driver.title == "js-probe"


def code_flow(auth_url, username="alice", password="wonderland", action="approve",
              artifacts=None, timeout=30.0, result=None):
    result = result if result is not None else {}
    result.update({"flow": "code", "browser": "chromium", "authorization_url": auth_url,
                   "consent": None, "browser_pids": []})
    if action not in ("approve", "deny"):
        raise Failure(f"SCRIPTED_ACTION must be approve or deny, not {action!r}", EXIT_USAGE)
    parts = urlsplit(auth_url)
    if parts.hostname == "127.0.0.1" and parts.path.startswith("/start/"):
        # kcauth's one-shot start URL: it redirects to the authorization URL and sets the cookie
        # that binds this browser to the login; the callback is on the same listener.
        result["start_url"] = auth_url
        target = ("http", "127.0.0.1", parts.port, "/callback")
    else:
        redirect_uris = parse_qs(parts.query).get("redirect_uri")
        if not redirect_uris:
            raise Failure("the authorization URL has no redirect_uri", EXIT_USAGE)
        target = _endpoint(redirect_uris[0])
    artifacts = Path(artifacts or tempfile.mkdtemp(prefix="kcauth-chromium-artifacts-"))
    artifacts.mkdir(parents=True, exist_ok=True)
    result["artifacts"] = str(artifacts)

    timings = result["timings_s"] = {}
    mark = time.monotonic()

    def lap(name):
        nonlocal mark
        now = time.monotonic()
        timings[name] = round(now - mark, 3)
        mark = now

    browser = Chromium()
    result["browser_pids"] = list(browser.pids)
    result["browser_version"] = browser.version
    lap("start")
    try:
        driver = browser.driver
        if not _javascript_is_off(driver):
            raise Failure("JavaScript is not disabled in Chromium; the page's script ran")
        result["javascript"] = "disabled"
        _network_events(driver)  # drop the probe's events
        lap("javascript_check")
        try:
            _walk(driver, auth_url, username, password, action, target, timeout, result)
        except Exception:
            lap("sign_in")
            _record_failure(driver, artifacts, result)
            raise
        lap("sign_in")
        _record_landing(driver, artifacts, result)
        lap("record")
    finally:
        browser.close()
        lap("stop")
    return result


def _walk(driver, auth_url, username, password, action, target, timeout, result):
    """Open the authorization URL and act on each page until the browser is at the callback."""
    driver.get(auth_url)
    deadline = time.monotonic() + timeout
    logged_in = False
    while True:
        if _endpoint(driver.current_url) == target:
            return
        if time.monotonic() > deadline:
            raise Failure(f"no landing page within {timeout:g} s; the browser is at {urlsplit(driver.current_url).path}")
        form = _first(driver, "#kc-form-login")
        if form is not None:
            if logged_in:
                raise Failure("login rejected", EXIT_LOGIN_REJECTED)
            logged_in = True
            _first(driver, "#kc-form-login [name=username]").send_keys(username)
            _first(driver, "#kc-form-login [name=password]").send_keys(password)
            _first(driver, "#kc-form-login [name=login]").click()
            _wait_replaced(form, deadline)  # a click may return before the next page is there
            continue
        consent = _first(driver, "#kc-oauth")
        if consent is not None and result["consent"] is None:
            result["consent"] = action
            _first(driver, "#kc-login" if action == "approve" else "#kc-cancel").click()
            _wait_replaced(consent, deadline)
            continue
        error = _first(driver, "#kc-error-message")
        if error is not None:
            raise Failure(f"provider error page at {urlsplit(driver.current_url).path}: {error.text}")
        if _first(driver, "#main-frame-error") is not None:  # Chromium's own "can't reach this page"
            code = _first(driver, ".error-code")
            raise Failure(f"the browser could not load {urlsplit(driver.current_url).netloc}"
                          f"{urlsplit(driver.current_url).path}: {code.text if code is not None else 'network error'}")
        # A redirect or the callback's answer is still on its way (kcauth answers only after it
        # has redeemed the code): wait a moment and look again.
        time.sleep(0.1)


def _wait_replaced(element, deadline):
    """Until `element`'s page has been replaced by the next one, or the deadline. Under load a
    click returns before the navigation: looking again at once would find the old form and take
    it for a rejected login."""
    while time.monotonic() < deadline:
        try:
            element.tag_name   # raises once the element's document is gone
        except Exception:
            return
        time.sleep(0.05)


def _record_landing(driver, artifacts, result):
    url = driver.current_url
    result["callback_url"] = url
    result["callback_params"] = dict(parse_qsl(urlsplit(url).query, keep_blank_values=True))
    landing = {"url": url, "title": driver.title, "screenshots": {}}
    result["landing"] = landing

    # Light first: the screenshot also makes sure layout and paint (and any font or image
    # loads they would trigger) have happened before the request log is read. The viewport is
    # set exactly (the window size would include the browser's own UI).
    _set_viewport(driver, WINDOW, mobile=False)
    _set_color_scheme(driver, "light")
    landing["screenshots"]["light"] = _screenshot(driver, artifacts / "landing-light.png")
    styles = {"light": measure_styles(driver)}
    _set_color_scheme(driver, "dark")
    landing["screenshots"]["dark"] = _screenshot(driver, artifacts / "landing-dark.png")
    styles["dark"] = measure_styles(driver)
    _set_color_scheme(driver, "light")
    _set_viewport(driver, NARROW, mobile=True)
    landing["screenshots"]["narrow"] = _screenshot(driver, artifacts / "landing-narrow.png")
    _set_viewport(driver, WINDOW, mobile=False)
    landing["styles"] = styles

    from selenium.webdriver.common.by import By
    text = driver.find_element(By.TAG_NAME, "body").text
    landing["text"] = text
    time.sleep(0.3)  # late subresources (fonts, images) would show up in the log by now
    events = _network_events(driver)
    requests = _requests(events)
    document = next((r for r in reversed(requests)
                     if r["type"] == "Document" and _endpoint(r["url"]) == _endpoint(url)), None)
    if document is None:
        raise Failure("the landing page's own request is missing from the DevTools log")
    served = _response_body(driver, document["request_id"])
    html = served if served is not None else driver.page_source
    landing["html_source"] = "network" if served is not None else "dom"
    # The landing page's requests: its document and everything sent after it (kcauth's page is
    # the last navigation of the session, so nothing else can be in flight).
    start = requests.index(document)
    landing["requests"] = [_public(r) for r in requests[start:]]

    result["steps"] = [{"method": r["method"], "path": urlsplit(r["url"]).path, "status": r["status"]}
                       for r in requests if r["type"] == "Document"]
    result["callback_status"] = document["status"]
    result["callback_body"] = html[:BODY_LIMIT]
    result["callback_response"] = {
        "status": document["status"], "content_type": document.get("headers", {}).get("Content-Type", ""),
        "location": None, "body": html[:BODY_LIMIT], "headers": document.get("headers", {}),
    }

    (artifacts / "landing.html").write_text(html)
    (artifacts / "landing.txt").write_text(text + "\n")
    (artifacts / "requests.json").write_text(json.dumps([_public(r) for r in requests], indent=2) + "\n")
    landing.update(html_path=str(artifacts / "landing.html"), text_path=str(artifacts / "landing.txt"),
                   requests_path=str(artifacts / "requests.json"))


def _record_failure(driver, artifacts, result):
    """Where the walk got stuck, for the test's failure message: the pages so far and a screenshot."""
    try:
        result["steps"] = [{"method": r["method"], "path": urlsplit(r["url"]).path, "status": r["status"]}
                           for r in _requests(_network_events(driver)) if r["type"] == "Document"]
        result["stuck_at"] = urlsplit(driver.current_url).path
        result["stuck_screenshot"] = _screenshot(driver, artifacts / "stuck.png")
    except Exception:
        pass  # the original failure is what matters


def _public(request):
    return {k: v for k, v in request.items() if k not in ("request_id", "headers")}


def _response_body(driver, request_id):
    """The document exactly as served (kcauth's bytes), if DevTools still has it."""
    try:
        body = driver.execute_cdp_cmd("Network.getResponseBody", {"requestId": request_id})
    except Exception:
        return None
    if body.get("base64Encoded"):
        import base64
        return base64.b64decode(body["body"]).decode("utf-8", "replace")
    return body.get("body")


def _screenshot(driver, path):
    if not driver.save_screenshot(str(path)):
        raise Failure(f"could not save a screenshot to {path}")
    return str(path)


# --- running it ---------------------------------------------------------------------------------


def run(url):
    """Run the code flow with the settings from the environment; write the result; return the exit code."""
    env = os.environ
    started = time.monotonic()
    result = {"ok": False, "exit_code": EXIT_ERROR, "error": None, "pid": os.getpid()}
    try:
        delay = float(env.get("SCRIPTED_DELAY", "0") or 0)
        if delay > 0:
            time.sleep(delay)
        artifacts = env.get("CHROMIUM_ARTIFACTS") or (
            str(Path(env["SCRIPTED_RESULT"]).parent) if env.get("SCRIPTED_RESULT") else None)
        code_flow(url, username=env.get("SCRIPTED_USER", "alice"),
                  password=env.get("SCRIPTED_PASSWORD", "wonderland"),
                  action=env.get("SCRIPTED_ACTION", "approve"), artifacts=artifacts,
                  timeout=float(env.get("CHROMIUM_TIMEOUT", "30") or 30), result=result)
        result.update(ok=True, exit_code=EXIT_OK)
    except Failure as exc:
        result.update(error=str(exc), exit_code=exc.exit_code)
    except Exception as exc:  # anything else is still reported, never lost in a detached process
        result.update(error=f"{exc.__class__.__name__}: {exc}", exit_code=EXIT_ERROR)
    result["duration_s"] = round(time.monotonic() - started, 3)
    _write_result(env.get("SCRIPTED_RESULT"), result)
    if result["error"]:
        print(f"chromium user: {result['error']}", file=sys.stderr)
    return result["exit_code"]


def _detach_and_run(url):
    """Double fork: the caller gets exit 0 at once, as from xdg-open; the browser goes on alone."""
    if os.fork() > 0:
        return EXIT_OK
    os.setsid()
    if os.fork() > 0:
        os._exit(0)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    try:
        code = run(url)
    finally:
        sys.stdout.flush()
    os._exit(code)


def main(argv):
    args = argv[1:]
    if len(args) == 1 and not args[0].startswith("-"):
        return _detach_and_run(args[0])  # as $BROWSER
    if len(args) == 2 and args[0] == "login":
        return run(args[1])
    print(__doc__, file=sys.stderr)
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main(sys.argv))
