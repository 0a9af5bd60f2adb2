"""Confidential clients at the local provider, without kcauth: client_secret_basic and
client_secret_post (RFC 6749 §2.3.1), private_key_jwt (RFC 7523 §2.2, OpenID Connect Core §9)
and platform-signed (federated) assertions, each accepted and each forgery or mistake refused.

These pin down the provider the CLI's end-to-end tests run against (confidential
clients: RFC 6749 §2.3, RFC 7523).
"""

import base64
import json
import time
import uuid
from pathlib import Path
from urllib.parse import parse_qsl, quote_plus, urlsplit

import pytest
import requests
from jwcrypto import jwk, jwt

from provider import PROVIDER_DIR, start_provider as start_one
from test_provider_smoke import Login, LoopbackListener, open_browser, verify

KEYS = PROVIDER_DIR / "kcprovider" / "client_keys"
ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
SECRET = "s3cret:+/ &%=é"  # realm.py CONFIDENTIAL_SECRET
PLATFORM = "https://platform.example.test"
WORKLOAD = "system:serviceaccount:ci:kcauth-federated"


def key(name):
    return jwk.JWK.from_pem((KEYS / name).read_bytes())


def basic(client_id, secret):
    """RFC 6749 §2.3.1: form-encode id and secret, then HTTP Basic (RFC 7617)."""
    pair = f"{quote_plus(client_id)}:{quote_plus(secret)}"
    return {"Authorization": "Basic " + base64.b64encode(pair.encode()).decode()}


def sign(claims, signing_key, alg, kid):
    header = {"alg": alg, "typ": "JWT"}
    if kid:
        header["kid"] = kid
    token = jwt.JWT(header=header, claims=claims)
    token.make_signed_token(signing_key)
    return token.serialize()


def assertion(provider, client_id="kcauth-jwt", signing_key=None, alg="ES256", kid="kcauth-jwt-ec", **overrides):
    """A private_key_jwt assertion as kcauth makes it: iss = sub = client_id, aud = token
    endpoint, fresh jti, 60 s life; `overrides` replace claims (None removes one)."""
    now = int(time.time())
    claims = {"iss": client_id, "sub": client_id, "aud": provider.token_endpoint,
              "jti": str(uuid.uuid4()), "iat": now, "exp": now + 60}
    claims.update(overrides)
    claims = {k: v for k, v in claims.items() if v is not None}
    return sign(claims, signing_key or key("kcauth-jwt-ec.pem"), alg, kid)


def platform_token(provider, signing_key=None, **overrides):
    """What a Kubernetes projected service-account token looks like to the provider."""
    now = int(time.time())
    claims = {"iss": PLATFORM, "sub": WORKLOAD, "aud": [provider.token_endpoint],
              "jti": str(uuid.uuid4()), "iat": now, "nbf": now, "exp": now + 600,
              "kubernetes.io": {"namespace": "ci", "serviceaccount": {"name": "kcauth-federated"}}}
    claims.update(overrides)
    return sign(claims, signing_key or key("platform.pem"), "RS256", "platform-1")


def client_credentials(provider, client_id=None, assertion_value=None, headers=None, **data):
    form = {"grant_type": "client_credentials", **data}
    if client_id:
        form["client_id"] = client_id
    if assertion_value is not None:
        form.update(client_assertion_type=ASSERTION_TYPE, client_assertion=assertion_value)
    return requests.post(provider.token_endpoint, data=form, headers=headers or {}, timeout=10)


def rejected(response, description=None):
    """401 invalid_client (RFC 6749 §5.2), optionally with this error_description."""
    assert response.status_code == 401, response.text
    body = response.json()
    assert body["error"] == "invalid_client", body
    if description:
        assert body.get("error_description") == description, body
    return True


@pytest.fixture(scope="module")
def provider():
    """One provider for the module (each start costs about a second): these tests never depend on
    each other's state, since every assertion has its own jti. Tests that read the request log
    start their own with `start_provider`."""
    started = start_one()
    yield started
    started.stop()


# --- discovery ----------------------------------------------------------------------------------


def test_discovery_advertises_what_the_token_endpoint_accepts(provider):
    doc = requests.get(provider.discovery_url, timeout=10).json()
    assert doc["token_endpoint_auth_methods_supported"] == ["client_secret_basic", "client_secret_post", "private_key_jwt"]
    assert doc["token_endpoint_auth_signing_alg_values_supported"] == ["RS256", "PS256", "ES256"]
    assert "client_credentials" in doc["grant_types_supported"]


# --- client secrets -----------------------------------------------------------------------------


def test_client_secret_basic_gets_a_service_account_token(start_provider):
    provider = start_provider()
    response = client_credentials(provider, headers=basic("kcauth-confidential", SECRET), scope="profile")
    assert response.status_code == 200, response.text
    tokens = response.json()
    # RFC 6749 §4.4.3: no refresh token; and no ID token, there is no user.
    assert "refresh_token" not in tokens and "id_token" not in tokens
    assert tokens["token_type"] == "Bearer" and tokens["expires_in"] == 300
    claims = verify(tokens["access_token"], provider, iss=provider.issuer, exp=None)
    assert claims["azp"] == "kcauth-confidential"
    assert claims["preferred_username"] == "service-account-kcauth-confidential"
    assert claims["sub"] and claims["scope"] == "profile"
    assert provider.token_requests("client_credentials")[-1]["status"] == 200


def test_client_secret_post_gets_a_token(provider):
    response = client_credentials(provider, client_id="kcauth-confidential", client_secret=SECRET)
    assert response.status_code == 200, response.text


def test_basic_without_form_encoding_fails_for_a_secret_that_needs_it(provider):
    # '+' decodes to ' ' and '%=' is a broken escape: the RFC 6749 §2.3.1 encoding is not optional.
    raw = base64.b64encode(f"kcauth-confidential:{SECRET}".encode()).decode()
    assert rejected(client_credentials(provider, headers={"Authorization": "Basic " + raw}))


@pytest.mark.parametrize("how", ["basic", "post"])
def test_a_wrong_secret_is_invalid_client(provider, how):
    if how == "basic":
        response = client_credentials(provider, headers=basic("kcauth-confidential", SECRET + "x"))
    else:
        response = client_credentials(provider, client_id="kcauth-confidential", client_secret="nope")
    assert rejected(response, "Invalid client or Invalid client credentials")


def test_a_confidential_client_without_credentials_is_refused(provider):
    assert rejected(client_credentials(provider, client_id="kcauth-confidential"))


def test_a_public_client_gets_no_client_credentials_token(provider):
    response = client_credentials(provider, client_id="kcauth")
    assert response.status_code in (400, 401) and response.json()["error"] in ("invalid_client", "unauthorized_client")


# --- private_key_jwt ----------------------------------------------------------------------------


@pytest.mark.parametrize("alg,key_file,kid", [
    ("RS256", "kcauth-jwt-rsa.pem", "kcauth-jwt-rsa"),
    ("PS256", "kcauth-jwt-rsa.pem", "kcauth-jwt-rsa"),
    ("ES256", "kcauth-jwt-ec.pem", "kcauth-jwt-ec"),
    ("ES256", "kcauth-jwt-ec.pem", None),  # no kid: every registered key is tried
])
def test_private_key_jwt_gets_a_token(provider, alg, key_file, kid):
    signed = assertion(provider, signing_key=key(key_file), alg=alg, kid=kid)
    response = client_credentials(provider, client_id="kcauth-jwt", assertion_value=signed)
    assert response.status_code == 200, response.text
    assert verify(response.json()["access_token"], provider, exp=None)["azp"] == "kcauth-jwt"


def test_client_id_is_optional_with_an_assertion(provider):
    # RFC 7521 §4.2: the assertion's iss names the client.
    response = client_credentials(provider, assertion_value=assertion(provider))
    assert response.status_code == 200, response.text


def test_a_replayed_assertion_is_refused(provider):
    signed = assertion(provider)
    assert client_credentials(provider, client_id="kcauth-jwt", assertion_value=signed).status_code == 200
    assert rejected(client_credentials(provider, client_id="kcauth-jwt", assertion_value=signed), "Token reuse detected")


def test_the_same_jti_in_a_new_assertion_is_a_replay_too(provider):
    jti = str(uuid.uuid4())
    assert client_credentials(provider, assertion_value=assertion(provider, jti=jti)).status_code == 200
    assert rejected(client_credentials(provider, assertion_value=assertion(provider, jti=jti)), "Token reuse detected")


@pytest.mark.parametrize("overrides,description", [
    ({"exp": int(time.time()) - 120}, "Token is not active"),
    ({"exp": None}, "Client assertion has no numeric exp"),
    ({"exp": "soon"}, "Client assertion has no numeric exp"),
    ({"exp": int(time.time()) + 7200}, "Client assertion expires too far in the future"),
    ({"nbf": int(time.time()) + 600}, "Token is not active"),
    ({"aud": "https://elsewhere.example/token"}, "Invalid token audience"),
    ({"aud": None}, "Invalid token audience"),
    ({"iss": "someone-else"}, None),
    ({"sub": "someone-else"}, "Client assertion iss and sub must both be the client_id"),
    ({"jti": None}, "Client assertion has no jti"),
])
def test_a_wrong_assertion_is_refused(provider, overrides, description):
    # Made at collection time, the times above are at most seconds old: far from the limits.
    signed = assertion(provider, **overrides)
    assert rejected(client_credentials(provider, client_id="kcauth-jwt", assertion_value=signed), description)


def test_an_assertion_signed_by_an_unregistered_key_is_refused(provider):
    stranger = jwk.JWK.generate(kty="EC", crv="P-256")
    signed = assertion(provider, signing_key=stranger, kid="kcauth-jwt-ec")
    assert rejected(client_credentials(provider, client_id="kcauth-jwt", assertion_value=signed),
                    "Signature on JWT token failed validation")
    unknown_kid = assertion(provider, kid="not-registered")
    assert rejected(client_credentials(provider, client_id="kcauth-jwt", assertion_value=unknown_kid))


def test_a_tampered_assertion_is_refused(provider):
    header, payload, signature = assertion(provider).split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=="))
    claims["exp"] += 30
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    assert rejected(client_credentials(provider, client_id="kcauth-jwt", assertion_value=f"{header}.{forged}.{signature}"))


@pytest.mark.parametrize("alg", ["HS256", "none"])
def test_symmetric_and_unsigned_assertions_are_refused(provider, alg):
    now = int(time.time())
    claims = {"iss": "kcauth-jwt", "sub": "kcauth-jwt", "aud": provider.token_endpoint, "jti": str(uuid.uuid4()),
              "exp": now + 60}
    head = base64.urlsafe_b64encode(json.dumps({"alg": alg}).encode()).rstrip(b"=").decode()
    body = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    assert rejected(client_credentials(provider, client_id="kcauth-jwt", assertion_value=f"{head}.{body}.c2ln"))


def test_a_secret_cannot_stand_in_for_an_assertion_nor_be_added_to_one(provider):
    assert rejected(client_credentials(provider, client_id="kcauth-jwt", client_secret="guess"))
    both = client_credentials(provider, client_id="kcauth-confidential", client_secret=SECRET,
                              assertion_value=assertion(provider, client_id="kcauth-confidential"))
    assert rejected(both, "More than one client authentication method was used")
    # A secret client's own credentials do not work as an assertion client's.
    assert rejected(client_credentials(provider, client_id="kcauth-confidential",
                                       assertion_value=assertion(provider, client_id="kcauth-confidential")))


def test_wrong_assertion_type_is_refused(provider):
    response = requests.post(provider.token_endpoint, timeout=10, data={
        "grant_type": "client_credentials", "client_id": "kcauth-jwt",
        "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:saml2-bearer",
        "client_assertion": assertion(provider)})
    assert rejected(response, "Parameter client_assertion_type is missing or invalid")


def test_the_issuer_as_audience_is_accepted_by_default(provider):
    signed = assertion(provider, aud=provider.issuer)
    assert client_credentials(provider, client_id="kcauth-jwt", assertion_value=signed).status_code == 200


def test_a_strict_provider_accepts_only_the_token_endpoint(start_provider):
    strict = start_provider(assertion_audience="token-endpoint")
    assert rejected(client_credentials(strict, client_id="kcauth-jwt", assertion_value=assertion(strict, aud=strict.issuer)),
                    "Invalid token audience")
    assert client_credentials(strict, client_id="kcauth-jwt", assertion_value=assertion(strict)).status_code == 200
    # An audience list (RFC 7519 §4.1.3) passes when it contains the token endpoint.
    listed = assertion(strict, aud=["https://other.example", strict.token_endpoint])
    assert client_credentials(strict, client_id="kcauth-jwt", assertion_value=listed).status_code == 200


# --- the user flows of a confidential client ----------------------------------------------------


def test_code_flow_of_a_private_key_jwt_client(provider, scripted_browser_env):
    with LoopbackListener() as listener:
        login = Login(provider, listener.redirect_uri, client_id="kcauth-jwt")
        result = open_browser(scripted_browser_env, login.url)
        assert result["ok"], result
    code = result["callback_params"]["code"]
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": login.redirect_uri,
            "client_id": "kcauth-jwt", "code_verifier": login.verifier}
    # Without client authentication a confidential client's code is not redeemed...
    assert rejected(requests.post(provider.token_endpoint, data=form, timeout=10))
    # ...with an assertion it is, and the refresh grant authenticates the same way.
    response = requests.post(provider.token_endpoint, timeout=10, data={
        **form, "client_assertion_type": ASSERTION_TYPE, "client_assertion": assertion(provider)})
    assert response.status_code == 200, response.text
    tokens = response.json()
    assert verify(tokens["id_token"], provider, aud="kcauth-jwt", exp=None)["preferred_username"] == "alice"
    refreshed = requests.post(provider.token_endpoint, timeout=10, data={
        "grant_type": "refresh_token", "refresh_token": tokens["refresh_token"], "client_id": "kcauth-jwt",
        "client_assertion_type": ASSERTION_TYPE, "client_assertion": assertion(provider)})
    assert refreshed.status_code == 200, refreshed.text


def test_device_authorization_of_a_confidential_client_needs_its_secret(provider):
    data = {"client_id": "kcauth-confidential", "scope": "openid",
            "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "code_challenge_method": "S256"}
    ok = requests.post(provider.device_authorization_endpoint, data=data, headers=basic("kcauth-confidential", SECRET), timeout=10)
    assert ok.status_code == 200, ok.text
    assert ok.json()["user_code"]
    assert rejected(requests.post(provider.device_authorization_endpoint, data=data,
                                  headers=basic("kcauth-confidential", "wrong"), timeout=10))


# --- federated: an assertion the platform signed ------------------------------------------------


def test_a_platform_token_authenticates_the_federated_client_and_may_be_reused(provider):
    token = platform_token(provider)
    for _ in range(2):  # a projected token serves many requests until the platform rotates it
        response = client_credentials(provider, client_id="kcauth-federated", assertion_value=token)
        assert response.status_code == 200, response.text
    assert verify(response.json()["access_token"], provider, exp=None)["azp"] == "kcauth-federated"
    # Found by (iss, sub) when the request names no client.
    assert client_credentials(provider, assertion_value=platform_token(provider)).status_code == 200


@pytest.mark.parametrize("change", ["wrong-subject", "wrong-issuer", "client-key", "expired", "wrong-aud"])
def test_a_wrong_platform_token_is_refused(provider, change):
    token = {
        "wrong-subject": lambda: platform_token(provider, sub="system:serviceaccount:ci:someone-else"),
        "wrong-issuer": lambda: platform_token(provider, iss="https://evil.example"),
        # Signed by the kcauth-jwt client's key, not the platform's.
        "client-key": lambda: platform_token(provider, signing_key=key("kcauth-jwt-rsa.pem")),
        "expired": lambda: platform_token(provider, exp=int(time.time()) - 60),
        "wrong-aud": lambda: platform_token(provider, aud=["https://kubernetes.default.svc"]),
    }[change]()
    assert rejected(client_credentials(provider, client_id="kcauth-federated", assertion_value=token))


def test_a_self_signed_assertion_does_not_authenticate_the_federated_client(provider):
    signed = assertion(provider, client_id="kcauth-federated", signing_key=key("platform.pem"), alg="RS256", kid="platform-1")
    assert rejected(client_credentials(provider, client_id="kcauth-federated", assertion_value=signed),
                    "Client assertion is not from the trusted platform")


def test_error_answers_and_the_request_log_never_carry_the_credentials(start_provider):
    provider = start_provider()
    signed = assertion(provider)
    client_credentials(provider, client_id="kcauth-jwt", assertion_value=signed)
    client_credentials(provider, client_id="kcauth-jwt", assertion_value=signed)  # replay
    client_credentials(provider, client_id="kcauth-confidential", client_secret=SECRET + "x")
    log = provider.request_log_path.read_text()
    assert signed.split(".")[2] not in log and SECRET not in log and "s3cret" not in log
    errors = [e.get("error") for e in provider.token_requests("client_credentials")]
    assert errors.count("invalid_client") == 2
