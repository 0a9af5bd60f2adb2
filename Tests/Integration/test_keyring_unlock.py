"""A locked keyring on a desktop: where a prompter exists, kcauth asks the Secret
Service to unlock the collection (its own password dialog), says so in one line on stderr, waits
with a deadline, then goes on. Headless, dismissed, or unanswered: exit 5 with the fix.

The headless path runs against a real, locked gnome-keyring. The prompt path runs against
fake_secret_service.py on a private bus (gnome-keyring's prompt needs an X display and a person),
with DISPLAY set so that kcauth believes a prompter exists.
"""

import pytest

from fakesecrets import FakeSecretSession, missing
from kcauth import Kcauth
from keyring import KeyringSession, build_keyring_fixture

PROMPT_LINE = "Unlock the keyring 'Login' in the dialog to continue (waiting up to 30 s)…"
NO_CACHE = {"KCAUTH_TOKEN_CACHE": "off"}  # `token` must reach the keyring, not the runtime copy


@pytest.fixture(scope="module")
def locked_fixture(tmp_path_factory):
    return build_keyring_fixture(tmp_path_factory.mktemp("keyring-fixture"))


@pytest.fixture(autouse=True)
def _needs_the_fake():
    if missing():
        pytest.fail(missing())


def login(kc, provider, *extra):
    return kc("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", *extra)


def desktop(tmp_path, fake, extra=None):
    """kcauth on the fake's bus, in a "graphical session": Kcauth drops DISPLAY, so set it back."""
    kc = Kcauth(tmp_path, fake.env, {**NO_CACHE, **(extra or {})})
    kc.env["DISPLAY"] = fake.env["DISPLAY"]
    return kc


def unlocks(fake):
    return fake.events().count("Unlock")


# -- headless: a real locked gnome-keyring, no DISPLAY -------------------------------------------


@pytest.mark.parametrize("command", [["token"], ["refresh"], ["whoami"], ["logout"],
                                     ["login", "--issuer", "http://127.0.0.1:9/realms/r", "--client-id", "c"]],
                         ids=lambda c: c[0])
def test_headless_a_locked_keyring_fails_at_once_with_the_fix(tmp_path, locked_fixture, command):
    with KeyringSession.locked(tmp_path, locked_fixture) as locked:
        r = Kcauth(tmp_path, locked.env, NO_CACHE)(*command)
        still_locked = locked.secret_tool("lookup", "profile", "fixture")
    assert r.returncode == 5, r
    assert r.seconds < 1.5, r
    assert r.stderr.count("\n") == 1, r
    assert "is locked and there is no display" in r.stderr
    assert "gnome-keyring-daemon --replace --unlock" in r.stderr
    assert "or use a store that needs none: `kcauth login --storage encrypted` or `--storage file`" in r.stderr, \
        "as with no Secret Service: the stores that need no keyring"
    assert "dialog to continue" not in r.stderr
    assert still_locked.returncode != 0, "nothing unlocked it"


def test_a_stale_display_ends_like_a_dismissed_dialog_and_the_daemon_survives(tmp_path, locked_fixture):
    # Real gnome-keyring: DISPLAY is set but nothing listens there, so its prompter cannot start.
    with KeyringSession.locked(tmp_path, locked_fixture) as locked:
        kc = Kcauth(tmp_path, locked.env, NO_CACHE)
        kc.env["DISPLAY"] = ":99"
        r = kc("token")
        daemon = locked.secrets_owner_pid()
        still_answers = locked.secret_tool("lookup", "profile", "fixture")
    assert r.returncode == 5 and r.seconds < 3, r
    prompt, error = r.stderr.splitlines()
    assert prompt == PROMPT_LINE
    assert "its unlock dialog was dismissed or could not be shown" in error
    assert "`kcauth login --storage encrypted`" in error
    assert daemon is not None, "gnome-keyring-daemon must not crash"
    assert still_answers.returncode == 1 and still_answers.stderr == "", "still there, still locked"


# -- a prompter exists: the fake Secret Service's Unlock goes through a prompt ----------------------


def test_login_and_token_wait_for_the_unlock_dialog_then_go_on(provider, tmp_path, scripted_browser_env):
    with FakeSecretSession(tmp_path, prompt="complete") as fake:
        kc = desktop(tmp_path, fake, scripted_browser_env)

        signed_in = login(kc, provider)
        assert signed_in.returncode == 0, signed_in
        assert signed_in.stderr.startswith(PROMPT_LINE + "\n"), signed_in
        # Unlocked before the browser opened, so the session could be stored afterwards.
        assert fake.events()[:4] == ["Unlock", "Prompt", "Completed dismissed=false", "CreateItem"], fake.events()

        fake.lock()  # as a screen locker would
        token = kc("token")
        assert token.returncode == 0, token
        assert token.stdout.count(".") == 2, "a JWT on stdout"
        assert token.stderr == PROMPT_LINE + "\n", token
        assert unlocks(fake) == 2
        assert "GetSecrets" in fake.events()

        again = kc("token")  # unlocked now: no second dialog
        assert again.returncode == 0 and again.stderr == "", again
        assert unlocks(fake) == 2


@pytest.mark.parametrize("command", ["refresh", "whoami", "logout"])
def test_refresh_whoami_and_logout_unlock_too(provider, tmp_path, scripted_browser_env, command):
    with FakeSecretSession(tmp_path, prompt="complete") as fake:
        kc = desktop(tmp_path, fake, scripted_browser_env)
        assert login(kc, provider).returncode == 0
        fake.lock()

        r = kc(command)
        assert r.returncode == 0, r
        assert r.stderr.startswith(PROMPT_LINE + "\n"), r
        assert unlocks(fake) == 2
        if command == "logout":
            assert "Delete" in fake.events()
            assert kc("token").returncode == 4


def test_a_dismissed_dialog_exits_5_at_once_with_the_fix(tmp_path):
    with FakeSecretSession(tmp_path, prompt="dismiss") as fake:
        r = desktop(tmp_path, fake)("token")
        events = fake.events()
    assert r.returncode == 5, r
    assert r.seconds < 2, r
    prompt, error = r.stderr.splitlines()
    assert prompt == PROMPT_LINE
    assert error.startswith('error: the keyring "Login" was not unlocked: its unlock dialog was dismissed or could '
                            'not be shown; unlock it:'), r
    assert events == ["Unlock", "Prompt", "Completed dismissed=true"]


def test_an_unanswered_dialog_exits_5_at_the_deadline_and_leaves_the_service_alone(tmp_path):
    with FakeSecretSession(tmp_path, prompt="never") as fake:
        r = desktop(tmp_path, fake)("token", timeout=60)
        events = fake.events()
        fake.lock()  # still answering: kcauth neither hung it nor crashed it
    assert r.returncode == 5, r
    assert 29 < r.seconds < 33, r
    prompt, error = r.stderr.splitlines()
    assert prompt == PROMPT_LINE
    assert error.startswith('error: the keyring "Login" was not unlocked within 30 s; unlock it:'), r
    # Never cancelled (gnome-keyring 42 aborts when a pending prompt is dismissed by the client).
    assert events == ["Unlock", "Prompt"]


def test_status_and_doctor_report_a_locked_keyring_without_a_dialog(tmp_path):
    with FakeSecretSession(tmp_path, prompt="complete") as fake:
        kc = desktop(tmp_path, fake)
        status = kc("status")
        doctor = kc("doctor")
        events = fake.events()
    assert events == [], "neither may ask for the password"
    assert status.returncode == 5, status
    assert "locked" in status.stdout + status.stderr and "dialog to continue" not in status.stderr
    assert "default collection" in doctor.stdout and "locked" in doctor.stdout, doctor
    assert "ask for its password in the keyring's own dialog" in doctor.stdout, doctor
