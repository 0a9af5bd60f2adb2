"""Locks are the session's, not the profile name's: two configurations (each its own
XDG_CONFIG_HOME and HOME, each its own provider) that use the same profile name sign in at the
same time without waiting for each other, and a failed sign-in of one is never reported by the
other, while a second caller of the same session still waits (test_one_signin.py).

The lock directory is the user's, shared by both configurations and every other test (found
by uid, docs/security.md "Where kcauth keeps its files"): real processes, real locks, two real
test providers."""

import json
import os
import subprocess
import time
import uuid

import pytest
import requests

from kcauth import BINARY, Kcauth, remove_shared_files
from provider import SCRIPTED_BROWSER

INTERACTIVE = json.dumps({"kind": "ExecCredential", "apiVersion": "client.authentication.k8s.io/v1",
                          "spec": {"interactive": True}})
WAITING = "waiting for the sign-in already in progress"


class Configuration:
    """One project's kcauth: its own HOME and XDG_CONFIG_HOME, one profile NAME for `provider`,
    sessions in its own file store."""

    def __init__(self, root, keyring, provider, name):
        root.mkdir()
        self.kcauth = Kcauth(root, keyring.env, {"SCRIPTED_RESULT": str(root / "scripted-result.json")})
        self.kcauth.config_file.parent.mkdir(parents=True)
        self.kcauth.config_file.write_text(f"[{name}]\nissuer = {provider.issuer}\nclient_id = kcauth\nstorage = file\n")
        os.chmod(self.kcauth.config_file, 0o600)
        self.root, self.provider, self.name = root, provider, name
        self.launches = root / "launches"
        self.started = []

    def browser(self, then=str(SCRIPTED_BROWSER)):
        """A $BROWSER that notes each launch, then hands over to `then` (`true`: nobody signs in)."""
        script = self.root / f"browser-{uuid.uuid4().hex[:6]}"
        script.write_text(f"#!/bin/sh\necho \"$$\" >> '{self.launches}'\nexec {then} \"$@\"\n")
        script.chmod(0o755)
        return str(script)

    def launched(self):
        return len(self.launches.read_text().split()) if self.launches.exists() else 0

    def start(self, *args, env=None, terminal=False):
        """kcauth with ARGS in this configuration; stdin a terminal when `terminal` (kubectl's
        interactive exec plugin needs a person)."""
        primary = secondary = None
        if terminal:
            primary, secondary = os.openpty()
        p = subprocess.Popen([str(BINARY), *args], env={**self.kcauth.env, **(env or {})},
                             stdin=secondary if terminal else subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if terminal:
            os.close(secondary)
        p.primary = primary
        self.started.append(p)
        return p

    def stop(self):
        """Teardown: whatever a failed test left running, stopped by PID."""
        for p in self.started:
            if p.poll() is None:
                p.kill()
                p.wait(timeout=10)
            if p.primary is not None:
                os.close(p.primary)
                p.primary = None

    def stored_issuer(self):
        return json.loads((self.kcauth.state_dir / f"{self.name}.json").read_text())["issuer"]

    def accepts(self, token):
        r = requests.get(self.provider.userinfo_endpoint, headers={"Authorization": f"Bearer {token}"}, timeout=10)
        return r.status_code == 200


def finish(p, timeout=90):
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate(timeout=10)
        raise AssertionError(f"kcauth did not end within {timeout} s: {err}")
    finally:
        if p.primary is not None:
            os.close(p.primary)
            p.primary = None
    return p.returncode, out, err


def wait_until(condition, what, timeout=30):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.fixture
def two(tmp_path, keyring, start_provider):
    """Two configurations with one profile name (this run's own, since other suites share the
    lock directory) for two providers."""
    name = "same-" + uuid.uuid4().hex[:8]
    configurations = (Configuration(tmp_path / "a", keyring, start_provider(), name),
                      Configuration(tmp_path / "b", keyring, start_provider(), name))
    yield configurations
    for c in configurations:
        c.stop()
    remove_shared_files(name)


def test_two_configurations_sign_in_at_once_with_one_profile_name(two):
    a, b = two
    # Each person takes 8 s to sign in: a sign-in that waited for the other's would start its
    # browser only after the other process had ended.
    a_login = a.start("login", "--profile", a.name, env={"BROWSER": a.browser(), "SCRIPTED_DELAY": "8"})
    b_login = b.start("login", "--profile", b.name, env={"BROWSER": b.browser(), "SCRIPTED_DELAY": "8"})
    wait_until(lambda: a.launched() == 1 and b.launched() == 1 or a_login.poll() is not None or b_login.poll() is not None,
               "both sign-ins start their browsers")
    assert a_login.poll() is None and b_login.poll() is None, "both browsers started while both sign-ins were in progress"
    results = [finish(a_login), finish(b_login)]
    for code, _, err in results:
        assert code == 0, err
        assert WAITING not in err, err
    assert (a.launched(), b.launched()) == (1, 1)
    for c in (a, b):
        r = c.kcauth("token", "--profile", c.name)
        assert r.returncode == 0 and c.accepts(r.stdout.strip()), r
    assert (a.stored_issuer(), b.stored_issuer()) == (a.provider.issuer, b.provider.issuer), "two sessions, one per provider"


def test_a_failed_sign_in_of_another_configuration_is_not_ours(two):
    a, b = two
    # A's sign-in never completes (nobody in the browser) and times out after 8 s (exit 3).
    holder = a.start("login", "--profile", a.name, "--timeout", "8", env={"BROWSER": a.browser(then="true")})
    wait_until(lambda: a.launched() == 1 or holder.poll() is not None, "A's sign-in starts its browser")
    assert holder.poll() is None, finish(holder)
    # kubectl in each configuration needs a token for the profile now.
    kubectl = {"KUBERNETES_EXEC_INFO": INTERACTIVE}
    same = a.start("token", "-o", "exec-credential", "--profile", a.name, terminal=True,
                   env={**kubectl, "BROWSER": a.browser(then="true")})
    other = b.start("token", "-o", "exec-credential", "--profile", b.name, terminal=True,
                    env={**kubectl, "BROWSER": b.browser()})

    code, out, err = finish(other)
    assert code == 0, err
    assert b.accepts(json.loads(out)["status"]["token"])
    assert WAITING not in err and f"process {holder.pid}" not in err, err
    assert b.launched() == 1

    held = finish(holder, timeout=30)
    assert held[0] == 3, held
    # The caller of the same session waited, and ends as that sign-in ended (test_one_signin.py).
    code, out, err = finish(same, timeout=30)
    assert code == 3 and out == "", (code, err)
    assert WAITING in err and f"in process {holder.pid} failed" in err, err
    assert a.launched() == 1, "the waiter started no browser of its own"
