"""`kcauth login` and `kcauth token` end to end: the built binary, the real test provider on
127.0.0.1, the scripted user as $BROWSER, and a real gnome-keyring on a private D-Bus."""

import json
import os
import re
import socket
import stat
import subprocess

import pytest
import requests
from jwcrypto import jwk, jwt

from kcauth import Kcauth, stored_items


def login_args(provider, *extra, client_id="kcauth"):
    return ("login", "--issuer", provider.issuer, "--client-id", client_id, "--timeout", "30", *extra)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_login_stores_the_session_and_token_prints_a_verifiable_jwt(provider, keyring, kcauth, scripted_browser_env):
    r = kcauth(*login_args(provider))
    assert r.returncode == 0, r
    assert r.stdout == "", "login prints nothing on stdout"
    assert "Logged in to " + provider.issuer + " as alice (profile 'default')" in r.stderr
    # A URL is always shown: with the browser opened here, kcauth's short local start URL.
    assert re.search(r"^  http://127\.0\.0\.1:\d+/show/[\w-]+$", r.stderr, re.M), r.stderr

    page = scripted_browser_env.wait_result()["callback_response"]
    assert page["status"] == 200 and "You are signed in as <strong>alice</strong>" in page["body"]

    t = kcauth("token")
    assert t.returncode == 0, t
    assert t.stderr == ""
    token = t.stdout
    assert token.endswith("\n") and token.count("\n") == 1, "the token and a newline, nothing else"
    keys = jwk.JWKSet.from_json(requests.get(provider.jwks_uri, timeout=5).text)
    claims = json.loads(jwt.JWT(jwt=token.strip(), key=keys).claims)
    assert claims["iss"] == provider.issuer and claims["azp"] == "kcauth"

    items = stored_items(keyring)
    assert items == [{"profile": "default", "issuer": provider.issuer, "client_id": "kcauth"}]
    lookup = keyring.secret_tool("lookup", "profile", "default")
    state = json.loads(lookup.stdout)
    assert state["access_token"] == token.strip() and state["refresh_token"]
    assert state["endpoints"]["token"] == provider.token_endpoint

    config = kcauth.config_file.read_text()
    assert f"issuer = {provider.issuer}" in config and "client_id = kcauth" in config
    assert stat.S_IMODE(os.stat(kcauth.config_file).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(kcauth.config_file.parent).st_mode) == 0o700


def test_second_login_reuses_the_saved_profile(provider, keyring, kcauth, scripted_browser_env):
    assert kcauth(*login_args(provider)).returncode == 0
    again = kcauth("login", "--force", "--timeout", "30")  # without --force: "already logged in"
    assert again.returncode == 0, again
    assert len(provider.token_requests("authorization_code")) == 2


def test_named_profiles_are_kept_apart(provider, keyring, kcauth, scripted_browser_env):
    assert kcauth(*login_args(provider, "--profile", "work")).returncode == 0
    missing = kcauth("token")
    assert missing.returncode == 4 and "run `kcauth login`" in missing.stderr
    env_profile = kcauth("token", env={"KCAUTH_PROFILE": "work"})
    assert env_profile.returncode == 0 and env_profile.stdout.count(".") == 2


def test_fixed_port_is_used_for_the_redirect(provider, keyring, kcauth, scripted_browser_env):
    port = free_port()
    r = kcauth(*login_args(provider, "--port", str(port)))
    assert r.returncode == 0, r
    assert scripted_browser_env.wait_result()["callback_url"].startswith(f"http://127.0.0.1:{port}/callback?")
    assert f"port = {port}" in kcauth.config_file.read_text()


def test_busy_fixed_port_is_a_usage_error(provider, keyring, kcauth):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        r = kcauth(*login_args(provider, "--port", str(s.getsockname()[1]), "--no-browser"))
    assert r.returncode == 2 and "already in use" in r.stderr, r


def test_a_callback_with_the_wrong_state_is_ignored(provider, keyring, kcauth, scripted_browser_env):
    r = kcauth(*login_args(provider), env={"SCRIPTED_MODE": "wrong-state-first"})
    assert r.returncode == 0, r
    result = scripted_browser_env.wait_result()
    assert result["wrong_state_status"] == 400
    assert "does not belong to the current sign-in" in result["wrong_state_body"]
    assert result["callback_status"] == 200
    assert len(provider.token_requests("authorization_code")) == 1


def test_access_denied_exits_3_and_stores_nothing(provider, keyring, kcauth, scripted_browser_env):
    r = kcauth(*login_args(provider, client_id="kcauth-consent"), env={"SCRIPTED_ACTION": "deny"})
    assert r.returncode == 3, r
    assert "denied" in r.stderr and r.stderr.count("error:") == 1
    assert scripted_browser_env.wait_result()["callback_response"]["status"] == 400
    assert stored_items(keyring) == []
    assert provider.token_requests() == []
    assert kcauth("token").returncode == 4


def test_an_id_token_with_a_bad_signature_stores_nothing(start_provider, keyring, kcauth, scripted_browser_env):
    provider = start_provider(fault="tamper-id-token-signature")
    r = kcauth(*login_args(provider))
    assert r.returncode == 1, r
    assert "ID token was rejected: its signature does not verify" in r.stderr
    assert "Nothing was stored" in scripted_browser_env.wait_result()["callback_response"]["body"]
    assert stored_items(keyring) == []
    assert not kcauth.config_file.exists(), "settings are saved only after a login succeeds"


def test_a_callback_from_another_issuer_is_rejected(start_provider, keyring, kcauth, scripted_browser_env):
    provider = start_provider(fault="wrong-iss-on-callback")
    r = kcauth(*login_args(provider))
    assert r.returncode == 1 and "mix-up" in r.stderr, r
    assert provider.token_requests() == [], "the code is never redeemed"
    assert stored_items(keyring) == []


def test_no_browser_response_times_out_with_exit_3(provider, keyring, kcauth):
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--no-browser", "--timeout", "1")
    assert r.returncode == 3, r
    assert "no response from the browser within 1 s" in r.stderr
    assert "Open this URL" in r.stderr and r.stdout == ""


def test_the_browser_launchers_output_never_reaches_stdout(provider, keyring, kcauth, scripted_browser_env, tmp_path):
    noisy = tmp_path / "noisy-browser"
    noisy.write_text(f'#!/bin/sh\necho "browser chatter on stdout"\nexec "{scripted_browser_env["BROWSER"]}" "$@"\n')
    noisy.chmod(0o755)
    r = kcauth(*login_args(provider), env={"BROWSER": str(noisy)})
    assert r.returncode == 0, r
    assert r.stdout == "" and "browser chatter on stdout" in r.stderr


def test_token_without_a_login_exits_4(kcauth):
    r = kcauth("token")
    assert r.returncode == 4 and r.stdout == ""
    assert r.stderr == "error: not logged in (profile 'default', keyring storage); run `kcauth login`\n"


def test_plain_http_issuer_is_refused(kcauth):
    r = kcauth("login", "--issuer", "http://sso.example.com/realms/x", "--client-id", "c")
    assert r.returncode == 2 and "must travel over https" in r.stderr
