"""Keycloak's URL layout for one realm, `demo`.

DOT builds discovery, the issuer and the device links with reverse("oauth2_provider:<name>"), so
mounting its views under these names in the `oauth2_provider` namespace moves every link with them.
Paths have no trailing slash, as in Keycloak.
"""

from django.urls import include, path, re_path
from oauth2_provider import views as dot

from . import par, views
from .config import ISSUER_PATH

OIDC = "protocol/openid-connect"

realm_patterns = [
    re_path(r"^\.well-known/openid-configuration$", views.DiscoveryView.as_view(), name="oidc-connect-discovery-info"),
    # RFC 8414 metadata, which Keycloak also serves under the realm.
    path(".well-known/oauth-authorization-server", dot.OAuthServerMetadataView.as_view(), name="oauth-server-metadata"),
    path(f"{OIDC}/auth", views.AuthorizationView.as_view(), name="authorize"),
    path(par.PATH, par.push, name="pushed-authorization-request"),
    path(f"{OIDC}/auth/device", views.DeviceAuthorizationView.as_view(), name="device-authorization"),
    path(f"{OIDC}/token", views.TokenView.as_view(), name="token"),
    path(f"{OIDC}/token/introspect", dot.IntrospectTokenView.as_view(), name="introspect"),
    path(f"{OIDC}/userinfo", views.userinfo, name="user-info"),
    path(f"{OIDC}/logout", views.logout, name="rp-initiated-logout"),
    path(f"{OIDC}/certs", dot.JwksInfoView.as_view(), name="jwks-info"),
    path(f"{OIDC}/revoke", views.revoke, name="revoke-token"),
    # The device flow's pages for the user: enter the code, approve or deny, see the outcome.
    path("device", dot.DeviceUserCodeView.as_view(), name="device"),
    path("device/confirm/<slug:client_id>/<slug:user_code>", dot.DeviceConfirmView.as_view(), name="device-confirm"),
    path(
        "device/status/<slug:client_id>/<slug:user_code>",
        dot.DeviceGrantStatusView.as_view(),
        name="device-grant-status",
    ),
]

urlpatterns = [
    path(f"{ISSUER_PATH}/", include((realm_patterns, "oauth2_provider"))),
    path(f"{ISSUER_PATH}/login", views.KeycloakLoginView.as_view(), name="login"),
]
