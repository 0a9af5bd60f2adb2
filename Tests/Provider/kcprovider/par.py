"""Pushed authorization requests (RFC 9126), shaped like Keycloak's (keycloak-26.md §k).

`POST …/protocol/openid-connect/ext/par/request` takes the authorization parameters and the
client's authentication and answers 201 {"request_uri": "urn:ietf:params:oauth:request_uri:…",
"expires_in": PROVIDER_PAR_LIFETIME}. The authorization endpoint then takes `client_id` and
`request_uri` only: the request_uri is bound to the client, expires after its lifetime, and is
single use (the first browser that presents it claims it, through its login, until the code is
issued; no other browser may use it, and it is gone once used). With PROVIDER_PAR=required an
ordinary authorization request is refused with `invalid_request`, as Keycloak's client policy
does; PROVIDER_PAR_ADVERTISED=0 leaves the endpoint out of discovery (Keycloak says
`require_pushed_authorization_requests: false` even then).

In process memory, which is one more reason the provider runs one worker.
"""

import secrets
import threading
import time

from django import http
from django.views.decorators.csrf import csrf_exempt
from oauth2_provider.oauth2_backends import get_oauthlib_core
from oauth2_provider.settings import oauth2_settings
from oauthlib.common import Request as OAuthRequest
from oauthlib.oauth2.rfc6749 import errors

from .config import CONFIG

PATH = "protocol/openid-connect/ext/par/request"
PREFIX = "urn:ietf:params:oauth:request_uri:"
# Client authentication fields: not authorization parameters.
CLIENT_AUTH_FIELDS = {"client_secret", "client_assertion", "client_assertion_type"}
# The pushed request's secrets, never logged.
NOT_LOGGED = {"state", "nonce", "code_challenge"} | CLIENT_AUTH_FIELDS

_lock = threading.Lock()
_pushed = {}  # request_uri -> {"client_id", "params", "expires", "claimed"}
SESSION_KEY = "kcprovider_par_claimed"


def enabled():
    return CONFIG.par != "off"


def required():
    return CONFIG.par == "required"


def advertised():
    return enabled() and CONFIG.par_advertised


def _error(status, error, description):
    return http.JsonResponse({"error": error, "error_description": description}, status=status,
                             headers={"Cache-Control": "no-store"})


def _authenticated_client_id(request):
    """The client's id after DOT's validator authenticated it as at the token endpoint."""
    core = get_oauthlib_core()
    uri, method, body, headers = core._extract_params(request)
    oreq = OAuthRequest(uri, method, body, headers)
    validator = oauth2_settings.OAUTH2_VALIDATOR_CLASS()
    if validator.client_authentication_required(oreq):
        if not validator.authenticate_client(oreq):
            raise errors.InvalidClientError(request=oreq)
    elif not validator.authenticate_client_id(oreq.client_id, oreq):
        raise errors.InvalidClientError(request=oreq)
    return oreq.client_id or oreq.client.client_id


@csrf_exempt
def push(request):
    if not enabled():
        return http.HttpResponseNotFound()
    if request.method != "POST":
        return http.HttpResponseNotAllowed(["POST"])
    if CONFIG.par_error:
        return _error(400, CONFIG.par_error, "The pushed request was refused (PROVIDER_PAR_ERROR)")
    try:
        client_id = _authenticated_client_id(request)
    except errors.OAuth2Error as e:
        return _error(401, "invalid_client", e.description or "Invalid client or Invalid client credentials")
    params = {k: v for k, v in request.POST.items() if k not in CLIENT_AUTH_FIELDS}
    params["client_id"] = client_id
    # RFC 9126 §2.1: a pushed request must not itself carry a request_uri.
    if "request_uri" in params:
        return _error(400, "invalid_request", "request_uri not allowed in a pushed request")
    for name in ("response_type", "redirect_uri", "code_challenge"):
        if not params.get(name):
            return _error(400, "invalid_request", f"Missing parameter: {name}")
    request_uri = PREFIX + secrets.token_urlsafe(24)
    with _lock:
        now = time.monotonic()
        for uri in [u for u, e in _pushed.items() if e["expires"] < now]:
            del _pushed[uri]
        _pushed[request_uri] = {"client_id": client_id, "params": params, "expires": now + CONFIG.par_lifetime,
                                "claimed": False}
    return http.JsonResponse({"request_uri": request_uri, "expires_in": CONFIG.par_lifetime}, status=201,
                             headers={"Cache-Control": "no-store"})


def _page(description):
    # Keycloak shows an error page: the pushed redirect_uri cannot be trusted here.
    return http.HttpResponseBadRequest(
        f"<html><body><h1>We are sorry...</h1><p>{description}</p></body></html>")


def resolve(request):
    """For `GET …/auth` with a request_uri: (params, None) to authorize with, or (None, the error
    page). Claims the request_uri for this browser's session on first use."""
    extra = set(request.GET.keys()) - {"client_id", "request_uri"}
    if extra:
        return None, _page("Invalid parameter: with request_uri, only client_id is allowed")
    uri = request.GET.get("request_uri", "")
    claimed = request.session.get(SESSION_KEY, [])
    with _lock:
        entry = _pushed.get(uri)
        if entry is None:
            return None, _page("Invalid parameter: request_uri (unknown or already used)")
        if entry["expires"] < time.monotonic():
            del _pushed[uri]
            return None, _page("Invalid parameter: request_uri (expired)")
        if entry["client_id"] != request.GET.get("client_id"):
            return None, _page("Invalid parameter: request_uri (issued to another client)")
        if entry["claimed"] and uri not in claimed:
            return None, _page("Invalid parameter: request_uri (already used)")
        entry["claimed"] = True
    if uri not in claimed:
        request.session[SESSION_KEY] = claimed + [uri]
    return dict(entry["params"]), None


def consume(uri):
    """The authorization ended (code or error sent back): the request_uri is gone."""
    with _lock:
        _pushed.pop(uri, None)
