"""Storage choices (never plaintext unless named), end to end: the keyring by default, a plaintext
file only by explicit and sticky choice, a one-shot memory store for CI, and moving a profile
between the keyring and the file. Real binary, real provider, real gnome-keyring on a private
bus."""

import json
import os
import stat

import requests
from jwcrypto import jwk, jwt

from kcauth import Kcauth, stored_items
from keyring import KeyringSession, no_bus_env


def login_args(provider, *extra):
    return ("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", *extra)


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def verified_claims(provider, token):
    keys = jwk.JWKSet.from_json(requests.get(provider.jwks_uri, timeout=5).text)
    return json.loads(jwt.JWT(jwt=token, key=keys).claims)


def test_file_storage_is_private_atomic_announced_and_sticky(provider, keyring, kcauth):
    r = kcauth(*login_args(provider, "--storage", "file"))
    assert r.returncode == 0, r
    state_file = kcauth.state_dir / "default.json"
    warnings = [line for line in r.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == [f"warning: the session of profile 'default' is stored in plaintext in {state_file} "
                        "(storage: file); anyone who can read that file can use it"]
    assert mode(kcauth.state_dir) == 0o700 and mode(state_file) == 0o600
    assert stored_items(keyring) == [], "nothing in the keyring"
    assert "storage = file" in kcauth.config_file.read_text()

    first = json.loads(state_file.read_text())
    assert first["issuer"] == provider.issuer and first["refresh_token"]

    t = kcauth("token")  # no --storage: the profile remembers
    assert t.returncode == 0, t
    assert t.stdout == first["access_token"] + "\n"

    # A second login replaces the file whole, by rename, and leaves no temporary file behind.
    inode = os.stat(state_file).st_ino
    again = kcauth("login", "--force", "--timeout", "30")
    assert again.returncode == 0, again
    assert "plaintext" in again.stderr, "the warning comes with every login that writes the file"
    second = json.loads(state_file.read_text())
    assert second["access_token"] != first["access_token"]
    assert os.stat(state_file).st_ino != inode
    assert sorted(p.name for p in kcauth.state_dir.iterdir()) == ["default.json"]
    assert mode(state_file) == 0o600
    assert kcauth("token").stdout == second["access_token"] + "\n"


def test_the_environment_variable_chooses_the_file_too(provider, keyring, kcauth):
    r = kcauth(*login_args(provider), env={"KCAUTH_STORAGE": "file"})
    assert r.returncode == 0, r
    assert (kcauth.state_dir / "default.json").exists() and stored_items(keyring) == []
    assert kcauth("token").returncode == 0, "sticky without the variable"


def test_a_file_others_can_read_is_refused(provider, keyring, kcauth):
    assert kcauth(*login_args(provider, "--storage", "file")).returncode == 0
    state_file = kcauth.state_dir / "default.json"
    state_file.chmod(0o644)
    r = kcauth("token", env={"KCAUTH_TOKEN_CACHE": "off"})   # the store read (login left a warm runtime copy)
    assert r.returncode == 5, r
    assert f"refusing to use {state_file}: it is accessible to group or others (mode 0644)" in r.stderr
    assert f"chmod 600 {state_file}" in r.stderr and r.stdout == ""


def test_no_silent_fallback_without_a_keyring_but_the_file_works_when_chosen(provider, tmp_path, scripted_browser_env):
    kc = Kcauth(tmp_path, no_bus_env(tmp_path), dict(scripted_browser_env))
    r = kc(*login_args(provider, "--no-browser"))
    assert r.returncode == 5, r
    assert "no D-Bus session bus" in r.stderr
    assert "or use a store that needs none: `kcauth login --storage encrypted` or `--storage file`" in r.stderr
    assert not kc.state_dir.exists() and not kc.config_file.exists(), "nothing is written anywhere as a fallback"
    assert kc("token").returncode == 5, "and nothing is read from a file either"

    chosen = kc(*login_args(provider, "--storage", "file"))
    assert chosen.returncode == 0, chosen
    assert "removed its old copy" not in chosen.stderr and "could not remove" not in chosen.stderr
    assert kc("token").returncode == 0


def test_a_bus_without_secret_service_names_the_file_choice(provider, tmp_path):
    with KeyringSession.bare_bus(tmp_path) as bare:
        kc = Kcauth(tmp_path, bare.env)
        r = kc(*login_args(provider, "--no-browser"))
    assert r.returncode == 5, r
    assert "no Secret Service" in r.stderr and "`--storage file`" in r.stderr
    assert not kc.state_dir.exists()


def test_moving_a_profile_between_the_file_and_the_keyring(provider, keyring, kcauth):
    assert kcauth(*login_args(provider, "--storage", "file")).returncode == 0
    state_file = kcauth.state_dir / "default.json"
    assert state_file.exists() and stored_items(keyring) == []

    to_keyring = kcauth("login", "--storage", "keyring", "--timeout", "30")
    assert to_keyring.returncode == 0, to_keyring
    assert "Moved profile 'default' to the keyring store: removed its old copy from the file." in to_keyring.stderr
    assert not state_file.exists()
    assert stored_items(keyring) == [{"profile": "default", "issuer": provider.issuer, "client_id": "kcauth"}]
    assert "storage" not in kcauth.config_file.read_text(), "the keyring is the default again"
    t = kcauth("token")
    assert t.returncode == 0 and t.stdout.strip() == json.loads(keyring.secret_tool("lookup", "profile", "default").stdout)["access_token"]

    to_file = kcauth("login", "--storage", "file", "--timeout", "30")
    assert to_file.returncode == 0, to_file
    assert "Moved profile 'default' to the file store: removed its old copy from the keyring." in to_file.stderr
    assert stored_items(keyring) == []
    assert state_file.exists() and "storage = file" in kcauth.config_file.read_text()


def test_memory_prints_the_token_once_and_keeps_nothing(provider, tmp_path, scripted_browser_env):
    # A CI job: no keyring at all, and nothing may be left behind.
    kc = Kcauth(tmp_path, no_bus_env(tmp_path), dict(scripted_browser_env))
    r = kc(*login_args(provider, "--storage", "memory", "-o", "raw"))
    assert r.returncode == 0, r
    assert r.stdout.endswith("\n") and r.stdout.count("\n") == 1
    assert verified_claims(provider, r.stdout.strip())["iss"] == provider.issuer
    assert [p for p in kc.home.rglob("*") if p.is_file()] == [] and not kc.config_file.exists()
    t = kc("token")
    assert t.returncode == 4 and "was kept in memory only" in t.stderr, "nothing to read afterwards, and it says why"


def test_a_memory_only_profile_says_what_it_is(provider, tmp_path, scripted_browser_env):
    # No keyring here (a CI container): the profile's store would be the keyring, but the
    # session was never anywhere but in the login's memory, and that is what later commands say.
    kc = Kcauth(tmp_path, no_bus_env(tmp_path), dict(scripted_browser_env))
    assert kc(*login_args(provider, "--profile", "mem", "--storage", "memory", "-o", "raw")).returncode == 0
    for args in (("token", "--profile", "mem"), ("whoami", "--profile", "mem")):
        r = kc(*args)
        assert r.returncode == 4 and r.stdout == "", r
        assert r.stderr == ("error: the session of profile 'mem' was kept in memory only (its last login had --storage memory), "
                            "and is gone; run `kcauth login --profile mem`\n"), r.stderr
    gone = "the session of profile 'mem' was kept in memory only by its last login, and is gone"
    s = kc("status", "--profile", "mem")
    assert s.returncode == 4 and s.stderr == "", s
    # (startswith: status goes on to list the user's running `kcauth ssh` forwards, of any test)
    assert s.stdout.startswith(f"mem (selected)\n  X Login required for (no issuer set): {gone}\n"
                               "  - Storage: memory\n  - To fix: kcauth login --profile mem\n"), s.stdout
    j = json.loads(kc("status", "--profile", "mem", "-o", "json").stdout)["profiles"][0]
    assert (j["reason"], j["storage"]) == (gone, "memory"), j

    # A logout at the end of the job has nothing stored to end, keyring or not, and says so.
    out = kc("logout", "--profile", "mem")
    assert out.returncode == 0 and out.stderr == "Profile 'mem' was not signed in; nothing to delete.\n", out
    assert kc("token", "--profile", "mem").returncode == 5, "now an ordinary profile on a keyring that is not here"

    # Stored somewhere for real, the profile is an ordinary one again.
    assert kc(*login_args(provider, "--profile", "mem", "--storage", "memory", "-o", "raw")).returncode == 0
    assert kc(*login_args(provider, "--profile", "mem", "--storage", "file")).returncode == 0
    assert kc("token", "--profile", "mem").returncode == 0
    assert kc("logout", "--profile", "mem").returncode == 0
    after = kc("token", "--profile", "mem")
    assert after.returncode == 4 and "memory" not in after.stderr, after


def test_memory_json_and_the_note_without_output(provider, keyring, kcauth):
    r = kcauth(*login_args(provider, "--storage", "memory", "-o", "json"))
    assert r.returncode == 0, r
    doc = json.loads(r.stdout)
    assert list(doc) == ["version", "access_token", "token_type", "expires_at", "expires_in", "scope", "issuer", "profile"]
    assert doc["token_type"] == "Bearer" and doc["issuer"] == provider.issuer and doc["profile"] == "default"
    assert "openid" in doc["scope"].split() and doc["expires_at"].endswith("Z")
    assert verified_claims(provider, doc["access_token"])["azp"] == "kcauth"

    quiet = kcauth(*login_args(provider, "--storage", "memory"))
    assert quiet.returncode == 0 and quiet.stdout == "", quiet
    assert "Nothing was kept (--storage memory)" in quiet.stderr
    assert stored_items(keyring) == [] and not kcauth.state_dir.exists() and not kcauth.config_file.exists()
    t = kcauth("token")
    assert t.returncode == 4 and "was kept in memory only (its last login had --storage memory)" in t.stderr, t


def test_memory_leaves_a_stored_session_alone(provider, keyring, kcauth):
    assert kcauth(*login_args(provider)).returncode == 0
    before = stored_items(keyring)
    config = kcauth.config_file.read_text()
    assert kcauth(*login_args(provider, "--storage", "memory", "-o", "raw")).returncode == 0
    assert stored_items(keyring) == before and kcauth.config_file.read_text() == config
    assert kcauth("token").returncode == 0
    assert kcauth("token", env={"KCAUTH_TOKEN_CACHE": "off"}).returncode == 0, "the stored session is read as always"


def test_a_bad_storage_value_is_a_usage_error(kcauth):
    r = kcauth("login", "--storage", "disk")
    assert r.returncode == 2 and "use one of keyring, encrypted, file, memory" in r.stderr
    e = kcauth("token", env={"KCAUTH_STORAGE": "disk"})
    assert e.returncode == 2 and "$KCAUTH_STORAGE: 'disk' is not a storage kind" in e.stderr
