"""One sign-in for every caller, and no browser without a person: real processes, real locks, the
test provider.

Eight kubectl-style callers (`KUBERNETES_EXEC_INFO` interactive, a terminal on stdin) that find
no session start one browser between them and all get a token the provider accepts; a holder
killed mid-sign-in is reported by its waiter and the next caller signs in; a caller that cannot
interact never starts a browser and ends at once with exit 4."""

import json
import os
import signal
import subprocess
import time
import uuid

import pytest
import requests

from kcauth import BINARY
from provider import SCRIPTED_BROWSER

INTERACTIVE = json.dumps({"kind": "ExecCredential", "apiVersion": "client.authentication.k8s.io/v1",
                          "spec": {"interactive": True}})
BATCH = json.dumps({"kind": "ExecCredential", "apiVersion": "client.authentication.k8s.io/v1",
                    "spec": {"interactive": False}})


@pytest.fixture
def profile(kcauth, provider):
    """A profile of its own (the lock directory is the user's, shared with other tests), with
    settings and no session, in the file store."""
    name = "one-" + uuid.uuid4().hex[:10]
    kcauth.config_file.parent.mkdir(parents=True, exist_ok=True)
    kcauth.config_file.write_text(f"[{name}]\nissuer = {provider.issuer}\nclient_id = kcauth\nstorage = file\n")
    os.chmod(kcauth.config_file, 0o600)
    return name


def counting_browser(tmp_path, launches, then=str(SCRIPTED_BROWSER)):
    """A $BROWSER that notes each launch in `launches`, then hands over to `then`."""
    script = tmp_path / "counting-browser"
    script.write_text(f"#!/bin/sh\necho \"$$\" >> '{launches}'\nexec {then} \"$@\"\n")
    script.chmod(0o755)
    return str(script)


def start(kcauth, profile, env, terminal=True):
    """`kcauth token -o exec-credential` as kubectl starts it; stdin a terminal when `terminal`."""
    primary = secondary = None
    if terminal:
        primary, secondary = os.openpty()
    p = subprocess.Popen([str(BINARY), "token", "-o", "exec-credential", "--profile", profile],
                         env={**kcauth.env, **env}, stdin=secondary if terminal else subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if terminal:
        os.close(secondary)
    p.primary = primary
    return p


def finish(p, timeout=90):
    try:
        out, err = p.communicate(timeout=timeout)
    finally:
        if p.primary is not None:
            os.close(p.primary)
    return p.returncode, out, err


def accepted(provider, token):
    r = requests.get(provider.userinfo_endpoint, headers={"Authorization": f"Bearer {token}"}, timeout=10)
    return r.status_code == 200


def launches_in(path):
    return len(path.read_text().split()) if path.exists() else 0


def test_eight_interactive_callers_start_one_browser(tmp_path, kcauth, provider, profile):
    launches = tmp_path / "launches"
    env = {"KUBERNETES_EXEC_INFO": INTERACTIVE, "BROWSER": counting_browser(tmp_path, launches), "SCRIPTED_DELAY": "3"}
    callers = [start(kcauth, profile, env) for _ in range(8)]
    results = [finish(p) for p in callers]
    assert launches_in(launches) == 1, results
    tokens = set()
    for code, out, err in results:
        assert code == 0, (code, err)
        tokens.add(json.loads(out)["status"]["token"])
    assert all(accepted(provider, token) for token in tokens)
    waiting = [err for _, _, err in results if "waiting for the sign-in already in progress" in err]
    assert len(waiting) >= 1, ("the callers that came second said whom they wait for", results)
    for err in waiting:
        assert err.count("waiting for the sign-in") == 1 and "process " in err and " s ago" in err, err
        assert "signing in" not in err


def test_a_waiter_reports_a_holder_killed_mid_sign_in_and_the_next_caller_signs_in(tmp_path, kcauth, provider, profile):
    launches = tmp_path / "launches"
    # A browser that opens and never signs in: the holder waits for the person.
    env = {"KUBERNETES_EXEC_INFO": INTERACTIVE, "BROWSER": counting_browser(tmp_path, launches, then="true")}
    holder = start(kcauth, profile, env)
    deadline = time.monotonic() + 30
    while launches_in(launches) == 0:
        assert time.monotonic() < deadline and holder.poll() is None, finish(holder)
        time.sleep(0.05)
    waiter = start(kcauth, profile, env)
    time.sleep(1.0)
    holder.send_signal(signal.SIGKILL)
    finish(holder)
    code, out, err = finish(waiter, timeout=30)
    assert code != 0 and out == "", (code, err)
    assert f"process {holder.pid}" in err and "ended without finishing" in err, err
    assert launches_in(launches) == 1, "the waiter never starts a browser of its own"

    env = {"KUBERNETES_EXEC_INFO": INTERACTIVE, "BROWSER": counting_browser(tmp_path, launches)}
    code, out, err = finish(start(kcauth, profile, env))
    assert code == 0, err
    assert accepted(provider, json.loads(out)["status"]["token"])
    assert launches_in(launches) == 2


def test_two_logins_by_hand_one_waits_and_force_takes_over(tmp_path, kcauth, provider, profile):
    launches = tmp_path / "launches"
    stuck = {"BROWSER": counting_browser(tmp_path, launches, then="true")}
    first = subprocess.Popen([str(BINARY), "login", "--profile", profile], env={**kcauth.env, **stuck},
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first.primary = None
    deadline = time.monotonic() + 30
    while launches_in(launches) == 0:
        assert time.monotonic() < deadline and first.poll() is None, finish(first)
        time.sleep(0.05)
    # The second waits, says so, and when interrupted leaves the first sign-in alone.
    said = tmp_path / "second.err"
    with open(said, "w") as err:
        second = subprocess.Popen([str(BINARY), "login", "--profile", profile],
                                  env={**kcauth.env, "BROWSER": counting_browser(tmp_path, launches)},
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
    deadline = time.monotonic() + 30
    while "waiting for the sign-in already in progress" not in said.read_text():
        assert time.monotonic() < deadline and second.poll() is None, said.read_text()
        time.sleep(0.05)
    assert f"(process {first.pid}, started " in said.read_text()
    second.send_signal(signal.SIGINT)
    second.wait(timeout=10)
    time.sleep(0.3)
    assert first.poll() is None, "an interrupted waiter leaves the sign-in in progress alone"
    assert launches_in(launches) == 1
    third = kcauth("login", "--profile", profile, "--force", env={"BROWSER": counting_browser(tmp_path, launches)}, timeout=60)
    assert third.returncode == 0, third
    assert f"asked the sign-in in progress for profile '{profile}' (process {first.pid}) to stop" in third.stderr
    code, _, _ = finish(first, timeout=10)
    assert code != 0
    assert kcauth("token", "--profile", profile).returncode == 0
    again = kcauth("login", "--profile", profile)
    assert again.returncode == 0 and again.stderr.count("Already logged in") == 1, again


@pytest.mark.parametrize("how", ["kubectl-batch", "no-terminal"])
def test_a_caller_that_cannot_interact_starts_no_browser(tmp_path, kcauth, provider, profile, how):
    launches = tmp_path / "launches"
    env = {"BROWSER": counting_browser(tmp_path, launches)}
    if how == "kubectl-batch":
        env["KUBERNETES_EXEC_INFO"] = BATCH
        p = start(kcauth, profile, env, terminal=True)
    else:
        env["KUBERNETES_EXEC_INFO"] = INTERACTIVE  # kubectl says so, but no person can answer
        p = start(kcauth, profile, env, terminal=False)
    began = time.monotonic()
    code, out, err = finish(p, timeout=30)
    assert time.monotonic() - began < 1.0
    assert code == 4 and out == "", err
    assert f"kcauth login --profile {profile}" in err, err
    assert launches_in(launches) == 0


class Notifications:
    """A private session bus with fake_notifications.py on it; `.shown()` lists the notifications."""

    def __init__(self):
        from keyring import _BARE_BUS_CONFIG, _short_tempdir

        self.dir = _short_tempdir("kc-notify-")
        self.log = self.dir / "shown"
        self.log.touch()
        config = self.dir / "bus.conf"
        config.write_text(_BARE_BUS_CONFIG.format(dir=self.dir))
        service = os.path.join(os.path.dirname(__file__), "fake_notifications.py")
        self.proc = subprocess.Popen(["dbus-run-session", f"--config-file={config}", "--", "/usr/bin/python3", service, str(self.log)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     env={"PATH": os.environ["PATH"], "HOME": str(self.dir)}, start_new_session=True)
        line = self.proc.stdout.readline().decode().strip()
        assert line.startswith("READY "), line
        self.address = line[len("READY "):]

    def shown(self):
        return [line.split("\t") for line in self.log.read_text().splitlines()]

    def stop(self):
        import shutil
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=5)
        self.proc.stdout.close()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def notifications():
    if subprocess.run(["/usr/bin/python3", "-c", "import gi"], capture_output=True).returncode != 0:
        pytest.skip("the fake notification service needs python3-gi")
    bus = Notifications()
    yield bus
    bus.stop()


def test_callers_that_cannot_sign_in_show_one_notification(tmp_path, kcauth, provider, profile, notifications):
    launches = tmp_path / "launches"
    env = {"BROWSER": counting_browser(tmp_path, launches), "DBUS_SESSION_BUS_ADDRESS": notifications.address,
           "KUBERNETES_EXEC_INFO": BATCH}
    callers = [start(kcauth, profile, env, terminal=False) for _ in range(4)]
    results = [finish(p, timeout=30) for p in callers]
    assert all(code == 4 for code, _, _ in results), results
    time.sleep(0.5)
    shown = notifications.shown()
    assert len(shown) == 1, shown
    assert shown[0][0] == "kcauth" and shown[0][1] == f"kcauth: sign in again for profile {profile}"
    assert f"kcauth login --profile {profile}" in shown[0][2]
    assert launches_in(launches) == 0

    # Within ten minutes: no second notification, from any process.
    code, _, _ = finish(start(kcauth, profile, env, terminal=False), timeout=30)
    assert code == 4 and len(notifications.shown()) == 1


def test_the_notification_can_be_turned_off(tmp_path, kcauth, provider, profile, notifications):
    text = kcauth.config_file.read_text()
    kcauth.config_file.write_text("sign_in_notification = off\n" + text)
    env = {"DBUS_SESSION_BUS_ADDRESS": notifications.address, "KUBERNETES_EXEC_INFO": BATCH}
    code, _, err = finish(start(kcauth, profile, env, terminal=False), timeout=30)
    assert code == 4, err
    time.sleep(0.5)
    assert notifications.shown() == []


def test_the_git_helper_never_signs_in_and_reminds_once(tmp_path, kcauth, provider, profile, notifications):
    kcauth.config_file.write_text(kcauth.config_file.read_text() + "hosts = git.example.com\n")
    launches = tmp_path / "launches"
    env = {"BROWSER": counting_browser(tmp_path, launches), "DBUS_SESSION_BUS_ADDRESS": notifications.address,
           "KCAUTH_PROFILE": profile}
    for _ in range(2):
        began = time.monotonic()
        r = subprocess.run([str(BINARY), "git-credential", "get"], input="protocol=https\nhost=git.example.com\n\n",
                           env={**kcauth.env, **env}, capture_output=True, text=True, timeout=30)
        assert time.monotonic() - began < 1.0
        assert r.returncode == 4 and r.stdout == "" and f"kcauth login --profile {profile}" in r.stderr, r
    time.sleep(0.5)
    assert [n[1] for n in notifications.shown()] == [f"kcauth: sign in again for profile {profile}"]
    assert launches_in(launches) == 0


def test_waiters_end_as_the_sign_in_they_waited_for_ended(tmp_path, kcauth, provider, profile):
    launches = tmp_path / "launches"
    stuck = counting_browser(tmp_path, launches, then="true")
    holder = subprocess.Popen([str(BINARY), "login", "--profile", profile, "--timeout", "3"], env={**kcauth.env, "BROWSER": stuck},
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    holder.primary = None
    deadline = time.monotonic() + 30
    while launches_in(launches) == 0:
        assert time.monotonic() < deadline and holder.poll() is None, finish(holder)
        time.sleep(0.05)
    waiter = start(kcauth, profile, {"KUBERNETES_EXEC_INFO": INTERACTIVE, "BROWSER": stuck})
    held = finish(holder, timeout=30)
    code, out, err = finish(waiter, timeout=30)
    assert held[0] == 3, held
    assert code == held[0] and out == "", (code, err)
    assert "waiting for the sign-in already in progress" in err and f"in process {holder.pid} failed" in err, err
    assert launches_in(launches) == 1
