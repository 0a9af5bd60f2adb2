"""The OAuth2/OIDC request validator: Keycloak-like claims and two grants on one client."""

import base64
from urllib.parse import unquote_plus

from oauth2_provider.oauth2_validators import OAuth2Validator
from oauthlib.oauth2.rfc6749 import errors

from . import client_assertions
from .claims import profile_claims, realm_roles
from . import interop
from .config import CONFIG
from .realm import (
    CLIENT_CREDENTIALS_CLIENTS,
    CLIENT_CREDENTIALS_GRANT,
    CONFIDENTIAL_CLIENTS,
    DEVICE_GRANT,
    DEVICE_GRANT_CLIENTS,
)


class KeycloakLikeValidator(OAuth2Validator):
    # Keycloak's `profile` and `email` are default client scopes: their claims come with any openid
    # request. None tells DOT not to filter claims by scope.
    oidc_claim_scope = None

    def get_additional_claims(self, request):
        # Used for the ID token and userinfo; overrides DOT's `sub` (the primary key).
        return profile_claims(request.user)

    def get_discovery_claims(self, request):
        # With a request-dependent get_additional_claims DOT can only list `sub`; list ours.
        return [
            "sub", "iss", "aud", "exp", "iat", "auth_time", "azp", "typ", "nonce", "at_hash",
            "preferred_username", "name", "given_name", "family_name", "email", "email_verified",
            "realm_access",
        ]

    def get_id_token_dictionary(self, token, token_handler, request):
        claims, expiration_time = super().get_id_token_dictionary(token, token_handler, request)
        claims["typ"] = "ID"
        claims["azp"] = request.client_id or request.client.client_id
        claims["realm_access"] = {"roles": realm_roles(request.user)}
        # Faults: validly signed ID tokens that a client must still reject. The values set here
        # override what oauthlib put in (aud, nonce) because DOT merges them last.
        if CONFIG.fault("wrong-id-token-nonce"):
            claims["nonce"] = "not-the-nonce-you-sent"
        if CONFIG.fault("wrong-id-token-aud"):
            claims["aud"] = "some-other-client"
        if CONFIG.fault("wrong-id-token-iss"):
            claims["iss"] = "http://evil.example/realms/demo"
        # Interop switch: numbers of any shape, or claims left out (only `sub`), validly signed.
        claims = interop.merged(claims, CONFIG.id_token_overrides)
        return claims, expiration_time

    def validate_grant_type(self, client_id, grant_type, client, request, *args, **kwargs):
        # A DOT Application has one grant type; a Keycloak client can use the code and the device
        # grant at once. The seeded clients are registered for the code grant, and the ones that
        # have Keycloak's device switch on also get the device grant here.
        if grant_type == DEVICE_GRANT and request.client.client_id in DEVICE_GRANT_CLIENTS:
            return True
        # Keycloak's "Service accounts roles" switch.
        if grant_type == CLIENT_CREDENTIALS_GRANT and request.client.client_id in CLIENT_CREDENTIALS_CLIENTS:
            return True
        return super().validate_grant_type(client_id, grant_type, client, request, *args, **kwargs)

    def authenticate_client(self, request, *args, **kwargs):
        """DOT's client_secret_basic/post, plus RFC 7523 assertions (private_key_jwt and
        federated), each accepted only by the clients registered for it, as in Keycloak where a
        client has one authenticator. Rejections carry a description (401 invalid_client)."""
        assertion = getattr(request, "client_assertion", None)
        assertion_type = getattr(request, "client_assertion_type", None)
        sent_secret = bool(self._extract_basic_auth(request) or getattr(request, "client_secret", None))
        if assertion or assertion_type:
            if sent_secret:
                # RFC 6749 §2.3: "MUST NOT use more than one authentication method".
                raise errors.InvalidClientError(
                    description="More than one client authentication method was used", request=request)
            try:
                client_id = client_assertions.authenticate(assertion_type, assertion, request.client_id)
            except client_assertions.InvalidClient as e:
                raise errors.InvalidClientError(description=str(e), request=request) from None
            if self._load_application(client_id, request) is None:
                raise errors.InvalidClientError(description="Invalid client", request=request)
            request.client_id = client_id
            return True
        claimed = request.client_id or self._basic_client_id(request)
        authenticated = super().authenticate_client(request, *args, **kwargs)
        spec = CONFIDENTIAL_CLIENTS.get(claimed)
        if authenticated and spec and spec["auth"] != "secret":
            raise errors.InvalidClientError(
                description="This client authenticates with a signed JWT, not a secret", request=request)
        if not authenticated and spec:
            raise errors.InvalidClientError(
                description="Invalid client or Invalid client credentials", request=request)
        return authenticated

    def _basic_client_id(self, request):
        """The client id in an Authorization: Basic header (RFC 6749 §2.3.1), or None."""
        encoded = self._extract_basic_auth(request)
        try:
            return unquote_plus(base64.b64decode(encoded).decode("utf-8").split(":", 1)[0]) if encoded else None
        except (ValueError, UnicodeDecodeError):
            return None
