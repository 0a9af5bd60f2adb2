"""kcauth's landing pages (success and error) in a real headless Chromium with JavaScript off.

The browser (Tests/Provider/chromium_browser) signs in at the local provider and follows the
redirect to kcauth's loopback listener itself; it then screenshots the page in light and dark
mode and at a phone-sized width, and records the served HTML, the visible text, the computed
styles (read through DevTools, no JavaScript in the page) and every request of the session.

Each test checks that the page
- states what happened and what to do next (the visible text),
- works without JavaScript (JavaScript is off in the browser, and the page has no <script>),
- carries no external resources: the landing page made no request but its own (to the listener;
  not even /favicon.ico), and the HTML references nothing (no src=, url(), @import or http(s) URL;
  the one href is the empty inline icon `data:,`) and forbids loading anything by its
  Content-Security-Policy,
- is readable in light and in dark mode: text at least 14 px, WCAG AA contrast (4.5:1) for the
  heading, the paragraphs and the footer.

The screenshots are copied to .cache/test-artifacts/landing-pages/ (or $KCAUTH_TEST_ARTIFACTS)
and to <pytest base temp>/landing-pages/ (e.g. /tmp/pytest-of-$USER/pytest-current/landing-pages/);
the paths are printed (pytest -s shows them).
"""

import os
import re
import shutil
import struct
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from chromium import leftover_processes
from kcauth import REPO

ARTIFACTS = Path(os.environ.get("KCAUTH_TEST_ARTIFACTS", REPO / ".cache" / "test-artifacts")) / "landing-pages"
MIN_FONT_PX = 14.0
MIN_CONTRAST = 4.5  # WCAG 2 AA for normal text; the heading is held to it too

CASES = {
    # name: (client, SCRIPTED_ACTION, kcauth's exit status, HTTP status, sentences on the page)
    "success": ("kcauth", "approve", 0, 200,
                ["You are signed in as alice", "close this tab", "return to the terminal"]),
    "error": ("kcauth-consent", "deny", 3, 400,
              ["Sign-in failed", "Nothing was stored", "Return to the terminal", "kcauth login"]),
}


def png_size(path):
    """(width, height) from a PNG's IHDR chunk."""
    data = Path(path).read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


def keep_artifacts(result, name, tmp_path_factory):
    """Copies the screenshots and the page to the artifacts dirs; returns the stable paths."""
    stable_dir = tmp_path_factory.getbasetemp() / "landing-pages"
    kept = []
    for target in (ARTIFACTS, stable_dir):
        target.mkdir(parents=True, exist_ok=True)
        for scheme, source in result["landing"]["screenshots"].items():
            destination = target / f"{name}-{scheme}.png"
            shutil.copyfile(source, destination)
            kept.append(destination)
        shutil.copyfile(result["landing"]["html_path"], target / f"{name}.html")
    return kept


@pytest.mark.parametrize("name", list(CASES))
def test_landing_page_in_chromium(name, provider, keyring, kcauth, chromium_browser_env, tmp_path_factory):
    client, action, exit_status, http_status, sentences = CASES[name]
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", client, "--timeout", "60",
               env={**chromium_browser_env, "SCRIPTED_ACTION": action}, timeout=90)
    result = chromium_browser_env.wait_result()
    assert r.returncode == exit_status, (r, result.get("error"))
    assert result["ok"], result["error"]
    assert leftover_processes(result) == [], "Chromium and chromedriver are stopped"
    if action == "deny":
        assert result["consent"] == "deny" and "denied" in r.stderr
    landing = result["landing"]

    for path in keep_artifacts(result, name, tmp_path_factory):
        print(f"landing page screenshot: {path}")
    for scheme, path in landing["screenshots"].items():
        assert png_size(path) == ((390, 740) if scheme == "narrow" else (1024, 720)), path

    # The browser itself got kcauth's page from the listener.
    listener = urlsplit(result["callback_url"])
    assert (listener.hostname, listener.path) == ("127.0.0.1", "/callback")
    assert result["callback_status"] == http_status
    assert result["callback_response"]["headers"].get("Cache-Control") == "no-store"

    # It states what happened and what to do next.
    text = " ".join(landing["text"].split())
    for sentence in sentences:
        assert sentence in text, f"{sentence!r} not in the visible text {text!r}"

    # It works without JavaScript: off in the browser, and the page has none.
    assert result["javascript"] == "disabled"
    html = result["callback_body"]
    assert landing["html_source"] == "network", "the HTML checked is the one kcauth served"
    assert not re.search(r"<script|javascript:|\son[a-z]+\s*=", html, re.I), "no script of any kind"

    # No external resources: every request of the landing page went to the listener itself …
    origin = (listener.scheme, listener.hostname, listener.port)
    requests = landing["requests"]
    assert requests and requests[0]["type"] == "Document"
    foreign = [q["url"] for q in requests if (urlsplit(q["url"]).scheme, urlsplit(q["url"]).hostname,
                                               urlsplit(q["url"]).port) != origin]
    assert foreign == [], "the landing page loads nothing from elsewhere"
    assert [q["url"] for q in requests[1:]] == [], "not even /favicon.ico (the page's icon is inline)"
    # … and the HTML references nothing that could be fetched (no fonts, scripts, images, styles);
    # the one link is the empty inline icon, and a Content-Security-Policy forbids everything else.
    references = re.findall(r"\s(?:src|srcset|href|action|poster|data)\s*=\s*[\"']?([^\"'\s>]*)|@import|url\(|https?://", html, re.I)
    assert references == ["data:,"], references
    assert "default-src 'none'" in html

    # Readable in light and in dark mode.
    styles = landing["styles"]
    assert styles["light"]["h1"]["background"] != styles["dark"]["h1"]["background"], \
        "prefers-color-scheme: dark changes the page"
    for scheme in ("light", "dark"):
        for selector in ("h1", "p", "p:last-of-type", "footer"):
            measured = styles[scheme][selector]
            assert measured["font_size_px"] >= MIN_FONT_PX, (scheme, selector, measured)
            assert measured["contrast"] >= MIN_CONTRAST, (scheme, selector, measured)
        assert styles[scheme]["h1"]["font_size_px"] > styles[scheme]["p"]["font_size_px"], "the heading stands out"
