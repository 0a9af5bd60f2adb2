"""The OAuth2/OIDC request validator: Keycloak-like claims and two grants on one client."""

from oauth2_provider.oauth2_validators import OAuth2Validator

from .claims import profile_claims, realm_roles
from . import interop
from .config import CONFIG
from .realm import DEVICE_GRANT_CLIENTS

DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"


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
        return super().validate_grant_type(client_id, grant_type, client, request, *args, **kwargs)
