"""oauthlib server classes: an ID token from the device grant, and a configurable device-code life."""

import json

from oauthlib.oauth2 import DeviceApplicationServer
from oauthlib.oauth2.rfc6749 import errors
from oauthlib.oauth2.rfc8628.grant_types import DeviceCodeGrant
from oauthlib.openid import Server
from oauthlib.openid.connect.core.grant_types.base import GrantTypeBase as OpenIDGrantBase

from .config import CONFIG
from .realm import DEVICE_GRANT


class DeviceCodeGrantWithIDToken(DeviceCodeGrant):
    """oauthlib's device grant never adds an id_token; Keycloak's does when `openid` was granted."""

    # Borrow the OpenID grants' helpers; they only need self.request_validator.
    add_id_token = OpenIDGrantBase.add_id_token
    id_token_hash = OpenIDGrantBase.id_token_hash

    def create_token_response(self, request, token_handler):
        # Same steps as DeviceCodeGrant.create_token_response, plus the ID token before saving,
        # so that DOT links it to the access token (RP-initiated logout relies on that link).
        headers = self._get_default_headers()
        try:
            if self.request_validator.client_authentication_required(
                request
            ) and not self.request_validator.authenticate_client(request):
                raise errors.InvalidClientError(request=request)
            self.validate_token_request(request)
        except errors.OAuth2Error as e:
            headers.update(e.headers)
            return headers, e.json, e.status_code

        token = token_handler.create_token(request, self.refresh_token)
        token = self.add_id_token(token, token_handler, request)
        self.request_validator.save_token(token, request)
        return headers, json.dumps(token), 200


class KeycloakLikeServer(Server):
    """The OIDC server DOT uses for the token, revoke, introspect and userinfo endpoints."""

    def __init__(
        self,
        request_validator,
        token_expires_in=None,
        token_generator=None,
        refresh_token_generator=None,
        **kwargs,
    ):
        super().__init__(
            request_validator, token_expires_in, token_generator, refresh_token_generator, **kwargs
        )
        # The rest of kwargs is what oauthlib hands its own device grant (DOT's pre_token hook,
        # which sets request.user from the approved device grant, is among them).
        self.device_code_grant = DeviceCodeGrantWithIDToken(request_validator, **kwargs)
        self.grant_types[DEVICE_GRANT] = self.device_code_grant


class KeycloakLikeDeviceServer(DeviceApplicationServer):
    """The device authorization endpoint; oauthlib fixes the code's life at 1800 s, Keycloak uses 600."""

    def __init__(self, request_validator, *args, **kwargs):
        super().__init__(request_validator, *args, **kwargs)
        self._expires_in = CONFIG.device_code_lifespan
