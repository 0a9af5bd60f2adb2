"""Pushed authorization requests (RFC 9126) end to end against the local provider
(Tests/Provider/kcprovider/par.py): the browser's URL carries only client_id and request_uri, the
push carries the whole request, `--par always` reaches a provider that requires PAR without
saying so, `--par never` (or auto) there gets the provider's refusal, a refused push is one error
line with the provider's error; and the provider's request_uri is bound to the client, single use
and short-lived."""

import time

import requests


def login(kcauth, provider, *extra):
    return kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", *extra)


def pushes(provider):
    return [e for e in provider.request_log() if e["path"].endswith("/ext/par/request")]


def authorizations(provider):
    return [e for e in provider.request_log() if e["path"].endswith("/protocol/openid-connect/auth")]


def par_endpoint(provider):
    return provider.issuer + "/protocol/openid-connect/ext/par/request"


def test_the_browser_gets_only_client_id_and_request_uri_and_the_push_carries_the_request(start_provider, kcauth):
    provider = start_provider(par="on")
    assert requests.get(provider.discovery_url, timeout=10).json()["pushed_authorization_request_endpoint"] == par_endpoint(provider)
    r = login(kcauth, provider, "--idp-hint", "github")
    assert r.returncode == 0, r

    [push] = pushes(provider)
    assert push["status"] == 201 and push["method"] == "POST"
    sent = push["par_params"]
    assert sent["client_id"] == "kcauth" and sent["response_type"] == "code" and sent["code_challenge_method"] == "S256"
    assert sent["redirect_uri"].startswith("http://127.0.0.1:") and "openid" in sent["scope"]
    # keycloak-26.md §k: kc_idp_hint must travel in the push.
    assert sent["kc_idp_hint"] == "github"
    assert "code_verifier" not in sent

    seen = authorizations(provider)
    assert seen, provider.request_log()
    # Every authorization request the browser made (the first one and the one after the login
    # form) named only the client and the request_uri.
    assert all(e["query_keys"] == ["client_id", "request_uri"] for e in seen), seen
    # ... and the provider authorized the pushed request.
    assert seen[-1]["auth_params"]["kc_idp_hint"] == "github"
    # The push came when the browser was there, not before.
    assert push["time"] <= seen[0]["time"]
    assert "par" not in kcauth.config_file.read_text(), "auto is the default and is not written"


def test_par_always_reaches_a_provider_that_requires_par_without_advertising_it(start_provider, kcauth):
    provider = start_provider(par="required", par_advertised=False)
    assert "pushed_authorization_request_endpoint" not in requests.get(provider.discovery_url, timeout=10).json()
    r = login(kcauth, provider, "--par", "always")
    assert r.returncode == 0, r
    assert len(pushes(provider)) == 1
    assert "par = always" in kcauth.config_file.read_text()

    r = login(kcauth, provider, "--force")  # par = always is sticky
    assert r.returncode == 0, r
    assert len(pushes(provider)) == 2
    assert all(e["query_keys"] == ["client_id", "request_uri"] for e in authorizations(provider))


def test_an_ordinary_request_to_a_provider_that_requires_par_gets_its_error(start_provider, kcauth):
    provider = start_provider(par="required", par_advertised=False)
    for extra in ((), ("--par", "never")):
        r = login(kcauth, provider, *extra)
        assert r.returncode == 1, r
        assert "invalid_request" in r.stderr and "Pushed Authorization Request is only allowed" in r.stderr, r.stderr
        assert "--par always" in r.stderr, "the hint names the way out"
        assert r.stdout == ""
    assert pushes(provider) == []


def test_a_refused_push_is_one_error_line_with_the_providers_error(start_provider, kcauth):
    provider = start_provider(par="on", par_error="unauthorized_client")
    r = login(kcauth, provider)
    assert r.returncode == 1, r
    assert r.stdout == ""
    lines = [line for line in r.stderr.splitlines() if "unauthorized_client" in line]
    assert len(lines) == 1, r.stderr
    assert "pushing the authorization request failed" in lines[0]
    assert [e["status"] for e in pushes(provider)] == [400]
    assert provider.token_requests() == []


def push_by_hand(provider, **extra):
    form = {"client_id": "kcauth", "response_type": "code", "scope": "openid",
            "redirect_uri": "http://127.0.0.1:4567/callback", "state": "s" * 22, "nonce": "n" * 22,
            "code_challenge": "c" * 43, "code_challenge_method": "S256", **extra}
    return requests.post(par_endpoint(provider), data=form, timeout=10)


def test_the_providers_request_uri_is_bound_to_the_client_single_use_and_short_lived(start_provider):
    provider = start_provider(par="on", par_lifetime=2)
    auth = provider.authorization_endpoint

    r = push_by_hand(provider)
    assert r.status_code == 201 and r.json()["expires_in"] == 2
    uri = r.json()["request_uri"]
    assert uri.startswith("urn:ietf:params:oauth:request_uri:")
    # Other parameters next to a request_uri, or another client: refused.
    assert requests.get(auth, params={"client_id": "kcauth", "request_uri": uri, "scope": "openid"},
                        allow_redirects=False, timeout=10).status_code == 400
    assert requests.get(auth, params={"client_id": "kcauth-confidential", "request_uri": uri},
                        allow_redirects=False, timeout=10).status_code == 400
    # The first browser claims it (and is sent to the login page); a second one may not use it.
    first = requests.Session()
    r = first.get(auth, params={"client_id": "kcauth", "request_uri": uri}, allow_redirects=False, timeout=10)
    assert r.status_code == 302 and "/login" in r.headers["Location"]
    assert "code_challenge" not in r.headers["Location"], "the login page's next is the short URL"
    assert requests.get(auth, params={"client_id": "kcauth", "request_uri": uri},
                        allow_redirects=False, timeout=10).status_code == 400
    # Expired after its lifetime.
    late = push_by_hand(provider).json()["request_uri"]
    time.sleep(2.5)
    assert requests.get(auth, params={"client_id": "kcauth", "request_uri": late},
                        allow_redirects=False, timeout=10).status_code == 400
    # A push must not carry a request_uri, and needs the PKCE challenge.
    assert push_by_hand(provider, request_uri=uri).status_code == 400
    assert push_by_hand(provider, code_challenge="").status_code == 400


def test_whoami_status_and_doctor_show_the_key_the_binding_and_what_the_provider_offers(start_provider, keyring, kcauth):
    import json

    from test_dpop import claims_of
    from test_token import stored_state

    provider = start_provider(par="on", dpop="on")
    r = kcauth("doctor", "-o", "json", "--issuer", provider.issuer, timeout=60)
    [check] = [c for c in json.loads(r.stdout)["checks"] if c["id"] == "dpop-par"]
    assert check["status"] == "pass", check
    assert "advertises DPoP (ES256" in check["detail"] and "a PAR endpoint" in check["detail"]
    assert "dpop = no, par = auto (the browser flow pushes)" in check["detail"]

    r = login(kcauth, provider, "--dpop")
    assert r.returncode == 0, r
    assert len(pushes(provider)) == 1
    state = json.loads(stored_state(keyring))
    jkt = claims_of(state["access_token"])["cnf"]["jkt"]
    # §10: the pushed request named the key.
    assert pushes(provider)[0]["par_params"]["dpop_jkt"] == jkt

    who = json.loads(kcauth("whoami", "-o", "json").stdout)
    assert who["dpop"] == {"alg": "ES256", "thumbprint": jkt, "bound": True, "bound_by": "cnf.jkt"}
    text = kcauth("whoami").stdout
    assert f"ES256 key {jkt}; bound by the provider (cnf.jkt)" in text
    assert state["dpop"]["private_key"].splitlines()[1] not in text, "never the key"
    status = json.loads(kcauth("status", "-o", "json").stdout)
    assert status["profiles"][0]["dpop"]["thumbprint"] == jkt
    assert f"DPoP: ES256 key {jkt}; bound by the provider" in kcauth("status").stdout
    r = kcauth("doctor", "-o", "json", timeout=60)
    [check] = [c for c in json.loads(r.stdout)["checks"] if c["id"] == "dpop-par"]
    assert "the profile uses dpop = yes" in check["detail"]


def test_whoami_says_when_the_provider_did_not_bind_a_dpop_session(start_provider, kcauth):
    import json

    provider = start_provider(dpop="bearer")
    assert login(kcauth, provider, "--dpop").returncode == 0
    who = json.loads(kcauth("whoami", "-o", "json").stdout)
    assert who["dpop"]["bound"] is False and who["dpop"]["bound_by"] == "token_type"
    assert "not bound by the provider (Bearer tokens)" in kcauth("whoami").stdout


def test_a_confidential_client_authenticates_its_push(start_provider, kcauth):
    from test_client_authentication import KEYS, SECRET

    provider = start_provider(par="on")
    key = str(KEYS / "kcauth-jwt-ec.pem")
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth-jwt", "--client-key", key,
               "--client-key-id", "kcauth-jwt-ec", "--timeout", "30")
    assert r.returncode == 0, r
    [push] = pushes(provider)
    assert push["status"] == 201 and push["par_params"]["client_assertion_type"].endswith(":jwt-bearer")
    assert "client_assertion" not in push["par_params"], "the log keeps no credential"
    # Without its authentication the provider refuses the same push.
    refused = push_by_hand(provider, client_id="kcauth-jwt")
    assert refused.status_code == 401 and refused.json()["error"] == "invalid_client"
    assert SECRET not in r.stderr
