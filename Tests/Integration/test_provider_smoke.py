"""The local OpenID Provider works end to end, without kcauth.

A tiny loopback listener stands in for the CLI; the scripted user is started exactly as kcauth
will start it, as $BROWSER with the authorization URL.
"""

import base64
import hashlib
import http.server
import json
import os
import secrets
import subprocess
import threading
import time
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
import requests
from jwcrypto import jwk, jws, jwt

from provider import SCRIPTED_BROWSER, pid_alive, scripted_user_command

DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"


# --- helpers ------------------------------------------------------------------------------------


def pkce_pair():
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


class LoopbackListener:
    """What kcauth's listener does, minimally: record each callback request and answer 200."""

    BODY = b"<html><body>Login complete. You can close this window.</body></html>"

    def __init__(self):
        self.requests = []
        listener = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                listener.requests.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(listener.BODY)))
                self.end_headers()
                self.wfile.write(listener.BODY)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.redirect_uri = f"http://127.0.0.1:{self.server.server_address[1]}/callback"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


class Login:
    """One authorization request: its parameters, and the token exchange that follows."""

    def __init__(self, provider, redirect_uri, client_id="kcauth", scope="openid profile email", **extra):
        self.provider, self.client_id, self.redirect_uri = provider, client_id, redirect_uri
        self.verifier, challenge = pkce_pair()
        self.state, self.nonce = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
        params = {
            "client_id": client_id, "response_type": "code", "scope": scope, "redirect_uri": redirect_uri,
            "state": self.state, "nonce": self.nonce, "code_challenge": challenge, "code_challenge_method": "S256",
        }
        params.update(extra)
        self.url = provider.authorization_endpoint + "?" + urlencode({k: v for k, v in params.items() if v is not None})

    def exchange(self, code):
        return requests.post(self.provider.token_endpoint, data={
            "grant_type": "authorization_code", "code": code, "redirect_uri": self.redirect_uri,
            "client_id": self.client_id, "code_verifier": self.verifier,
        }, timeout=10)


def open_browser(env, url):
    """Start $BROWSER as kcauth will; it must return at once (the login runs detached)."""
    started = time.monotonic()
    completed = subprocess.run([env["BROWSER"], url], env={**os.environ, **env}, timeout=10)
    elapsed = time.monotonic() - started
    assert completed.returncode == 0
    assert elapsed < 2.0, f"$BROWSER took {elapsed:.2f} s to return; it must not wait for the login"
    return env.wait_result()


def log_in(provider, scripted_browser_env, listener, **login_options):
    login = Login(provider, listener.redirect_uri, **login_options)
    result = open_browser(scripted_browser_env, login.url)
    assert result["ok"], result
    return login, result


def jwks_keys(provider):
    return jwk.JWKSet.from_json(requests.get(provider.jwks_uri, timeout=10).text)


def verify(token, provider, **check_claims):
    """Verify a JWT's RS256 signature against the provider's JWKS (key chosen by kid) and claims."""
    header = json.loads(base64.urlsafe_b64decode(token.split(".")[0] + "=="))
    assert header["alg"] == "RS256"
    key = jwks_keys(provider).get_key(header["kid"])
    assert key is not None, f"no key with kid {header['kid']} in the JWKS"
    verified = jwt.JWT(jwt=token, key=key, algs=["RS256"], check_claims=check_claims or None)
    return json.loads(verified.claims)


def token_request(provider, **data):
    return requests.post(provider.token_endpoint, data=data, timeout=10)


# --- discovery and keys -------------------------------------------------------------------------


def test_discovery_is_keycloak_shaped(provider):
    response = requests.get(provider.discovery_url, timeout=10)
    assert response.status_code == 200
    doc = response.json()
    issuer = provider.issuer
    assert issuer == f"http://127.0.0.1:{provider.port}/realms/demo"
    assert doc["issuer"] == issuer
    oidc = issuer + "/protocol/openid-connect"
    assert doc["authorization_endpoint"] == oidc + "/auth"
    assert doc["token_endpoint"] == oidc + "/token"
    assert doc["userinfo_endpoint"] == oidc + "/userinfo"
    assert doc["jwks_uri"] == oidc + "/certs"
    assert doc["end_session_endpoint"] == oidc + "/logout"
    assert doc["revocation_endpoint"] == oidc + "/revoke"
    assert doc["introspection_endpoint"] == oidc + "/token/introspect"
    assert doc["device_authorization_endpoint"] == oidc + "/auth/device"
    assert doc["authorization_response_iss_parameter_supported"] is True
    assert set(doc["grant_types_supported"]) >= {"authorization_code", "refresh_token", DEVICE_GRANT}
    assert doc["code_challenge_methods_supported"] == ["S256"]
    assert "RS256" in doc["id_token_signing_alg_values_supported"]


def test_jwks_has_an_rsa_signing_key_with_kid(provider):
    keys = requests.get(provider.jwks_uri, timeout=10).json()["keys"]
    signing = [k for k in keys if k["kty"] == "RSA" and k.get("use") == "sig"]
    assert len(signing) == 1
    assert signing[0]["alg"] == "RS256" and signing[0]["kid"]
    assert len(base64.urlsafe_b64decode(signing[0]["n"] + "==")) * 8 == 2048


# --- the authorization-code flow ----------------------------------------------------------------


def test_code_flow_tokens_refresh_and_replay(provider, scripted_browser_env):
    with LoopbackListener() as listener:
        login, result = log_in(provider, scripted_browser_env, listener)

    # The scripted user stopped at the redirect and the listener got a fresh GET of it.
    params = result["callback_params"]
    assert params["state"] == login.state
    assert params["iss"] == provider.issuer
    assert result["callback_response"]["status"] == 200
    assert "Login complete" in result["callback_response"]["body"]
    assert len(listener.requests) == 1
    assert dict(parse_qsl(urlsplit(listener.requests[0]).query))["code"] == params["code"]

    response = login.exchange(params["code"])
    assert response.status_code == 200, response.text
    tokens = response.json()
    assert tokens["token_type"] == "Bearer"
    assert set(tokens["scope"].split()) == {"openid", "profile", "email"}

    claims = verify(tokens["id_token"], provider, iss=provider.issuer, aud="kcauth", exp=None)
    assert claims["nonce"] == login.nonce
    assert claims["typ"] == "ID" and claims["azp"] == "kcauth"
    assert claims["preferred_username"] == "alice"
    assert claims["email"] == "alice@example.test"
    assert claims["name"] == "Alice Liddell"
    assert (claims["given_name"], claims["family_name"]) == ("Alice", "Liddell")
    assert "developer" in claims["realm_access"]["roles"]

    access = verify(tokens["access_token"], provider, iss=provider.issuer, aud="account", exp=None)
    assert access["typ"] == "Bearer" and access["azp"] == "kcauth"
    assert access["sub"] == claims["sub"] and access["jti"]
    assert set(access["scope"].split()) == {"openid", "profile", "email"}
    assert "offline_access" in access["realm_access"]["roles"]
    assert access["exp"] - access["iat"] == tokens["expires_in"] == 300

    userinfo = requests.get(provider.userinfo_endpoint, timeout=10,
                            headers={"Authorization": "Bearer " + tokens["access_token"]})
    assert userinfo.status_code == 200 and userinfo.json()["preferred_username"] == "alice"

    # Rotation: a new refresh token (and a new ID token) on every refresh.
    refreshed = token_request(provider, grant_type="refresh_token", refresh_token=tokens["refresh_token"],
                              client_id="kcauth")
    assert refreshed.status_code == 200, refreshed.text
    new = refreshed.json()
    assert new["refresh_token"] != tokens["refresh_token"]
    assert new["access_token"] != tokens["access_token"]
    verify(new["id_token"], provider, iss=provider.issuer, aud="kcauth")

    # Replaying the old refresh token fails, and reuse protection kills the newest one too.
    replay = token_request(provider, grant_type="refresh_token", refresh_token=tokens["refresh_token"],
                           client_id="kcauth")
    assert (replay.status_code, replay.json()["error"]) == (400, "invalid_grant")
    newest = token_request(provider, grant_type="refresh_token", refresh_token=new["refresh_token"],
                           client_id="kcauth")
    assert (newest.status_code, newest.json()["error"]) == (400, "invalid_grant")

    refreshes = provider.token_requests("refresh_token")
    assert [e["status"] for e in refreshes] == [200, 400, 400]
    assert len(provider.token_requests("authorization_code")) == 1
    log_text = provider.request_log_path.read_text()
    for value in (tokens["access_token"], tokens["refresh_token"], new["refresh_token"], params["code"]):
        assert value not in log_text  # the log never holds a token or code


def test_without_reuse_protection_the_newest_token_survives_a_replay(start_provider, scripted_browser_env):
    provider = start_provider(reuse_protection=False, access_token_lifetime=42)
    with LoopbackListener() as listener:
        login, result = log_in(provider, scripted_browser_env, listener)
    tokens = login.exchange(result["callback_params"]["code"]).json()
    assert tokens["expires_in"] == 42
    new = token_request(provider, grant_type="refresh_token", refresh_token=tokens["refresh_token"],
                        client_id="kcauth").json()
    replay = token_request(provider, grant_type="refresh_token", refresh_token=tokens["refresh_token"],
                           client_id="kcauth")
    assert replay.status_code == 400
    assert token_request(provider, grant_type="refresh_token", refresh_token=new["refresh_token"],
                         client_id="kcauth").status_code == 200


@pytest.mark.parametrize("action", ["approve", "deny"])
def test_consent_page(provider, scripted_browser_env, action):
    scripted_browser_env["SCRIPTED_ACTION"] = action
    with LoopbackListener() as listener:
        login, result = log_in(provider, scripted_browser_env, listener, client_id="kcauth-consent")
    assert result["consent"] == action
    params = result["callback_params"]
    assert params["state"] == login.state and params["iss"] == provider.issuer
    if action == "deny":
        assert params["error"] == "access_denied" and "code" not in params
    else:
        assert login.exchange(params["code"]).status_code == 200


def test_wrong_password_is_reported(provider, tmp_path):
    login = Login(provider, "http://127.0.0.1:9/callback")
    result_file = tmp_path / "result.json"
    env = {**os.environ, "SCRIPTED_PASSWORD": "not-the-password", "SCRIPTED_RESULT": str(result_file)}
    completed = subprocess.run(scripted_user_command("login", login.url), env=env, timeout=30,
                               capture_output=True, text=True)
    assert completed.returncode == 3
    result = json.loads(result_file.read_text())
    assert result["error"] == "login rejected" and result["exit_code"] == 3 and not result["ok"]


def test_wrong_state_first_mode(provider, scripted_browser_env):
    scripted_browser_env["SCRIPTED_MODE"] = "wrong-state-first"
    with LoopbackListener() as listener:
        login, result = log_in(provider, scripted_browser_env, listener)
    assert result["tampered_callback_response"]["status"] == result["wrong_state_status"] == 200
    assert result["callback_status"] == 200 and "Login complete" in result["callback_body"]
    states = [dict(parse_qsl(urlsplit(path).query))["state"] for path in listener.requests]
    assert states == ["tampered-" + login.state, login.state]


def test_pkce_is_required_and_s256_only(provider, scripted_browser_env):
    with LoopbackListener() as listener:
        _, result = log_in(provider, scripted_browser_env, listener, code_challenge_method="plain")
    assert result["callback_params"]["error"] == "invalid_request"
    scripted_browser_env.result_path.unlink()
    with LoopbackListener() as listener:
        _, result = log_in(provider, scripted_browser_env, listener, code_challenge=None, code_challenge_method=None)
    assert result["callback_params"]["error"] == "invalid_request"


def test_code_exchange_with_wrong_verifier_fails(provider, scripted_browser_env):
    with LoopbackListener() as listener:
        login, result = log_in(provider, scripted_browser_env, listener)
    login.verifier = pkce_pair()[0]
    response = login.exchange(result["callback_params"]["code"])
    assert (response.status_code, response.json()["error"]) == (400, "invalid_grant")


# --- logout and revocation ----------------------------------------------------------------------


def test_backchannel_logout_revokes_the_refresh_token_family(provider, scripted_browser_env):
    with LoopbackListener() as listener:
        login, result = log_in(provider, scripted_browser_env, listener)
    tokens = login.exchange(result["callback_params"]["code"]).json()
    # Rotate once, so the family has two members.
    tokens = token_request(provider, grant_type="refresh_token", refresh_token=tokens["refresh_token"],
                           client_id="kcauth").json()

    response = requests.post(provider.end_session_endpoint, timeout=10,
                             data={"client_id": "kcauth", "refresh_token": tokens["refresh_token"]})
    assert response.status_code == 204 and response.content == b""
    after = token_request(provider, grant_type="refresh_token", refresh_token=tokens["refresh_token"],
                          client_id="kcauth")
    assert (after.status_code, after.json()["error"]) == (400, "invalid_grant")
    userinfo = requests.get(provider.userinfo_endpoint, timeout=10,
                            headers={"Authorization": "Bearer " + tokens["access_token"]})
    assert userinfo.status_code == 401
    missing = requests.post(provider.end_session_endpoint, data={"client_id": "kcauth"}, timeout=10)
    assert (missing.status_code, missing.json()["error"]) == (400, "invalid_request")


def test_revocation(provider, scripted_browser_env):
    with LoopbackListener() as listener:
        login, result = log_in(provider, scripted_browser_env, listener)
    tokens = login.exchange(result["callback_params"]["code"]).json()
    response = requests.post(provider.revocation_endpoint, timeout=10, data={
        "client_id": "kcauth", "token": tokens["refresh_token"], "token_type_hint": "refresh_token"})
    assert response.status_code == 200 and response.content == b""
    after = token_request(provider, grant_type="refresh_token", refresh_token=tokens["refresh_token"],
                          client_id="kcauth")
    assert (after.status_code, after.json()["error"]) == (400, "invalid_grant")


# --- fault switches -----------------------------------------------------------------------------


def test_fault_tamper_id_token_signature(start_provider, scripted_browser_env):
    provider = start_provider(fault="tamper-id-token-signature")
    with LoopbackListener() as listener:
        login, result = log_in(provider, scripted_browser_env, listener)
    tokens = login.exchange(result["callback_params"]["code"]).json()
    with pytest.raises(jws.InvalidJWSSignature):
        verify(tokens["id_token"], provider)
    verify(tokens["access_token"], provider)  # only the ID token is broken


def test_fault_wrong_iss_on_callback(start_provider, scripted_browser_env):
    provider = start_provider(fault="wrong-iss-on-callback")
    with LoopbackListener() as listener:
        _, result = log_in(provider, scripted_browser_env, listener)
    assert result["callback_params"]["iss"] == "http://evil.example"
    assert requests.get(provider.discovery_url, timeout=10).json()["issuer"] == provider.issuer


def test_faults_a_careful_client_must_catch(start_provider, scripted_browser_env):
    # Faults combine; each of these leaves a validly signed token or a plausible redirect.
    provider = start_provider(faults=["wrong-id-token-nonce", "wrong-id-token-aud", "wrong-id-token-iss",
                                      "missing-iss-on-callback", "discovery-wrong-issuer"])
    assert requests.get(provider.discovery_url, timeout=10).json()["issuer"] != provider.issuer
    with LoopbackListener() as listener:
        login, result = log_in(provider, scripted_browser_env, listener)
    assert "iss" not in result["callback_params"]
    claims = verify(login.exchange(result["callback_params"]["code"]).json()["id_token"], provider)
    assert claims["nonce"] != login.nonce
    assert claims["aud"] != "kcauth"
    assert claims["iss"] != provider.issuer


def test_fault_token_endpoint_500(start_provider, scripted_browser_env):
    provider = start_provider(fault="token-endpoint-500")
    with LoopbackListener() as listener:
        login, result = log_in(provider, scripted_browser_env, listener)
    response = login.exchange(result["callback_params"]["code"])
    assert response.status_code == 500 and response.headers["Content-Type"].startswith("text/html")


def test_unknown_fault_is_refused(start_provider):
    with pytest.raises(ValueError):
        start_provider(fault="no-such-fault")


# --- the device grant ---------------------------------------------------------------------------


def start_device(provider, client_id="kcauth", scope="openid profile email", pkce=True):
    verifier, challenge = pkce_pair()
    data = {"client_id": client_id, "scope": scope}
    if pkce:
        data.update(code_challenge=challenge, code_challenge_method="S256")
    response = requests.post(provider.device_authorization_endpoint, data=data, timeout=10)
    return response, verifier


def poll(provider, device_code, verifier, client_id="kcauth"):
    data = {"grant_type": DEVICE_GRANT, "device_code": device_code, "client_id": client_id}
    if verifier:
        data["code_verifier"] = verifier
    return token_request(provider, **data)


def test_device_flow(start_provider, tmp_path):
    provider = start_provider(device_interval=1)
    response, verifier = start_device(provider)
    assert response.status_code == 200, response.text
    grant = response.json()
    assert grant["verification_uri"] == provider.issuer + "/device"
    assert grant["verification_uri_complete"] == provider.issuer + "/device?user_code=" + grant["user_code"]
    assert grant["interval"] == 1 and grant["expires_in"] == 600
    assert len(grant["user_code"]) == 9 and grant["user_code"][4] == "-"

    pending = poll(provider, grant["device_code"], verifier)
    assert (pending.status_code, pending.json()["error"]) == (400, "authorization_pending")
    too_fast = poll(provider, grant["device_code"], verifier)
    assert (too_fast.status_code, too_fast.json()["error"]) == (400, "slow_down")

    result_file = tmp_path / "device.json"
    completed = subprocess.run(scripted_user_command("device", grant["verification_uri_complete"]),
                               env={**os.environ, "SCRIPTED_RESULT": str(result_file)}, timeout=30)
    result = json.loads(result_file.read_text())
    assert completed.returncode == 0, result
    assert result["device_status"] == "authorized" and result["user_code"] == grant["user_code"]

    time.sleep(1.05)
    wrong = poll(provider, grant["device_code"], pkce_pair()[0])
    assert (wrong.status_code, wrong.json()["error"]) == (400, "invalid_grant")
    time.sleep(1.05)
    tokens = poll(provider, grant["device_code"], verifier)
    assert tokens.status_code == 200, tokens.text
    body = tokens.json()
    claims = verify(body["id_token"], provider, iss=provider.issuer, aud="kcauth")
    assert claims["preferred_username"] == "alice" and "nonce" not in claims
    assert body["refresh_token"]
    refreshed = token_request(provider, grant_type="refresh_token", refresh_token=body["refresh_token"],
                              client_id="kcauth")
    assert refreshed.status_code == 200

    time.sleep(1.05)
    again = poll(provider, grant["device_code"], verifier)
    assert (again.status_code, again.json()["error"]) == (400, "invalid_grant")  # single use
    unknown = poll(provider, "no-such-device-code", verifier)
    assert (unknown.status_code, unknown.json()["error"]) == (400, "invalid_grant")
    missing = token_request(provider, grant_type=DEVICE_GRANT, client_id="kcauth")
    assert (missing.status_code, missing.json()["error"]) == (400, "invalid_request")
    errors = [e.get("error") for e in provider.token_requests(DEVICE_GRANT)]
    assert errors == ["authorization_pending", "slow_down", "invalid_grant", None, "invalid_grant",
                      "invalid_grant", "invalid_request"]


def test_device_flow_denied_and_scripted_browser_detects_device_urls(start_provider, scripted_browser_env):
    provider = start_provider(device_interval=1, device_slow_down=False)
    grant = start_device(provider)[0].json()
    scripted_browser_env["SCRIPTED_ACTION"] = "deny"
    result = open_browser(scripted_browser_env, grant["verification_uri_complete"])
    assert result["flow"] == "device" and result["device_status"] == "denied", result
    response, verifier = poll(provider, grant["device_code"], None), None
    assert (response.status_code, response.json()["error"]) == (400, "access_denied")


def test_device_request_rules(provider):
    no_pkce, _ = start_device(provider, pkce=False)
    assert (no_pkce.status_code, no_pkce.json()["error"]) == (400, "invalid_request")
    disabled, _ = start_device(provider, client_id="kcauth-nodevice")
    assert (disabled.status_code, disabled.json()["error"]) == (400, "unauthorized_client")
    unknown, _ = start_device(provider, client_id="nobody")
    assert (unknown.status_code, unknown.json()["error"]) == (401, "invalid_client")


# --- process hygiene ----------------------------------------------------------------------------


def test_stop_leaves_no_process_and_no_files(start_provider):
    provider = start_provider()
    pid, run_dir = provider.pid, provider._process.run_dir
    assert pid_alive(pid) and run_dir.exists()
    provider.stop()
    assert not pid_alive(pid)
    assert not run_dir.exists()
    provider.stop()  # idempotent


def test_scripted_browser_is_executable():
    assert os.access(SCRIPTED_BROWSER, os.X_OK)
