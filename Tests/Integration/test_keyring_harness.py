"""Self-test of keyring.py, with secret-tool only (no kcauth): the harness must give the states the
kcauth tests rely on, and must leave nothing running."""

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from keyring import (
    FIXTURE_PASSWORD,
    FIXTURE_PROFILE,
    FIXTURE_SECRET,
    KeyringSession,
    WedgedBus,
    Xvfb,
    build_keyring_fixture,
    missing_socket_env,
    no_bus_env,
    pid_alive,
    processes_with_env,
)

WITH_KEYRING = Path(__file__).resolve().parents[2] / "scripts" / "with-keyring"


@pytest.fixture(scope="module")
def keyring_fixture(tmp_path_factory):
    return build_keyring_fixture(tmp_path_factory.mktemp("keyring-fixture"))


def store(session, profile, secret):
    return session.secret_tool("store", f"--label=test {profile}", "profile", profile, input=secret)


def assert_all_gone(pids):
    end = time.monotonic() + 3
    while any(pid_alive(p) for p in pids) and time.monotonic() < end:
        time.sleep(0.05)
    assert [p for p in pids if pid_alive(p)] == []


def test_unlocked_session_stores_and_looks_up(tmp_path):
    with KeyringSession(tmp_path) as keyring:
        assert "DISPLAY" not in keyring.env and "WAYLAND_DISPLAY" not in keyring.env
        assert keyring.env["DBUS_SESSION_BUS_ADDRESS"] == keyring.address
        assert store(keyring, "dev", "s3cret").returncode == 0
        found = keyring.secret_tool("lookup", "profile", "dev")
        assert (found.returncode, found.stdout) == (0, "s3cret")
        listed = keyring.secret_tool("search", "--all", "profile", "dev")
        assert "attribute.profile = dev" in listed.stdout + listed.stderr


def test_teardown_leaves_no_processes(tmp_path):
    keyring = KeyringSession(tmp_path)
    store(keyring, "dev", "x")
    pids = [keyring.bus_pid, keyring.daemon_pid, keyring._proc.pid]
    assert all(p is not None and pid_alive(p) for p in pids), pids
    runtime, data = keyring.runtime_dir, keyring.data_home
    keyring.stop()
    assert_all_gone(pids)
    assert keyring.our_pids() == []
    assert not runtime.exists() and not data.exists()


def test_locked_session_lookup_fails(tmp_path, keyring_fixture):
    with KeyringSession.locked(tmp_path, keyring_fixture) as locked:
        found = locked.secret_tool("lookup", "profile", FIXTURE_PROFILE)
        assert found.returncode != 0 and found.stdout == ""
        stored = store(locked, "dev", "x")
        assert stored.returncode != 0
        pids = [locked.bus_pid, locked.secrets_owner_pid()]
    assert_all_gone([p for p in pids if p])

    with KeyringSession.locked(tmp_path, keyring_fixture, wrong_password=True) as wrong:
        assert wrong.secret_tool("lookup", "profile", FIXTURE_PROFILE).returncode != 0

    # Sanity: the fixture item is there when unlocked with the right password.
    with KeyringSession(tmp_path, data_home=keyring_fixture, password=FIXTURE_PASSWORD) as right:
        found = right.secret_tool("lookup", "profile", FIXTURE_PROFILE)
        assert (found.returncode, found.stdout) == (0, FIXTURE_SECRET)


def test_no_default_collection_store_fails(tmp_path):
    with KeyringSession.without_default_collection(tmp_path) as keyring:
        stored = store(keyring, "dev", "x")
        assert stored.returncode != 0
        assert "Object does not exist" in stored.stderr or "collection" in stored.stderr
        pid = keyring.secrets_owner_pid()
        assert pid is not None
    assert_all_gone([pid, keyring.bus_pid])


def test_bare_bus_has_no_secret_service(tmp_path):
    with KeyringSession.bare_bus(tmp_path) as bus:
        stored = store(bus, "dev", "x")
        assert stored.returncode != 0
        assert "org.freedesktop.secrets" in stored.stderr
        assert bus.secrets_owner_pid() is None


def test_no_bus_and_missing_socket(tmp_path):
    for env in (no_bus_env(tmp_path), missing_socket_env(tmp_path)):
        start = time.monotonic()
        result = subprocess.run(["secret-tool", "lookup", "profile", "dev"], env=env, capture_output=True, text=True, timeout=10)
        assert result.returncode != 0
        assert time.monotonic() - start < 2


def test_wedged_bus_hangs_until_killed(tmp_path):
    with WedgedBus(tmp_path) as bus:
        with pytest.raises(subprocess.TimeoutExpired):
            subprocess.run(["secret-tool", "lookup", "profile", "dev"], env=bus.env, capture_output=True, timeout=1)
        pid = bus.pid
    assert not pid_alive(pid)


def test_frozen_daemon_hangs_then_recovers(tmp_path):
    with KeyringSession(tmp_path) as keyring:
        assert store(keyring, "dev", "s3cret").returncode == 0
        with keyring.frozen() as pid:
            with pytest.raises(subprocess.TimeoutExpired):
                keyring.secret_tool("lookup", "profile", "dev", timeout=1)
        # After SIGCONT the daemon answers again.
        assert keyring.secret_tool("lookup", "profile", "dev").stdout == "s3cret"
        frozen_again = keyring.freeze()  # left stopped on purpose: stop() must still clean up
        assert frozen_again == pid
    assert_all_gone([pid, keyring.bus_pid])


@pytest.mark.skipif(not Xvfb.available(), reason="needs the xvfb package")
def test_locked_with_display_prompts_and_cleans_up(tmp_path, keyring_fixture):
    with Xvfb() as x:
        with KeyringSession.locked_with_display(tmp_path, keyring_fixture, x.display) as keyring:
            assert keyring.env["DISPLAY"] == x.display
            # The daemon shows an unlock prompt (gcr-prompter) that nobody answers: store hangs.
            try:
                result = keyring.secret_tool("store", "--label=x", "profile", "dev", input="x", timeout=3)
                pytest.fail(f"store did not wait for the prompt: {result} {keyring.log()}")
            except subprocess.TimeoutExpired:
                pass
            pids = keyring.our_pids()
        xvfb = x.pid
    assert_all_gone(pids + [xvfb])


def with_keyring(*cmd, **env):
    return subprocess.run([str(WITH_KEYRING), *cmd], env={**os.environ, **env}, capture_output=True, text=True, timeout=60)


def test_with_keyring_script(tmp_path):
    script = 'printf v | secret-tool store --label=l profile p && secret-tool lookup profile p; ' \
             'echo " $XDG_RUNTIME_DIR $DISPLAY"; exit 3'
    result = with_keyring("sh", "-c", script, DISPLAY=":55")
    assert result.returncode == 3, result.stderr
    secret, runtime, *display = result.stdout.split()
    assert secret == "v" and display == []
    assert not Path(runtime).exists()  # temp dir removed
    assert processes_with_env("XDG_RUNTIME_DIR", runtime) == []
    assert result.stderr == ""  # dbus-daemon's chatter is discarded, CMD's stderr is kept

    assert "oops" in with_keyring("sh", "-c", "echo oops >&2").stderr


def test_with_keyring_reuses_a_data_home_locked(tmp_path, keyring_fixture):
    copy = tmp_path / "copy"
    shutil.copytree(keyring_fixture, copy)
    lookup = ["secret-tool", "lookup", "profile", FIXTURE_PROFILE]
    assert with_keyring(*lookup, KEYRING_DATA_HOME=str(copy), KEYRING_NO_UNLOCK="1").returncode != 0
    assert with_keyring(*lookup, KEYRING_DATA_HOME=str(copy), KEYRING_PASSWORD="wrong").returncode != 0
    right = with_keyring(*lookup, KEYRING_DATA_HOME=str(copy), KEYRING_PASSWORD=FIXTURE_PASSWORD)
    assert (right.returncode, right.stdout) == (0, FIXTURE_SECRET)
    assert (copy / "keyrings" / "login.keyring").exists()  # the caller's data home is kept
