"""RS256 JWT access tokens shaped like Keycloak's (stock DOT issues opaque random strings)."""

import functools
import json
import time
import uuid

from jwcrypto import jwt
from oauth2_provider.settings import oauth2_settings
from oauth2_provider.utils import jwk_from_pem

from .claims import profile_claims, realm_roles, service_account_subject
from . import dpop
from .config import CONFIG


@functools.lru_cache(maxsize=1)
def signing_key():
    """The realm's RSA key as a JWK (parsing the PEM on every token would be wasted work)."""
    return jwk_from_pem(oauth2_settings.OIDC_RSA_PRIVATE_KEY)


def jwt_access_token(request):
    """oauthlib token generator: called with the oauthlib request once the grant is validated.

    request.user, request.client, request.scopes and request.expires_in are set by then, for the
    code, refresh and device grants alike.
    """
    key = signing_key()
    now = int(time.time())
    user = request.user
    scopes = list(request.scopes or [])
    claims = {
        "exp": now + int(request.expires_in),
        "iat": now,
        "jti": str(uuid.uuid4()),
        "iss": CONFIG.issuer,
        # Keycloak's access tokens are for the `account` client unless an audience mapper adds more.
        "aud": "account",
        "typ": "Bearer",
        "azp": request.client_id or request.client.client_id,
        "scope": " ".join(scopes),
    }
    if user is not None and user.is_authenticated:
        claims.update(profile_claims(user))
        claims["realm_access"] = {"roles": realm_roles(user)}
    elif request.grant_type == "client_credentials":
        # Keycloak issues client-credentials tokens to the client's service-account user.
        client_id = request.client.client_id
        claims["sub"] = service_account_subject(client_id)
        claims["preferred_username"] = f"service-account-{client_id}"
        claims["client_id"] = client_id
    jkt = dpop.current_jkt()
    if jkt:
        claims["cnf"] = {"jkt": jkt}  # RFC 9449 §6.1
    header = {"alg": "RS256", "typ": "JWT", "kid": key.thumbprint()}
    token = jwt.JWT(header=json.dumps(header, separators=(",", ":")), claims=json.dumps(claims, separators=(",", ":")))
    token.make_signed_token(key)
    return token.serialize()
