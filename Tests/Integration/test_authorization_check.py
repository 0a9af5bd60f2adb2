"""The authorization request is checked with the provider before the browser opens (the built
binary against the test provider, which answers like Keycloak: an unknown client or a refused
redirect URI gets an HTML error page with 400 and no redirect).

A refusal ends the login at once (exit 1) with the provider's words and the setting to check; the
browser is never started. A login the provider takes is not slowed or changed by the check: one
GET of the authorization URL (or, with PAR, the push itself), nothing claimed that the browser
needs, nothing seen by the loopback listener. The `--port` advice appears only where it applies:
not for Keycloak, which takes any loopback port for a redirect URI registered without one.
Also `--par always` where the provider has no PAR endpoint: an error before the browser, naming
`--par auto` and `--par never`, and doctor fails that profile.
"""

import json
import time

AUTH_PATH = "/protocol/openid-connect/auth"
PAR_PATH = "/protocol/openid-connect/ext/par/request"


def login(kcauth, provider, *extra, client_id="kcauth"):
    return kcauth("login", "--issuer", provider.issuer, "--client-id", client_id, *extra)


def authorization_requests(provider):
    return [e for e in provider.request_log() if e["path"].endswith(AUTH_PATH)]


def by_kcauth(entry):
    """kcauth's own request (User-Agent `kcauth`), not the browser's (the scripted user's is
    `kcauth-scripted-user/1`)."""
    return entry["user_agent"].split("/")[0] == "kcauth"


def pushes(provider):
    return [e for e in provider.request_log() if e["path"].endswith(PAR_PATH)]


def error_lines(stderr):
    return [line for line in stderr.splitlines() if line.startswith("error: ")]


def assert_no_browser(scripted_browser_env):
    time.sleep(0.5)  # the scripted user runs detached: give a started one time to write
    assert not scripted_browser_env.result_path.exists(), "the browser was started"


def test_an_unknown_client_ends_the_login_at_once_with_the_providers_words(provider, keyring, kcauth, scripted_browser_env):
    r = login(kcauth, provider, client_id="kcauthx")
    assert r.returncode == 1, r
    assert r.seconds < 15, f"not the browser's {300} s wait: {r!r}"
    [line] = error_lines(r.stderr)
    assert line.startswith("error: the provider refused the sign-in request: Client not found. (HTTP 400); "), line
    assert "check --client-id 'kcauthx': it must be the id of a client registered at the provider" in line
    assert "--port" not in r.stderr, "the client id is the problem, and Keycloak takes any port anyway"
    assert "Opening the browser" not in r.stderr and "Waiting for" not in r.stderr
    assert r.stdout == ""
    assert_no_browser(scripted_browser_env)
    # One request: kcauth's GET of the authorization URL, answered with the error page.
    [check] = authorization_requests(provider)
    assert check["status"] == 400 and check["method"] == "GET" and by_kcauth(check)
    assert check["auth_params"]["client_id"] == "kcauthx" and check["auth_params"]["redirect_uri"].startswith("http://127.0.0.1:")
    assert provider.token_requests() == []
    assert "[default]" not in (kcauth.config_file.read_text() if kcauth.config_file.exists() else "")


def test_a_refused_redirect_uri_names_the_redirect_uris_and_no_port_for_keycloak(start_provider, keyring, kcauth, scripted_browser_env):
    provider = start_provider(exact_redirect_uris=True)
    r = login(kcauth, provider)
    assert r.returncode == 1, r
    [line] = error_lines(r.stderr)
    assert "refused the sign-in request: Invalid parameter: redirect_uri (HTTP 400)" in line
    assert ("check the redirect URIs the client allows at the provider: they must include http://127.0.0.1/callback "
            "(without a port, any port is accepted)") in line, line
    assert "--port" not in r.stderr, "Keycloak matches a loopback redirect URI on any port"
    assert_no_browser(scripted_browser_env)
    assert [e["status"] for e in authorization_requests(provider)] == [400]


def test_a_provider_that_compares_redirect_uris_exactly_gets_the_port_advice(start_provider, keyring, kcauth, scripted_browser_env):
    provider = start_provider(exact_redirect_uris=True, issuer_path="oauth2/demo")
    assert "/realms/" not in provider.issuer
    r = login(kcauth, provider)
    assert r.returncode == 1, r
    [line] = error_lines(r.stderr)
    assert "Invalid parameter: redirect_uri" in line
    assert line.endswith("a provider that compares redirect URIs exactly needs a fixed port: "
                         "register http://127.0.0.1:8400/callback and pass --port 8400"), line
    assert_no_browser(scripted_browser_env)


def test_a_login_the_provider_takes_goes_on_to_the_browser_with_nothing_consumed(provider, keyring, kcauth, scripted_browser_env):
    r = login(kcauth, provider)
    assert r.returncode == 0, r
    assert f"Logged in to {provider.issuer} as alice" in r.stderr
    assert "--port" not in r.stderr, "no fixed-port advice for Keycloak"
    seen = authorization_requests(provider)
    # First kcauth's check (sent to the login page, a redirect it did not follow), then the browser's
    # request of the same URL, which the provider still took in full.
    assert by_kcauth(seen[0]) and seen[0]["status"] == 302, seen
    assert not any(by_kcauth(e) for e in seen[1:]) and len(seen) >= 2, seen
    assert seen[1]["auth_params"] == seen[0]["auth_params"], "the browser got the request that was checked"
    assert scripted_browser_env.wait_result()["ok"] is True
    assert [e["status"] for e in provider.token_requests("authorization_code")] == [200]


def test_a_redirect_back_to_the_listener_is_not_followed_by_the_check(start_provider, keyring, kcauth, scripted_browser_env):
    """The provider answers every authorization request with a redirect to the loopback
    redirect_uri (error=consent_required): the check does not follow it, so the listener hears only
    the browser, which kcauth did start."""
    provider = start_provider(authorization_error="consent_required")
    r = login(kcauth, provider, "--timeout", "30")
    assert r.returncode == 3, r
    assert "consent_required" in r.stderr
    result = scripted_browser_env.wait_result()
    assert "consent_required" in json.dumps(result), result
    agents = [by_kcauth(e) for e in authorization_requests(provider)]
    assert agents[0] is True and False in agents, "the check, then the browser"


def test_a_provider_not_known_to_take_any_port_keeps_the_port_advice_while_waiting(start_provider, keyring, kcauth):
    provider = start_provider(issuer_path="oauth2/demo")
    r = login(kcauth, provider)
    assert r.returncode == 0, r
    assert "the provider may require a fixed --port registered as an exact redirect URI" in r.stderr


def test_with_par_the_push_is_the_check(start_provider, keyring, kcauth, scripted_browser_env):
    provider = start_provider(par="on")
    r = login(kcauth, provider, client_id="kcauthx")
    assert r.returncode == 1, r
    [line] = error_lines(r.stderr)
    assert "pushing the authorization request failed: invalid_client" in line
    assert "check --client-id 'kcauthx'" in line
    assert_no_browser(scripted_browser_env)
    assert [e["status"] for e in pushes(provider)] == [401]
    assert authorization_requests(provider) == [], "no GET besides the push"

    r = login(kcauth, provider)
    assert r.returncode == 0, r
    assert len(pushes(provider)) == 2
    assert not any(by_kcauth(e) for e in authorization_requests(provider)), \
        "the single-use request_uri is left to the browser"
    assert "--port" not in r.stderr


# --- --par always without a PAR endpoint ---------------------------------------------------------

def test_par_always_without_a_par_endpoint_fails_before_the_browser(provider, keyring, kcauth, scripted_browser_env):
    r = login(kcauth, provider, "--par", "always")
    assert r.returncode == 1, r
    [line] = error_lines(r.stderr)
    assert "the provider lists no pushed_authorization_request_endpoint, and Keycloak's PAR path answered HTTP 404" in line
    assert line.endswith("sign in with `--par auto` or `--par never`"), line
    assert "Opening the browser" not in r.stderr
    assert_no_browser(scripted_browser_env)
    assert [e["status"] for e in pushes(provider)] == [404]
    assert authorization_requests(provider) == []

    assert login(kcauth, provider, "--par", "auto").returncode == 0, "the way out works"


def test_doctor_fails_a_profile_with_par_always_where_the_provider_has_no_par(provider, keyring, kcauth):
    kcauth.config_file.parent.mkdir(parents=True, exist_ok=True)
    kcauth.config_file.write_text(f"[default]\nissuer = {provider.issuer}\nclient_id = kcauth\npar = always\n")
    r = kcauth("doctor", "-o", "json", timeout=60)
    assert r.returncode == 1, r
    [check] = [c for c in json.loads(r.stdout)["checks"] if c["id"] == "dpop-par"]
    assert check["status"] == "fail", check
    assert "no PAR endpoint" in check["detail"] and "par = always (no endpoint to push to)" in check["detail"]
    assert "`--par auto` or `--par never`" in check["fix"], check

    kcauth.config_file.write_text(f"[default]\nissuer = {provider.issuer}\nclient_id = kcauth\npar = never\n")
    r = kcauth("doctor", "-o", "json", timeout=60)
    [check] = [c for c in json.loads(r.stdout)["checks"] if c["id"] == "dpop-par"]
    assert check["status"] == "pass", check


def test_doctor_passes_par_always_where_keycloaks_path_has_an_endpoint(start_provider, keyring, kcauth):
    provider = start_provider(par="required", par_advertised=False)
    kcauth.config_file.parent.mkdir(parents=True, exist_ok=True)
    kcauth.config_file.write_text(f"[default]\nissuer = {provider.issuer}\nclient_id = kcauth\npar = always\n")
    r = kcauth("doctor", "-o", "json", timeout=60)
    [check] = [c for c in json.loads(r.stdout)["checks"] if c["id"] == "dpop-par"]
    assert check["status"] == "pass" and "par = always (the browser flow pushes)" in check["detail"], check
