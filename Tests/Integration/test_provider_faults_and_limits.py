"""A provider's fault is exit 1 (not 2, "usage"); a token the provider echoes
in `error_description` never reaches stderr; a hung Secret Service is answered within about 2 s,
with the reason; `--timeout` below 1 s and a hex `--min-valid` are usage errors."""

import json

import pytest


def login(kcauth, provider, *extra):
    return kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", *extra)


def stored_state(keyring):
    r = keyring.secret_tool("lookup", "profile", "default")
    return json.loads(r.stdout) if r.returncode == 0 and r.stdout else None


# --- a plain-http endpoint in discovery is the provider's fault -----------------------------------

@pytest.mark.parametrize("endpoint", ["token_endpoint", "authorization_endpoint", "jwks_uri"])
def test_a_plain_http_endpoint_in_discovery_exits_1_not_2(start_provider, keyring, kcauth, endpoint):
    provider = start_provider(discovery_overrides={endpoint: "http://sso.example.test/realms/demo/x"})
    r = login(kcauth, provider)
    assert r.returncode == 1, r
    assert "http://sso.example.test" in r.stderr and "https" in r.stderr
    assert stored_state(keyring) is None


def test_a_plain_http_issuer_typed_by_the_user_stays_a_usage_error(keyring, kcauth):
    r = kcauth("login", "--issuer", "http://sso.example.test/realms/demo", "--client-id", "kcauth")
    assert r.returncode == 2 and "plain-http" in r.stderr, r


# --- secrets echoed back by the provider ---------------------------------------------------------

@pytest.mark.parametrize("error", ["invalid_grant", "invalid_request", "invalid_client"])
def test_a_refresh_token_echoed_in_error_description_never_reaches_stderr(start_provider, keyring, kcauth, error):
    provider = start_provider(refresh_error={
        "error": error, "error_description": "Refresh token {refresh_token} is not valid for this client"})
    assert login(kcauth, provider).returncode == 0
    refresh_token = stored_state(keyring)["refresh_token"]
    for command in (("refresh",), ("token", "--min-valid", "86400"), ("refresh", "-o", "json")):
        r = kcauth(*command)
        assert r.returncode in (1, 4), r
        assert refresh_token not in r.stderr and refresh_token not in r.stdout, r
        assert refresh_token[:16] not in r.stderr, "not even a prefix"
        if stored_state(keyring) is None:
            break  # the session is over (exit 4): nothing more to refresh


# --- a hung Secret Service -----------------------------------------------------------------------

@pytest.mark.parametrize("command", [("token",), ("status",), ("whoami",), ("logout", "--local")])
def test_a_hung_secret_service_is_answered_within_about_2_s_with_the_reason(provider, keyring, kcauth, command):
    assert login(kcauth, provider).returncode == 0
    with keyring.frozen():
        r = kcauth(*command, env={"KCAUTH_TOKEN_CACHE": "off"}, timeout=30)
    assert r.returncode == 5, r
    assert r.seconds < 2.6, f"took {r.seconds:.2f} s: {r!r}"
    assert "did not answer" in r.stderr + r.stdout, r  # status reports it in its report (stdout)
    assert stored_state(keyring) is not None, "nothing was deleted"


# --- option limits -------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ("login", "--timeout", "0.5"),
    ("login", "--timeout", "0"),
    ("token", "--min-valid", "0x10"),
    ("token", "--min-valid", "0X1A"),
], ids=["timeout-0.5", "timeout-0", "min-valid-0x10", "min-valid-0X1A"])
def test_out_of_range_option_values_are_usage_errors(provider, keyring, kcauth, args):
    extra = ("--issuer", provider.issuer, "--client-id", "kcauth", "--no-browser") if args[0] == "login" else ()
    r = kcauth(*args, *extra, timeout=30)
    assert r.returncode == 2, r
    assert r.stderr.count("\n") <= 2 and args[1] in r.stderr, r
    assert provider.token_requests() == [], "rejected before any request"
