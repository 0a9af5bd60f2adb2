"""Interop: behave right with providers that do less than Keycloak.

No end-session or revocation endpoint; `consent_required` and friends on the authorization
redirect; a dead refresh token answered with `invalid_request`; the user's name and e-mail only in
userinfo; redirect URIs matched exactly (a random loopback port is refused before the browser opens,
and a provider that may do so unseen is named with the fixed-port advice);
and a narrowed `refresh --scope` that must not change the stored session's scope.
"""

import json
import re

import pytest


def login(kcauth, provider, *extra):
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", *extra)
    assert r.returncode == 0, r
    return r


def stored_state(keyring):
    r = keyring.secret_tool("lookup", "profile", "default")
    return json.loads(r.stdout) if r.returncode == 0 and r.stdout else None


def whoami_lines(kcauth):
    r = kcauth("whoami")
    assert r.returncode == 0, r
    return dict(re.split(r"\s{2,}", line.strip(), maxsplit=1) for line in r.stdout.splitlines())


# --- logout without a way to end the session server-side ------------------------------------------

def test_logout_against_a_provider_without_end_session_or_revocation_exits_0_saying_until_when(
        start_provider, keyring, kcauth):
    provider = start_provider(discovery_overrides={"end_session_endpoint": None, "revocation_endpoint": None})
    login(kcauth, provider)
    r = kcauth("logout")
    assert r.returncode == 0, r
    assert "no end-session or revocation endpoint" in r.stderr
    assert re.search(r"refresh token stays valid until \d{4}-\d\d-\d\d", r.stderr), r
    assert stored_state(keyring) is None, "the local logout happened"
    assert not [e for e in provider.request_log() if e["path"].endswith(("/logout", "/revoke"))]
    assert kcauth("token").returncode == 4


# --- denied, in the words of other providers ---------------------------------------------------

@pytest.mark.parametrize("error", ["consent_required", "interaction_required", "login_required", "access_denied"])
def test_a_refusal_on_the_authorization_redirect_exits_3(start_provider, keyring, kcauth, scripted_browser_env, error):
    provider = start_provider(authorization_error=error)
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30")
    assert r.returncode == 3, r
    assert error in r.stderr and r.stdout == ""
    assert stored_state(keyring) is None
    assert scripted_browser_env.wait_result()["callback_params"]["error"] == error, "the redirect reached kcauth"


# --- a dead refresh token, said with invalid_request ---------------------------------------------

def test_invalid_request_about_the_refresh_token_ends_the_session_with_exit_4(start_provider, keyring, kcauth):
    provider = start_provider(refresh_error={"error": "invalid_request", "error_description": "Invalid refresh token"})
    login(kcauth, provider)
    r = kcauth("refresh")
    assert r.returncode == 4, r
    assert "run `kcauth login`" in r.stderr and r.stdout == ""
    assert stored_state(keyring) is None, "the dead session is removed"


def test_invalid_request_about_something_else_ends_the_command_with_exit_4_and_keeps_the_stored_session(
        start_provider, keyring, kcauth):
    # RefreshRefusal: kcauth's refresh request is complete, so the provider refuses the token
    # whatever it says; the answer does not say the session is over, so the store is left to the
    # next login.
    provider = start_provider(refresh_error={"error": "invalid_request", "error_description": "Missing parameter: client_id"})
    login(kcauth, provider)
    before = keyring.secret_tool("lookup", "profile", "default").stdout
    r = kcauth("refresh")
    assert r.returncode == 4, r
    assert "run `kcauth login`" in r.stderr and "client's settings" not in r.stderr
    assert keyring.secret_tool("lookup", "profile", "default").stdout == before


@pytest.mark.parametrize("answer", [
    {"error": "invalid_request"},  # LemonLDAP::NG
    {"error": "unauthorized_client", "error_description": "Session expired"},
    {"status": 401, "html": "<html><body>Unauthorized</body></html>"},
], ids=["lemonldap-invalid_request", "unauthorized_client-session", "401-bare"])
def test_a_dead_refresh_token_in_other_providers_words_asks_for_a_login(start_provider, keyring, kcauth, answer):
    # Before: exit 1 and "check the client's settings at the provider".
    provider = start_provider(refresh_error=answer)
    login(kcauth, provider)
    for command in (("refresh",), ("token", "--min-valid", "86400")):
        r = kcauth(*command)
        assert r.returncode == 4, r
        assert "run `kcauth login`" in r.stderr and "client's settings" not in r.stderr and r.stdout == "", r


@pytest.mark.parametrize("answer", [
    {"status": 401, "error": "invalid_client", "error_description": "Invalid client credentials"},
    {"error": "unsupported_grant_type"},
], ids=["invalid_client", "unsupported_grant_type"])
def test_a_refusal_about_the_client_keeps_the_session_with_exit_1(start_provider, keyring, kcauth, answer):
    provider = start_provider(refresh_error=answer)
    login(kcauth, provider)
    before = keyring.secret_tool("lookup", "profile", "default").stdout
    r = kcauth("refresh")
    assert r.returncode == 1, r
    assert keyring.secret_tool("lookup", "profile", "default").stdout == before


# --- the user's name only in userinfo ------------------------------------------------------------

ONLY_SUB = {"preferred_username": None, "name": None, "given_name": None, "family_name": None,
            "email": None, "email_verified": None}


def test_an_id_token_with_only_sub_shows_the_user_from_userinfo(start_provider, keyring, kcauth):
    provider = start_provider(id_token_overrides=ONLY_SUB)
    r = login(kcauth, provider)
    assert "as alice" in r.stderr, "the login line names the user from userinfo"

    lines = whoami_lines(kcauth)
    assert lines["Username"] == "alice" and lines["Name"] == "Alice Liddell", lines
    assert lines["Email"] == "alice@example.test"
    doc = json.loads(kcauth("whoami", "-o", "json").stdout)
    assert doc["preferred_username"] == "alice" and doc["email"] == "alice@example.test"

    status = kcauth("status")
    assert status.returncode == 0 and f"Logged in to {provider.issuer} as alice" in status.stdout, status
    assert json.loads(kcauth("status", "-o", "json").stdout)["profiles"][0]["user"] == "alice"

    refreshed = kcauth("whoami", "--userinfo", "-o", "json")
    assert refreshed.returncode == 0 and json.loads(refreshed.stdout)["preferred_username"] == "alice"


# --- a narrowed refresh leaves the stored scope alone --------------------------------------------

def test_refresh_with_a_narrower_scope_keeps_the_sessions_granted_scope(provider, keyring, kcauth):
    login(kcauth, provider)
    granted = json.loads(kcauth("whoami", "-o", "json").stdout)["scopes"]
    assert set(granted) >= {"openid", "profile", "email"}

    r = kcauth("refresh", "--scope", "openid", "-o", "json")
    assert r.returncode == 0, r
    assert json.loads(r.stdout)["scope"].split() == ["openid"], "this one answer is narrowed"
    assert json.loads(kcauth("whoami", "-o", "json").stdout)["scopes"] == granted
    assert kcauth("token", "-o", "json", env={"KCAUTH_TOKEN_CACHE": "off"}).returncode == 0


# --- exact-match redirect URIs -------------------------------------------------------------------

def test_a_provider_with_exact_redirect_uris_refuses_the_random_port_before_the_browser_opens(
        start_provider, keyring, kcauth, scripted_browser_env):
    provider = start_provider(exact_redirect_uris=True)
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "60")
    assert r.returncode == 1 and r.seconds < 15, r
    assert "error: the provider refused the sign-in request: Invalid parameter: redirect_uri (HTTP 400); " in r.stderr
    assert "check the redirect URIs the client allows at the provider" in r.stderr
    assert not scripted_browser_env.result_path.exists(), "no browser was started"
    assert stored_state(keyring) is None


def test_where_the_provider_may_compare_exactly_the_wait_and_the_timeout_name_a_fixed_port(start_provider, keyring, kcauth):
    """A provider not known to take any loopback port (not a Keycloak realm), whose check passed
    (it sent kcauth to its login page): it may still refuse the random port after the login, where
    kcauth cannot see it, so it says so while waiting and on the timeout."""
    provider = start_provider(issuer_path="oauth2/demo")
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "3", env={"BROWSER": "true"})
    assert r.returncode == 3, r
    waiting, _, error = r.stderr.partition("error: ")
    assert "the provider may require a fixed --port registered as an exact redirect URI" in waiting, r
    assert "no response from the browser within 3 s" in error
    assert "--port" in error and "exact redirect URI" in error, r
    assert stored_state(keyring) is None
