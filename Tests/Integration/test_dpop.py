"""DPoP (RFC 9449) end to end against the local provider, whose proofs are verified
with jwcrypto (Tests/Provider/kcprovider/dpop.py), not with kcauth's code: a DPoP profile signs
in, refreshes, calls userinfo and logs out with bound tokens; its refresh token copied alone (or
with another key's proof) is refused; a replayed proof is refused; nonces on every request and a
provider that answers Bearer are handled."""

import base64
import json
import time
import uuid

import requests
from jwcrypto import jwk, jwt

from test_token import login, stored_state


def claims_of(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def proof(key, method, url, access_token=None, nonce=None, iat=None):
    """A DPoP proof made here with jwcrypto (another key than kcauth's)."""
    claims = {"jti": str(uuid.uuid4()), "htm": method, "htu": url, "iat": int(iat or time.time())}
    if nonce:
        claims["nonce"] = nonce
    header = {"typ": "dpop+jwt", "alg": "ES256", "jwk": json.loads(key.export_public())}
    token = jwt.JWT(header=header, claims=claims)
    token.make_signed_token(key)
    return token.serialize()


def refresh(provider, refresh_token, headers=None):
    return requests.post(provider.token_endpoint, data={
        "grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": "kcauth"}, headers=headers or {}, timeout=10)


def test_a_dpop_profile_signs_in_refreshes_calls_userinfo_and_logs_out_bound(start_provider, keyring, kcauth):
    provider = start_provider(dpop="on", access_token_lifetime=60)
    login(kcauth, provider, "--dpop")
    state = json.loads(stored_state(keyring))
    assert state["token_type"] == "DPoP"
    assert state["dpop"]["alg"] == "ES256" and "PRIVATE KEY" in state["dpop"]["private_key"]
    jkt = claims_of(state["access_token"])["cnf"]["jkt"]
    # The key in the store is the one the token is bound to (RFC 7638 thumbprint, by jwcrypto).
    assert jwk.JWK.from_pem(state["dpop"]["private_key"].encode()).thumbprint() == jkt
    # §10: the authorization request named the same key.
    auth = [e for e in provider.request_log() if e["path"].endswith("/auth")]
    assert auth and auth[-1]["auth_params"].get("dpop_jkt") == jkt
    assert "dpop = yes" in kcauth.config_file.read_text()

    r = kcauth("token", "--min-valid", "120")  # forces a refresh with a proof
    assert r.returncode == 0, r
    refreshed = json.loads(stored_state(keyring))
    assert refreshed["refresh_token"] != state["refresh_token"]
    assert claims_of(refreshed["access_token"])["cnf"]["jkt"] == jkt
    assert [e["status"] for e in provider.token_requests("refresh_token")] == [200]

    r = kcauth("whoami", "--userinfo")
    assert r.returncode == 0, r
    assert [e["status"] for e in provider.request_log() if e["path"].endswith("/userinfo")][-1] == 200

    r = kcauth("logout")
    assert r.returncode == 0, r
    logout = [e for e in provider.request_log() if e["path"].endswith(("/logout", "/revoke")) and e["method"] == "POST"]
    assert logout and all(e["status"] in (200, 204) for e in logout), logout
    # The session really ended at the provider.
    assert refresh(provider, refreshed["refresh_token"]).status_code == 400


def test_a_copied_refresh_token_is_useless_without_the_key(start_provider, keyring, kcauth):
    provider = start_provider(dpop="on")
    login(kcauth, provider, "--dpop")
    rt = json.loads(stored_state(keyring))["refresh_token"]
    # Alone: refused.
    alone = refresh(provider, rt)
    assert alone.status_code == 400 and alone.json()["error"] == "invalid_dpop_proof", alone.text
    # With a valid proof from another key: refused.
    thief = jwk.JWK.generate(kty="EC", crv="P-256")
    other = refresh(provider, rt, {"DPoP": proof(thief, "POST", provider.token_endpoint)})
    assert other.status_code == 400 and other.json()["error"] == "invalid_grant", other.text
    # kcauth, with the key, still refreshes.
    r = kcauth("refresh")
    assert r.returncode == 0, r


def test_a_replayed_proof_is_refused(start_provider):
    provider = start_provider(dpop="on")
    key = jwk.JWK.generate(kty="EC", crv="P-256")
    p = proof(key, "POST", provider.token_endpoint)
    data = {"grant_type": "refresh_token", "refresh_token": "unknown", "client_id": "kcauth"}
    first = requests.post(provider.token_endpoint, data=data, headers={"DPoP": p}, timeout=10)
    assert first.json()["error"] == "invalid_grant"  # the proof passed; the token is unknown
    second = requests.post(provider.token_endpoint, data=data, headers={"DPoP": p}, timeout=10)
    assert second.status_code == 400 and second.json()["error"] == "invalid_dpop_proof"
    stale = requests.post(provider.token_endpoint, data=data, timeout=10,
                          headers={"DPoP": proof(key, "POST", provider.token_endpoint, iat=time.time() - 600)})
    assert stale.json()["error"] == "invalid_dpop_proof"
    wrong_url = requests.post(provider.token_endpoint, data=data, timeout=10,
                              headers={"DPoP": proof(key, "POST", provider.userinfo_endpoint)})
    assert wrong_url.json()["error"] == "invalid_dpop_proof"


def test_a_nonce_demanded_on_every_request(start_provider, keyring, kcauth):
    provider = start_provider(dpop="on", dpop_nonce=True)
    login(kcauth, provider, "--dpop")
    codes = [e for e in provider.token_requests("authorization_code")]
    assert [e["status"] for e in codes] == [400, 200] and codes[0]["error"] == "use_dpop_nonce"
    # A new process knows no nonce: one use_dpop_nonce, one retry, per request.
    r = kcauth("refresh")
    assert r.returncode == 0, r
    assert [e["status"] for e in provider.token_requests("refresh_token")] == [400, 200]
    r = kcauth("whoami", "--userinfo")
    assert r.returncode == 0, r
    r = kcauth("logout")
    assert r.returncode == 0, r


def test_a_provider_that_answers_bearer_is_used_as_bearer_and_said(start_provider, keyring, kcauth):
    provider = start_provider(dpop="bearer")
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", "--dpop")
    assert r.returncode == 0, r
    assert "did not bind" in r.stderr
    state = json.loads(stored_state(keyring))
    assert state["token_type"] == "Bearer" and "dpop" in state
    r = kcauth("token", "-o", "header")
    assert r.returncode == 0 and r.stdout.startswith("Authorization: Bearer "), r


def test_a_dpop_token_without_a_dpop_profile_is_refused(start_provider, keyring, kcauth):
    provider = start_provider(dpop="on", discovery_overrides={})
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30")
    assert r.returncode == 0, r  # no proof sent: Bearer tokens
    assert json.loads(stored_state(keyring))["token_type"] == "Bearer"


def test_a_bound_token_goes_with_a_proof_for_the_request_in_header_and_headers_json(start_provider, keyring, kcauth):
    """`-o header` and `-o headers-json` with --dpop-url: the provider's userinfo (a DPoP resource,
    RFC 9449 §7.1, verified by jwcrypto) accepts each answer once, for that URL and method only."""
    provider = start_provider(dpop="on")
    login(kcauth, provider, "--dpop")
    url = provider.userinfo_endpoint

    r = kcauth("token", "-o", "headers-json", "--dpop-url", url)
    assert r.returncode == 0 and r.stdout.endswith("}\n") and r.stdout.count("\n") == 1, r
    headers = json.loads(r.stdout)
    assert list(headers) == ["Authorization", "DPoP"] and headers["Authorization"].startswith("DPoP ")
    assert requests.get(url, headers=headers, timeout=10).status_code == 200
    assert requests.get(url, headers=headers, timeout=10).status_code == 401, "a proof is good for one request"

    r = kcauth("token", "-o", "header", "--dpop-url", url)
    lines = dict(line.split(": ", 1) for line in r.stdout.splitlines())
    assert list(lines) == ["Authorization", "DPoP"] and requests.get(url, headers=lines, timeout=10).status_code == 200

    posted = json.loads(kcauth("token", "-o", "headers-json", "--dpop-url", url, "--dpop-method", "POST").stdout)
    assert requests.get(url, headers=posted, timeout=10).status_code == 401, "made for POST, refused for GET"
    assert requests.post(url, headers=posted, timeout=10).status_code == 200

    r = kcauth("token", "-o", "headers-json")
    assert r.returncode == 2 and r.stdout == "" and "pass --dpop-url URL" in r.stderr, r
