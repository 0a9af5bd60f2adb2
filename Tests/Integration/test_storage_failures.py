"""When the Secret Service cannot be used, kcauth says why, exits 5 quickly, and stores nothing
anywhere else (there is no silent plaintext fallback)."""

import os
import subprocess

import pytest

from keyring import KeyringSession, build_keyring_fixture, no_bus_env, missing_socket_env
from kcauth import BINARY, FULL_BINARY, Kcauth


def assert_no_files_written(kc):
    written = [p for p in kc.home.rglob("*") if p.is_file()]
    assert written == [], f"nothing may be written as a fallback: {written}"


@pytest.mark.parametrize("make_env", [no_bus_env, missing_socket_env], ids=["no-bus", "missing-socket"])
def test_login_without_a_session_bus_exits_5_fast(provider, tmp_path, make_env):
    kc = Kcauth(tmp_path, make_env(tmp_path))
    before = len(provider.request_log())  # the fixture's own readiness probe
    r = kc("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--no-browser")
    assert r.returncode == 5, r
    assert r.seconds < 2
    assert "D-Bus" in r.stderr and r.stderr.count("\n") == 1
    assert len(provider.request_log()) == before, "fails before any network call"
    assert_no_files_written(kc)


def test_login_on_a_bus_without_secret_service_exits_5_fast(provider, tmp_path):
    with KeyringSession.bare_bus(tmp_path) as bare:
        kc = Kcauth(tmp_path, bare.env)
        r = kc("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--no-browser")
    assert r.returncode == 5 and r.seconds < 2, r
    assert "Secret Service" in r.stderr


@pytest.mark.parametrize("program", [BINARY, FULL_BINARY], ids=["front", "full"])
def test_without_a_secret_service_the_error_is_one_short_line_with_both_ways_out(provider, tmp_path, program):
    """The line fits a terminal's scrollback at a glance (at most 240 characters) and still says
    both ways out: a keyring daemon, or a store that needs none (encrypted or file)."""
    with KeyringSession.bare_bus(tmp_path) as bare:
        kc = Kcauth(tmp_path, bare.env)
        kc.config_file.parent.mkdir(parents=True)
        # A profile name of its own: the sign-in lock is per user, shared with whatever else runs.
        profile = f"no-secret-service-{os.getpid()}"
        kc.config_file.write_text(f"[{profile}]\nissuer = {provider.issuer}\nclient_id = kcauth\n")
        for argv in (["token"], ["whoami"], ["login", "--no-browser"]):
            r = subprocess.run(["kcauth", *argv, "--profile", profile], executable=str(program), env=kc.env, capture_output=True,
                               text=True, timeout=30, stdin=subprocess.DEVNULL)
            assert r.returncode == 5 and r.stdout == "", (argv, r)
            lines = r.stderr.splitlines()
            assert len(lines) == 1 and len(lines[0]) <= 240, (argv, len(lines[0]), lines)
            line = lines[0]
            assert line.startswith("error: no Secret Service on the D-Bus session bus; "), line
            assert "start a keyring daemon" in line and "gnome-keyring-daemon" in line, line
            assert "`kcauth login --storage encrypted`" in line and "`--storage file`" in line, line


@pytest.fixture(scope="module")
def locked_fixture(tmp_path_factory):
    return build_keyring_fixture(tmp_path_factory.mktemp("keyring-fixture"))


@pytest.mark.parametrize("wrong_password", [False, True], ids=["never-unlocked", "wrong-password"])
def test_a_locked_keyring_is_reported_as_locked_not_as_logged_out(tmp_path, locked_fixture, wrong_password):
    with KeyringSession.locked(tmp_path, locked_fixture, wrong_password=wrong_password) as locked:
        kc = Kcauth(tmp_path, locked.env)
        r = kc("token")
    assert r.returncode == 5, r
    assert "locked" in r.stderr and r.seconds < 2


def test_a_keyring_without_a_default_collection_exits_5(tmp_path):
    with KeyringSession.without_default_collection(tmp_path) as empty:
        r = Kcauth(tmp_path, empty.env)("token")
    assert r.returncode == 5, r
