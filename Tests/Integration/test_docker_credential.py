"""The docker credential helper: at the protocol level with what the docker CLI writes, and
with the real docker CLI, whose `docker pull` runs the helper and hands the credentials to an
engine: here a stub Engine API on a unix socket that records them (no daemon needed)."""

import json
import shutil
import subprocess

import pytest

from helpers import helper_bin, login, set_setting
from kcauth import BINARY
from stubservers import DockerEngineStub


def helper(kcauth, action, stdin=""):
    return subprocess.run([str(BINARY), "docker-credential", action], env=kcauth.env, capture_output=True, text=True,
                          input=stdin, timeout=30)


def test_get_list_store_erase_as_docker_calls_them(provider, keyring, kcauth):
    login(kcauth, provider)
    login(kcauth, provider, "--profile", "ci")
    set_setting(kcauth, "hosts", "registry.example.test ghcr.example.test:5000")
    set_setting(kcauth, "hosts", "other.example.test", profile="ci")
    set_setting(kcauth, "username", "robot", profile="ci")
    token = kcauth("token").stdout.strip()

    for sent in ("registry.example.test", "https://registry.example.test/v1/", "registry.example.test\n"):
        r = helper(kcauth, "get", sent)
        assert r.returncode == 0, r
        assert json.loads(r.stdout) == {"ServerURL": sent.strip(), "Username": "oauth2", "Secret": token}
    assert json.loads(helper(kcauth, "get", "ghcr.example.test:5000").stdout)["Secret"] == token
    assert json.loads(helper(kcauth, "get", "other.example.test").stdout)["Username"] == "robot"

    for unknown in ("unknown.example.test", "ghcr.example.test:5001", "user@registry.example.test", ""):
        r = helper(kcauth, "get", unknown)
        # The exact text the docker CLI takes as "no credentials here".
        assert r.returncode == 1 and r.stdout == "credentials not found in native keychain\n", (unknown, r)

    listed = json.loads(helper(kcauth, "list").stdout)
    assert listed == {"registry.example.test": "oauth2", "ghcr.example.test:5000": "oauth2", "other.example.test": "robot"}

    stored = helper(kcauth, "store", json.dumps({"ServerURL": "registry.example.test", "Username": "x", "Secret": "y"}))
    assert stored.returncode == 0 and stored.stdout == ""
    assert json.loads(helper(kcauth, "get", "registry.example.test").stdout)["Secret"] == token, "store kept nothing"
    erased = helper(kcauth, "erase", "registry.example.test")
    assert erased.returncode == 0 and erased.stdout == ""
    assert kcauth("token").stdout.strip() == token, "the session stays: only `kcauth logout` ends it"

    unknown_action = helper(kcauth, "frobnicate")
    assert unknown_action.returncode == 2 and unknown_action.stdout == ""


def test_not_logged_in_is_exit_4_and_nothing_on_stdout(keyring, kcauth):
    set_setting(kcauth, "hosts", "registry.example.test")
    r = helper(kcauth, "get", "registry.example.test")
    assert r.returncode == 4 and r.stdout == "" and "kcauth login" in r.stderr


def test_docker_pull_sends_the_token_from_docker_credential_kcauth(tmp_path, provider, keyring, kcauth):
    if shutil.which("docker") is None:
        pytest.skip("no docker CLI on this machine")
    login(kcauth, provider)
    set_setting(kcauth, "hosts", "registry.example.test")
    token = kcauth("token").stdout.strip()
    _, path = helper_bin(tmp_path)
    docker_config = tmp_path / "docker"
    docker_config.mkdir()
    (docker_config / "config.json").write_text(json.dumps({"credHelpers": {"registry.example.test": "kcauth"}}))
    env = {**kcauth.env, "PATH": path, "DOCKER_CONFIG": str(docker_config), "DOCKER_HOST": f"unix://{tmp_path}/engine.sock"}

    with DockerEngineStub(tmp_path / "engine.sock") as engine:
        r = subprocess.run(["docker", "pull", "registry.example.test/team/app:1"], env=env, capture_output=True, text=True, timeout=60)
        other = subprocess.run(["docker", "pull", "elsewhere.example.test/app:1"], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r
    pulls = [auth for method, p, auth in engine.requests if "/images/create" in p]
    assert pulls[0] == {"username": "oauth2", "password": token, "serveraddress": "registry.example.test"}
    assert other.returncode == 0, other
    assert not pulls[1] or not pulls[1].get("password"), "no helper for that registry: no credentials"


def test_plain_http_only_to_a_numeric_loopback_registry(provider, keyring, kcauth):
    login(kcauth, provider)
    set_setting(kcauth, "hosts", "registry.example.test 127.evil.example.test 127.0.0.1:5000 [::1]:5000")
    token = kcauth("token").stdout.strip()
    for refused in ("http://registry.example.test", "http://registry.example.test/v2/", "HTTP://registry.example.test",
                    "http://127.evil.example.test", "ftp://registry.example.test"):
        r = helper(kcauth, "get", refused)
        assert r.returncode == 1 and r.stdout == "credentials not found in native keychain\n", (refused, r)
        assert token not in r.stderr and r.stderr.count("\n") == 1, r
    for allowed in ("http://127.0.0.1:5000", "http://[::1]:5000/v2/", "https://registry.example.test", "registry.example.test"):
        r = helper(kcauth, "get", allowed)
        assert r.returncode == 0 and json.loads(r.stdout)["Secret"] == token, (allowed, r)


def test_a_picked_profile_answers_only_for_the_registries_it_lists(provider, keyring, kcauth):
    login(kcauth, provider)
    login(kcauth, provider, "--profile", "ci")
    set_setting(kcauth, "hosts", "registry.example.test other.example.test")
    set_setting(kcauth, "hosts", "registry.example.test", profile="ci")
    set_setting(kcauth, "username", "robot", profile="ci")

    for how in (["--profile", "ci"], []):
        env = {**kcauth.env, **({} if how else {"KCAUTH_PROFILE": "ci"})}
        run = lambda action, stdin="": subprocess.run([str(BINARY), "docker-credential", action, *how], env=env,
                                                      capture_output=True, text=True, input=stdin, timeout=30)
        assert json.loads(run("get", "registry.example.test").stdout)["Username"] == "robot", how
        foreign = run("get", "other.example.test")
        assert foreign.returncode == 1 and foreign.stdout == "credentials not found in native keychain\n", (how, foreign)
        assert "profile 'ci' does not list 'other.example.test'" in foreign.stderr
        assert json.loads(run("list").stdout) == {"registry.example.test": "robot"}, how
    assert json.loads(helper(kcauth, "get", "other.example.test").stdout)["Username"] == "oauth2", "the hosts mapping without either"
