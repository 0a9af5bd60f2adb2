"""The real-browser option of the tests: headless Chromium as kcauth's $BROWSER.

    env = ChromiumBrowserEnv(tmp_path / "chromium-result.json", tmp_path / "chromium")
    kcauth("login", ..., env=dict(env))
    result = env.wait_result()          # the browser's result, once Chromium has been stopped
    result["landing"]["screenshots"]["light"], result["landing"]["text"], ...

The browser side is Tests/Provider/chromium_browser (a wrapper) and chromium_user.py (selenium;
its docstring describes the result). Needs Debian's `chromium` and `chromium-driver`
(scripts/install-deps) and selenium (Tests/requirements.txt); drivers are never downloaded.
"""

import os
import time
from pathlib import Path

from provider import PROVIDER_DIR, ScriptedBrowserEnv, pid_alive

CHROMIUM_BROWSER = PROVIDER_DIR / "chromium_browser"
CHROMIUM_BINARY = Path(os.environ.get("CHROMIUM_BINARY", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))


def missing():
    """What is missing for the real browser, as a message; "" when everything is there."""
    absent = [str(p) for p in (CHROMIUM_BINARY, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    try:
        import selenium  # noqa: F401
    except ImportError:
        absent.append("selenium (Python)")
    return f"{', '.join(absent)} not found; run scripts/install-deps" if absent else ""


class ChromiumBrowserEnv(ScriptedBrowserEnv):
    """Environment variables that make a CLI's $BROWSER a real headless Chromium.

    A dict like ScriptedBrowserEnv, with the same SCRIPTED_* settings (SCRIPTED_ACTION="deny", ...),
    plus CHROMIUM_ARTIFACTS: the directory for screenshots, the served HTML and the request log.
    """

    def __init__(self, result_path, artifacts, **extra):
        super().__init__(result_path, CHROMIUM_ARTIFACTS=str(artifacts), **extra)
        self["BROWSER"] = str(CHROMIUM_BROWSER)
        self.artifacts = Path(artifacts)

    def wait_result(self, timeout=60.0):
        """The result, after the detached browser process has exited (it writes the result only
        once chromedriver and Chromium are stopped, so this also waits for them to be gone)."""
        result = super().wait_result(timeout)
        deadline = time.monotonic() + 10
        while pid_alive(result["pid"]) and time.monotonic() < deadline:
            time.sleep(0.05)
        return result


def leftover_processes(result):
    """PIDs of the result's browser process, chromedriver and Chromium that are still running."""
    return [pid for pid in [result["pid"], *result.get("browser_pids", [])] if pid_alive(pid)]
