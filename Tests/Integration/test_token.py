"""`kcauth token` and `kcauth refresh` end to end: refresh when needed, exactly once under
concurrency, the session ended on invalid_grant, state untouched on failures, output formats."""

import json
import os
import signal
import stat
import subprocess
import time
from pathlib import Path

import pytest
import requests

from kcauth import BINARY


def login(kcauth, provider, *extra):
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", *extra)
    assert r.returncode == 0, r


def stored_state(keyring, profile="default"):
    r = keyring.secret_tool("lookup", "profile", profile)
    return r.stdout if r.returncode == 0 else None


def test_a_valid_token_makes_no_request(provider, keyring, kcauth):
    login(kcauth, provider)
    before = len(provider.request_log())
    for env in ({}, {"KCAUTH_TOKEN_CACHE": "off"}):
        r = kcauth("token", env=env)
        assert r.returncode == 0 and r.stderr == "", r
    assert len(provider.request_log()) == before


def test_an_expiring_token_is_refreshed_once_and_stored(start_provider, keyring, kcauth):
    provider = start_provider(access_token_lifetime=60)
    login(kcauth, provider)
    old = json.loads(stored_state(keyring))

    r = kcauth("token", "--min-valid", "120")
    assert r.returncode == 0, r
    assert len(provider.token_requests("refresh_token")) == 1
    new = json.loads(stored_state(keyring))
    assert r.stdout.strip() == new["access_token"] != old["access_token"]
    assert new["refresh_token"] != old["refresh_token"], "the rotated refresh token is kept"

    again = kcauth("token")
    assert again.returncode == 0 and again.stdout == r.stdout
    assert len(provider.token_requests("refresh_token")) == 1


@pytest.mark.parametrize("reuse_protection", [False, True], ids=["rotation", "reuse-protection"])
def test_32_concurrent_callers_share_one_refresh(start_provider, keyring, kcauth, reuse_protection):
    provider = start_provider(access_token_lifetime=30, reuse_protection=reuse_protection)
    login(kcauth, provider)
    time.sleep(5.5)  # 24.5 s left: below --min-valid 25, so every caller wants a refresh

    procs = [subprocess.Popen([str(BINARY), "token", "--min-valid", "25"], env=kcauth.env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(32)]
    results = [(p.wait(timeout=60), p.stdout.read(), p.stderr.read()) for p in procs]
    for p in procs:
        p.stdout.close()
        p.stderr.close()

    assert [code for code, _, _ in results] == [0] * 32, results
    assert len({out for _, out, _ in results}) == 1, "all print the same new token"
    assert len(provider.token_requests("refresh_token")) == 1
    assert kcauth("refresh").returncode == 0, "the stored refresh token still works afterwards"


def test_a_revoked_session_exits_4_removes_tokens_and_keeps_settings(provider, keyring, kcauth):
    login(kcauth, provider)
    state = json.loads(stored_state(keyring))
    revoked = requests.post(provider.revocation_endpoint, timeout=5, data={
        "token": state["refresh_token"], "token_type_hint": "refresh_token", "client_id": "kcauth"})
    assert revoked.status_code == 200

    r = kcauth("refresh")
    assert r.returncode == 4, r
    assert "has ended at the provider" in r.stderr and "run `kcauth login`" in r.stderr
    assert r.stderr.count("\n") == 1 and r.stdout == ""
    assert stored_state(keyring) is None
    assert f"issuer = {provider.issuer}" in kcauth.config_file.read_text()
    assert kcauth("token").returncode == 4


def test_provider_down_exits_1_and_leaves_the_state_byte_for_byte(provider, keyring, kcauth):
    login(kcauth, provider)
    before = stored_state(keyring)
    provider.stop()
    r = kcauth("token", "--min-valid", "86400")
    assert r.returncode == 1, r
    assert "cannot connect" in r.stderr and r.stdout == ""
    assert stored_state(keyring) == before


def test_killing_a_refresh_midway_never_half_writes_and_the_next_call_works(start_provider, keyring, kcauth):
    # Keycloak's default keeps a rotated refresh token usable ("Revoke Refresh Token" off): a
    # grace period gives the test provider the same semantics.
    provider = start_provider(refresh_delay=3, refresh_grace_period=120)
    login(kcauth, provider)
    before = stored_state(keyring)
    victim = subprocess.Popen([str(BINARY), "refresh"], env=kcauth.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)  # the refresh request is now waiting at the provider (it answers after 3 s)
    assert victim.poll() is None and provider.token_requests("refresh_token") == []
    victim.send_signal(signal.SIGKILL)
    victim.wait(timeout=10)
    assert stored_state(keyring) == before, "nothing was written by the killed process"

    r = kcauth("refresh", timeout=60)
    assert r.returncode == 0, r
    assert json.loads(stored_state(keyring))["access_token"] == r.stdout.strip()


def test_output_formats(provider, keyring, kcauth):
    login(kcauth, provider)
    token = kcauth("token").stdout.strip()

    assert kcauth("token", "-o", "header").stdout == f"Authorization: Bearer {token}\n"
    # A headers helper's contract (Claude Code's headersHelper, opencode, Codex): one JSON object.
    assert kcauth("token", "-o", "headers-json").stdout == '{"Authorization":"Bearer %s"}\n' % token
    assert json.loads(kcauth("token", "--output=headers-json", env={"KCAUTH_TOKEN_CACHE": "on"}).stdout) == {
        "Authorization": f"Bearer {token}"}

    doc = json.loads(kcauth("token", "--output=json").stdout)
    assert doc["access_token"] == token and doc["token_type"] == "Bearer"
    assert doc["issuer"] == provider.issuer and doc["profile"] == "default"
    assert doc["scope"].split()[0] == "openid" and 0 < doc["expires_in"] <= 300
    assert doc["expires_at"].endswith("Z") and len(doc["expires_at"]) == 20

    env = kcauth("token", "-o", "env").stdout
    shown = subprocess.run(["sh", "-c", env + 'printf %s "$KCAUTH_ACCESS_TOKEN"'], capture_output=True, text=True)
    assert shown.stdout == token

    cred = json.loads(kcauth("token", "-o", "exec-credential").stdout)
    assert cred["apiVersion"] == "client.authentication.k8s.io/v1" and cred["kind"] == "ExecCredential"
    assert cred["status"]["token"] == token
    assert cred["status"]["expirationTimestamp"] == doc["expires_at"]

    id_token = kcauth("token", "--id-token").stdout.strip()
    claims = json.loads(__import__("base64").urlsafe_b64decode(id_token.split(".")[1] + "=="))
    assert claims["aud"] in ("kcauth", ["kcauth"]) and claims["iss"] == provider.issuer
    id_doc = json.loads(kcauth("token", "--id-token", "-o", "json").stdout)
    assert id_doc["id_token"] == id_token and "access_token" not in id_doc
    assert kcauth("token", "--id-token", "-o", "headers-json").stdout == '{"Authorization":"Bearer %s"}\n' % id_token

    bad = kcauth("token", "-o", "yaml")
    assert bad.returncode == 2 and "use one of raw, header, json, env, exec-credential, curl" in bad.stderr


def test_refresh_can_narrow_the_scope(provider, keyring, kcauth):
    login(kcauth, provider)
    r = kcauth("refresh", "--scope", "openid email", "-o", "json")
    assert r.returncode == 0, r
    assert json.loads(r.stdout)["scope"].split() == ["openid", "email"]
    assert "Refreshed profile 'default'" in r.stderr


def test_the_runtime_cache_holds_only_the_access_token_privately_and_spares_the_keyring(provider, keyring, kcauth):
    login(kcauth, provider)
    token = kcauth("token").stdout
    cache_dir = Path(keyring.env["XDG_RUNTIME_DIR"]) / "kcauth"
    cache_file = cache_dir / "default.token"
    assert stat.S_IMODE(cache_dir.stat().st_mode) == 0o700
    assert stat.S_IMODE(cache_file.stat().st_mode) == 0o600
    cached = json.loads(cache_file.read_text())
    assert "refresh_token" not in cached and "id_token" not in cached

    with keyring.frozen():  # the Secret Service would time out: the cache answers
        r = kcauth("token")
    assert r.returncode == 0 and r.stdout == token

    cache_file.chmod(0o644)  # a cache file anyone could have written is not trusted
    with keyring.frozen():
        r = kcauth("token", timeout=30)
    assert r.returncode == 5 and "did not answer" in r.stderr


def test_with_the_cache_off_nothing_is_written_to_the_runtime_dir(provider, keyring, kcauth):
    off = {"KCAUTH_TOKEN_CACHE": "off"}
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", env=off)
    assert r.returncode == 0, r
    assert kcauth("token", env=off).returncode == 0
    assert not (Path(keyring.env["XDG_RUNTIME_DIR"]) / "kcauth" / "default.token").exists()
    # With the cache on, login leaves the new session's copy (the next token needs no store read).
    login(kcauth, provider, "--force")
    assert (Path(keyring.env["XDG_RUNTIME_DIR"]) / "kcauth" / "default.token").exists()


def test_a_swift_program_shares_the_session_through_the_library(start_provider, keyring, kcauth):
    """Examples/KCAuthExample uses the KCAuth library product: same store, same lock."""
    example = BINARY.parent / "KCAuthExample"
    provider = start_provider(access_token_lifetime=60)
    login(kcauth, provider)
    r = subprocess.run([str(example)], env=kcauth.env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r
    assert f"profile 'default': a Bearer token from {provider.issuer}, valid for" in r.stdout
    assert len(provider.token_requests("refresh_token")) == 1, "minValid 60 > 60 s lifetime left: it refreshed"
    assert kcauth("token").returncode == 0, "and the command still reads the session it stored"

    missing = subprocess.run([str(example), "nobody"], env=kcauth.env, capture_output=True, text=True, timeout=60)
    assert missing.returncode == 4 and "run `kcauth login --profile nobody`" in missing.stdout


def test_a_memory_session_never_answers_from_the_runtime_cache(provider, keyring, kcauth):
    login(kcauth, provider)
    assert kcauth("token").returncode == 0  # the keyring session is now in the runtime cache
    r = kcauth("token", env={"KCAUTH_STORAGE": "memory"})
    assert r.returncode == 4 and r.stdout == "", r


def test_a_swift_program_signs_in_uses_and_ends_a_session_through_the_library_alone(provider, keyring, kcauth):
    """Examples/KCAuthExample logs in, prints a token's lifetime and logs out with the
    KCAuth library product only (no kcauth process), and the command sees the same session."""
    example = BINARY.parent / "KCAuthExample"
    env = dict(kcauth.env, KCAUTH_ISSUER=provider.issuer, KCAUTH_CLIENT_ID="kcauth")

    signed_in = subprocess.run([str(example), "login"], env=env, capture_output=True, text=True, timeout=60)
    assert signed_in.returncode == 0, signed_in
    assert f"profile 'default': signed in to {provider.issuer} as alice" in signed_in.stdout
    assert kcauth("whoami").returncode == 0, "the command sees the library's session"

    used = subprocess.run([str(example), "token"], env=env, capture_output=True, text=True, timeout=60)
    assert used.returncode == 0 and "a Bearer token from" in used.stdout, used

    signed_out = subprocess.run([str(example), "logout"], env=env, capture_output=True, text=True, timeout=60)
    assert signed_out.returncode == 0 and "profile 'default': signed out" in signed_out.stdout, signed_out
    assert kcauth("token").returncode == 4, "and the session is gone for the command too"
