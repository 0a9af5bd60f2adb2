"""pytest fixtures for the integration tests.

The provider machinery lives in provider.py; this file only turns it into fixtures, so that
fixtures for the kcauth binary and the keyring can sit next to these.
"""

import pytest

from provider import ProviderFactory, ScriptedBrowserEnv


@pytest.fixture
def start_provider():
    """Factory: start_provider(**options) -> Provider; every provider is stopped at teardown."""
    factory = ProviderFactory()
    yield factory
    factory.stop_all()


@pytest.fixture
def provider(start_provider):
    """A provider with default (Keycloak-like) settings."""
    return start_provider()


@pytest.fixture
def scripted_browser_env(tmp_path):
    """BROWSER=scripted_browser and SCRIPTED_RESULT=<tmp>/scripted-result.json (a dict);
    .wait_result() returns the parsed result."""
    return ScriptedBrowserEnv(tmp_path / "scripted-result.json")


@pytest.fixture
def chromium_browser_env(tmp_path):
    """Like scripted_browser_env, but $BROWSER is a real headless Chromium (chromium.py):
    pass it per call, kcauth("login", ..., env=dict(chromium_browser_env)). Result at
    <tmp>/chromium-result.json, screenshots and the landing page's HTML in <tmp>/chromium/."""
    from chromium import ChromiumBrowserEnv, missing

    if missing():
        pytest.fail(missing())
    return ChromiumBrowserEnv(tmp_path / "chromium-result.json", tmp_path / "chromium")


@pytest.fixture
def keyring(tmp_path):
    """A private D-Bus session with an unlocked gnome-keyring; stopped (by PID) at teardown."""
    from keyring import KeyringSession

    with KeyringSession(tmp_path) as session:
        yield session


@pytest.fixture
def kcauth(tmp_path, keyring, scripted_browser_env):
    """Runs the built kcauth binary: kcauth("token", "--profile", "x") -> Result. Isolated HOME
    and XDG_CONFIG_HOME, the keyring above, and the scripted user as $BROWSER."""
    from kcauth import Kcauth

    return Kcauth(tmp_path, keyring.env, dict(scripted_browser_env))
