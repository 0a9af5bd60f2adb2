"""Thin subclasses of DOT's views that close the gaps to Keycloak's behaviour.

Each shim says which Keycloak behaviour it imitates; see /work/shared/notes/test-providers.md §4
and keycloak-26.md for the reference.
"""

import base64
import hashlib
import json
import os
import threading
import time
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from django import http
from django.http import QueryDict
from django.contrib.auth.views import LoginView
from django.utils.decorators import method_decorator
from django.utils.html import escape
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from oauth2_provider import views as dot
from oauth2_provider.models import get_application_model, get_device_grant_model, get_refresh_token_model
from oauth2_provider.settings import oauth2_settings

from . import dpop, interop, par
from .config import CONFIG
from .client_assertions import ALGORITHMS as ASSERTION_ALGORITHMS
from .realm import CLIENT_CREDENTIALS_GRANT, DEVICE_GRANT_CLIENTS
from .server import DEVICE_GRANT, KeycloakLikeDeviceServer


def oauth_error(status, error, description=None):
    """Keycloak's error body: {"error": ..., "error_description": ...}."""
    body = {"error": error}
    if description:
        body["error_description"] = description
    return http.JsonResponse(body, status=status, headers={"Cache-Control": "no-store"})


# --- discovery ----------------------------------------------------------------------------------


class DiscoveryView(dot.ConnectDiscoveryInfoView):
    """Adds the endpoints and flags stock DOT leaves out of the OIDC discovery document."""

    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        data = json.loads(response.content)
        endpoint = lambda name: self._get_endpoint_url(request, name, required=True)  # noqa: E731
        data.update(
            {
                "revocation_endpoint": endpoint("revoke-token"),
                "introspection_endpoint": endpoint("introspect"),
                "device_authorization_endpoint": endpoint("device-authorization"),
                "grant_types_supported": ["authorization_code", "refresh_token", DEVICE_GRANT, CLIENT_CREDENTIALS_GRANT],
                # RFC 8414 §2, honestly: what authenticate_client (validators.py) accepts.
                "token_endpoint_auth_methods_supported": [
                    "client_secret_basic", "client_secret_post", "private_key_jwt",
                ],
                "token_endpoint_auth_signing_alg_values_supported": ASSERTION_ALGORITHMS,
                "response_modes_supported": ["query"],
                "authorization_response_iss_parameter_supported": True,
                "backchannel_logout_supported": False,
                **({"dpop_signing_alg_values_supported": dpop.ALGORITHMS} if dpop.enabled() else {}),
                **({"pushed_authorization_request_endpoint": endpoint("pushed-authorization-request"),
                    # Keycloak says false even for a client that requires PAR.
                    "require_pushed_authorization_requests": False} if par.advertised() else {}),
                "frontchannel_logout_supported": False,
            }
        )
        data["claims_supported"] = sorted(data["claims_supported"])  # DOT builds it from a set
        # Keycloak 26 does not publish these two.
        data.pop("prompt_values_supported", None)
        data.pop("client_id_metadata_document_supported", None)
        if CONFIG.fault("discovery-wrong-issuer"):
            data["issuer"] = "http://evil.example/realms/demo"
        data = interop.merged(data, CONFIG.discovery_overrides)
        out = http.JsonResponse(data)
        out["Access-Control-Allow-Origin"] = "*"
        return out


# --- authorization endpoint ---------------------------------------------------------------------


def _with_iss(url, iss):
    """`url` with its `iss` query parameter set to `iss` (or removed when iss is None)."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "iss"]
    if iss is not None:
        query.append(("iss", iss))
    return urlunsplit(parts._replace(query=urlencode(query)))


class AuthorizationView(dot.AuthorizationView):
    """Every redirect back to the client goes through redirect(), success and error alike.

    DOT adds RFC 9207 `iss` only to successful responses; Keycloak (22+) adds it to error
    redirects too (e.g. error=access_denied after Deny). The callback faults are applied here.
    """

    def dispatch(self, request, *args, **kwargs):
        # RFC 9126 §4: checked before the login page, whose `next` keeps the short URL.
        if request.method == "GET" and par.enabled() and "request_uri" in request.GET:
            params, refusal = par.resolve(request)
            if refusal is not None:
                return refusal
            request._par = (request.GET["request_uri"], params)
        elif request.method == "GET":
            refusal = client_and_redirect_refusal(request)
            if refusal is None and par.required():
                refusal = par_required_refusal(request)
            if refusal is not None:
                return refusal
        return super().dispatch(request, *args, **kwargs)

    def get(self, request, *args, **kwargs):
        pushed = getattr(request, "_par", None)
        if pushed is not None:
            # The browser is signed in now: authorize the pushed request as if it had come in
            # the URL (oauthlib reads the query string).
            query = QueryDict(mutable=True)
            query.update(pushed[1])
            request.GET = query
            request.META["QUERY_STRING"] = query.urlencode()
        return interop.authorization_shortcut(request) or super().get(request, *args, **kwargs)

    def redirect(self, redirect_to, application):
        pushed = getattr(self.request, "_par", None)
        if pushed is not None:
            par.consume(pushed[0])
        iss = CONFIG.issuer
        if CONFIG.fault("wrong-iss-on-callback"):
            iss = "http://evil.example"
        elif CONFIG.fault("missing-iss-on-callback"):
            iss = None
        return super().redirect(_with_iss(redirect_to, iss), application)


def keycloak_error_page(message):
    """Keycloak's error page (error.ftl): 400, the message in #kc-error-message, nothing sent back."""
    return http.HttpResponseBadRequest(
        '<!DOCTYPE html><html><head><title>Sign in to demo</title></head><body>'
        '<div id="kc-header">demo</div><h1 id="kc-page-title">We are sorry...</h1>'
        f'<div id="kc-error-message"><p class="instruction">{escape(message)}</p></div></body></html>',
        content_type="text/html; charset=utf-8")


def client_and_redirect_refusal(request):
    """Keycloak checks the client and the redirect URI of an authorization request before anything
    else, signed in or not (AuthorizationEndpointChecker; keycloak-26 §i): an unknown client or a
    redirect URI the client does not allow gets an error page with 400, and no redirect. Stock DOT
    sends everyone to its login page first and says so only after a login."""
    client_id = request.GET.get("client_id")
    if not client_id:
        return keycloak_error_page("Missing parameter: client_id")
    application = get_application_model().objects.filter(client_id=client_id).first()
    if application is None:
        return keycloak_error_page("Client not found.")
    redirect_uri = request.GET.get("redirect_uri")
    if redirect_uri is None:
        return None  # DOT's rules for an absent redirect_uri
    # exact_redirect_uris: the registered URIs have no port, so a loopback redirect_uri with one
    # is refused, as a provider that compares redirect URIs exactly does.
    exact_refusal = CONFIG.exact_redirect_uris and urlsplit(redirect_uri).port is not None
    if exact_refusal or not application.redirect_uri_allowed(redirect_uri):
        return keycloak_error_page("Invalid parameter: redirect_uri")
    return None


def par_required_refusal(request):
    """Keycloak's answer to an ordinary request from a client that requires PAR: back to a
    loopback redirect_uri with invalid_request (the client is the seeded public one)."""
    redirect_uri = request.GET.get("redirect_uri", "")
    parts = urlsplit(redirect_uri)
    if parts.scheme != "http" or parts.hostname not in ("127.0.0.1", "::1"):
        return http.HttpResponseBadRequest("<html><body><p>Pushed Authorization Request is only allowed.</p></body></html>")
    query = {"error": "invalid_request", "error_description": "Pushed Authorization Request is only allowed."}
    if "state" in request.GET:
        query["state"] = request.GET["state"]
    query["iss"] = CONFIG.issuer
    return http.HttpResponseRedirect(redirect_uri + ("&" if parts.query else "?") + urlencode(query))


# --- token endpoint -----------------------------------------------------------------------------


def _tamper_signature(jws_compact):
    """Flip bits in the signature part: still a well-formed JWS, but the check must fail."""
    header, payload, signature = jws_compact.split(".")
    raw = bytearray(base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4)))
    for i in range(min(8, len(raw))):
        raw[i] ^= 0xFF
    return ".".join([header, payload, base64.urlsafe_b64encode(bytes(raw)).rstrip(b"=").decode()])


def _s256(verifier):
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


class DeviceState:
    """State of the device grant shims: PKCE challenges, redeemed codes and poll times.

    The challenges and the redeemed codes are kept with the database in the data directory
    (device-state.json), so that a device code outlives a restart of the provider as its database
    row does (a stopped-and-restarted provider is a network blip to a polling client); the poll
    times live in memory, which is why the provider runs a single gunicorn worker.
    """

    lock = threading.Lock()
    path = Path(CONFIG.data_dir) / "device-state.json"
    challenges = {}  # device_code -> (code_challenge, code_challenge_method)
    last_poll = {}  # device_code -> time.monotonic() of the previous poll
    # Redeemed codes. The database row stays (the user's status page still shows it), but a
    # second redemption must fail as an unknown code would.
    redeemed = set()

    @classmethod
    def load(cls):
        try:
            saved = json.loads(cls.path.read_text())
        except (FileNotFoundError, ValueError):
            return
        cls.challenges = {code: tuple(pair) for code, pair in saved.get("challenges", {}).items()}
        cls.redeemed = set(saved.get("redeemed", []))

    @classmethod
    def save(cls):
        """Under `lock`: written whole and renamed into place."""
        temporary = cls.path.with_suffix(".tmp")
        temporary.write_text(json.dumps({"challenges": cls.challenges, "redeemed": sorted(cls.redeemed)}))
        os.replace(temporary, cls.path)

    @classmethod
    def forget(cls, device_code):
        cls.challenges.pop(device_code, None)
        cls.last_poll.pop(device_code, None)
        cls.save()


DeviceState.load()


def note_held_refresh():
    """A refresh arrived and is held (--refresh-delay): one line in `<request log>.held`, written
    before the delay, so a test sees the request at the provider while it waits for the answer."""
    if CONFIG.request_log:
        fd = os.open(CONFIG.request_log + ".held", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, b"refresh\n")
        finally:
            os.close(fd)


@method_decorator(csrf_exempt, name="dispatch")
class TokenView(dot.TokenView):
    def post(self, request, *args, **kwargs):
        if CONFIG.fault("token-endpoint-500"):
            return http.HttpResponseServerError("<html><body><h1>Internal Server Error</h1></body></html>")
        if request.POST.get("grant_type") == "refresh_token" and CONFIG.refresh_delay:
            note_held_refresh()
            time.sleep(CONFIG.refresh_delay)
        if request.POST.get("grant_type") == "refresh_token" and CONFIG.refresh_error:
            return interop.refresh_error(request)
        jkt = None
        if dpop.enabled():
            try:
                jkt = dpop.verify(request)
            except dpop.ProofError as e:
                return dpop.with_nonce(oauth_error(400, e.error, e.description))
            if request.POST.get("grant_type") == "refresh_token":
                # Keycloak, public client: a bound refresh token needs a proof from its key.
                bound = dpop.bound_to(request.POST.get("refresh_token", ""))
                if bound and jkt is None:
                    return dpop.with_nonce(oauth_error(400, "invalid_dpop_proof", "DPoP proof is missing"))
                if bound and bound != jkt:
                    return dpop.with_nonce(oauth_error(400, "invalid_grant", "DPoP proof and token binding verification failed"))
            dpop.set_current_jkt(jkt if CONFIG.dpop == "on" else None)
        try:
            if request.POST.get("grant_type") == DEVICE_GRANT:
                response = self.device_flow_token_response(request, request.POST.get("device_code"))
            else:
                response = self.authorization_flow_token_response(request)
        finally:
            dpop.set_current_jkt(None)
        response = self._keycloak_shape(response, request.POST.get("grant_type"))
        if jkt and CONFIG.dpop == "on" and response.status_code == 200:
            data = json.loads(response.content)
            dpop.bind(data["access_token"], jkt)
            if "refresh_token" in data:
                dpop.bind(data["refresh_token"], jkt)
            data["token_type"] = "DPoP"  # RFC 9449 §5
            response.content = json.dumps(data).encode()
            response["Content-Length"] = str(len(response.content))
        if dpop.enabled():
            dpop.with_nonce(response)
        if request.POST.get("grant_type") == "refresh_token" and response.status_code == 200:
            overrides = interop.next_token_overrides()
            if overrides:
                response.content = json.dumps(interop.merged(json.loads(response.content), overrides)).encode()
                response["Content-Length"] = str(len(response.content))
        return response

    def device_flow_token_response(self, request, device_code, *args, **kwargs):
        # Keycloak's answers, where DOT gives 500 (missing code), 404 (unknown code) and 200 again
        # and again (a redeemed code); plus slow_down, expiry and PKCE, which DOT does not check.
        if not device_code:
            return oauth_error(400, "invalid_request", "Missing parameter: device_code")
        model = get_device_grant_model()
        with DeviceState.lock:  # one poll at a time: the code must be redeemed at most once
            device = model.objects.filter(device_code=device_code).first()
            if (
                device is None
                or device_code in DeviceState.redeemed
                or device.client_id != request.POST.get("client_id", device.client_id)
            ):
                return oauth_error(400, "invalid_grant", "Device code not valid")

            now = time.monotonic()
            previous = DeviceState.last_poll.get(device_code)
            DeviceState.last_poll[device_code] = now
            if CONFIG.device_slow_down and previous is not None:
                if now - previous < max(oauth2_settings.DEVICE_FLOW_INTERVAL, CONFIG.device_enforced_interval):
                    return oauth_error(400, "slow_down", "Slow down")

            if device.is_expired():
                DeviceState.forget(device_code)
                return oauth_error(400, "expired_token", "Device code is expired")
            if device.status == device.AUTHORIZATION_PENDING:
                return oauth_error(400, "authorization_pending", "The authorization request is still pending")
            if device.status == device.DENIED:
                return oauth_error(400, "access_denied", "The end user denied the authorization request")
            if device.status != device.AUTHORIZED:
                return oauth_error(400, "invalid_grant", "Device code not valid")

            pkce_error = self._check_device_pkce(device_code, request.POST.get("code_verifier"))
            if pkce_error:
                return pkce_error

            url, headers, body, status = self.create_token_response(request)
            if status == 200:
                # Single use, as in Keycloak: a second redemption is an unknown code.
                DeviceState.redeemed.add(device_code)
                DeviceState.forget(device_code)
        response = http.HttpResponse(body, status=status, content_type="application/json")
        for k, v in headers.items():
            response[k] = v
        return response

    @staticmethod
    def _check_device_pkce(device_code, verifier):
        challenge, method = DeviceState.challenges.get(device_code, (None, None))
        if challenge is None:
            if verifier:
                return oauth_error(
                    400, "invalid_grant", "PKCE code verifier specified but challenge not present in authorization"
                )
            return None
        if not verifier:
            return oauth_error(400, "invalid_grant", "PKCE code verifier not specified")
        if _s256(verifier) != challenge:
            return oauth_error(400, "invalid_grant", "PKCE verification failed: Code mismatch")
        return None

    def _keycloak_shape(self, response, grant_type=None):
        """Add Keycloak's extra token-response fields, and the id_token fault."""
        if response.status_code != 200 or not response.get("Content-Type", "").startswith("application/json"):
            return response
        data = json.loads(response.content)
        if "refresh_token" in data:
            # DOT's refresh token dies REFRESH_TOKEN_EXPIRE_SECONDS after its access token expires.
            data["refresh_expires_in"] = int(data.get("expires_in", 0)) + CONFIG.refresh_token_lifetime
        elif grant_type == "client_credentials":
            # A service account's transient session: no refresh token, refresh_expires_in 0.
            data["refresh_expires_in"] = 0
        data.setdefault("not-before-policy", 0)
        if "id_token" in data and CONFIG.fault("tamper-id-token-signature"):
            data["id_token"] = _tamper_signature(data["id_token"])
        response.content = json.dumps(data).encode()
        response["Content-Length"] = str(len(response.content))
        return response


# --- device authorization endpoint --------------------------------------------------------------


class DeviceAuthorizationView(dot.DeviceAuthorizationView):
    """Keycloak's per-client device switch and PKCE on the device request (keycloak#9710)."""

    server_class = KeycloakLikeDeviceServer

    def post(self, request, *args, **kwargs):
        client_id = request.POST.get("client_id", "")
        if not get_application_model().objects.filter(client_id=client_id).exists():
            return oauth_error(401, "invalid_client", "Invalid client or Invalid client credentials")
        if client_id not in DEVICE_GRANT_CLIENTS:
            return oauth_error(
                400,
                "unauthorized_client",
                "Client is not allowed to initiate OAuth 2.0 Device Authorization Grant. "
                "The flow is disabled for the client.",
            )
        challenge = request.POST.get("code_challenge")
        method = request.POST.get("code_challenge_method")
        if CONFIG.device_pkce and not method:
            return oauth_error(400, "invalid_request", "Missing parameter: code_challenge_method")
        if method and method != "S256":
            return oauth_error(
                400, "invalid_request", "Invalid parameter: code challenge method is not matching the configured one"
            )
        if method and not challenge:
            return oauth_error(400, "invalid_request", "Missing parameter: code_challenge")

        response = super().post(request, *args, **kwargs)
        if response.status_code == 200 and CONFIG.device_overrides:
            answer = interop.merged(json.loads(response.content), CONFIG.device_overrides)
            response.content = json.dumps(answer).encode()
            response["Content-Length"] = str(len(response.content))
        if response.status_code == 200 and challenge:
            device_code = json.loads(response.content)["device_code"]
            with DeviceState.lock:
                DeviceState.challenges[device_code] = (challenge, method)
                DeviceState.save()
        return response


# --- logout -------------------------------------------------------------------------------------


def _dpop_refusal(request, token, resource=False):
    """For a request that carries `token`: None when the token is not DPoP-bound or the request
    proves possession of its key (RFC 9449 §4.3, §7.1), else the refusal to answer with."""
    if not dpop.enabled():
        return None
    bound = dpop.bound_to(token) if token else None
    try:
        jkt = dpop.verify(request, access_token=token if resource else None)
    except dpop.ProofError as e:
        if resource:
            out = http.JsonResponse({"error": e.error, "error_description": e.description}, status=401)
            out["WWW-Authenticate"] = f'DPoP error="{e.error}", error_description="{e.description}", algs="{" ".join(dpop.ALGORITHMS)}"'
            return dpop.with_nonce(out)
        return dpop.with_nonce(oauth_error(400, e.error, e.description))
    if bound and jkt != bound:
        if resource:
            out = http.JsonResponse({"error": "invalid_token"}, status=401)
            out["WWW-Authenticate"] = 'DPoP error="invalid_token", error_description="DPoP proof and token binding verification failed"'
            return dpop.with_nonce(out)
        return dpop.with_nonce(oauth_error(400, "invalid_dpop_proof", "DPoP proof and token binding verification failed"))
    return None


@csrf_exempt
def userinfo(request, *args, **kwargs):
    """DOT's userinfo, behind RFC 9449 §7.1: a bound token comes as `Authorization: DPoP` with a
    proof carrying its `ath`; as Bearer it is refused (§7.2)."""
    header = request.META.get("HTTP_AUTHORIZATION", "")
    scheme, _, token = header.partition(" ")
    if dpop.enabled() and scheme.lower() == "dpop":
        refusal = _dpop_refusal(request, token, resource=True)
        if refusal is not None:
            return refusal
        if dpop.bound_to(token) is None:
            out = http.JsonResponse({"error": "invalid_token"}, status=401)
            out["WWW-Authenticate"] = 'DPoP error="invalid_token", error_description="the token is not DPoP-bound"'
            return out
        request.META["HTTP_AUTHORIZATION"] = "Bearer " + token
    elif dpop.enabled() and scheme.lower() == "bearer" and dpop.bound_to(token):
        out = http.JsonResponse({"error": "invalid_token"}, status=401)
        out["WWW-Authenticate"] = 'DPoP error="invalid_token", error_description="a DPoP-bound token needs the DPoP scheme"'
        return out
    response = _dot_userinfo(request, *args, **kwargs)
    return dpop.with_nonce(response) if dpop.enabled() else response


_dot_userinfo = dot.UserInfoView.as_view()
_dot_revoke = dot.RevokeTokenView.as_view()


@csrf_exempt
def revoke(request, *args, **kwargs):
    """RFC 7009 revocation; a DPoP-bound token is revoked only with a proof from its key."""
    refusal = _dpop_refusal(request, request.POST.get("token", ""))
    if refusal is not None:
        return refusal
    response = _dot_revoke(request, *args, **kwargs)
    return dpop.with_nonce(response) if dpop.enabled() else response


def backchannel_logout(request):
    """Keycloak's browserless logout: POST client_id + refresh_token -> 204, session ended.

    DOT answers this with a 403 CSRF page and leaves the refresh token usable. Here the whole
    refresh-token family (and its access tokens) is revoked, which is what ending Keycloak's
    session means for this client.
    """
    client_id = request.POST.get("client_id", "")
    application = get_application_model().objects.filter(client_id=client_id).first()
    if application is None:
        return oauth_error(401, "invalid_client", "Invalid client or Invalid client credentials")
    token = request.POST.get("refresh_token")
    if not token:
        return oauth_error(400, "invalid_request", "No refresh token")
    refusal = _dpop_refusal(request, token)
    if refusal is not None:
        return refusal
    checksum = hashlib.sha256(token.encode("utf-8")).hexdigest()
    model = get_refresh_token_model()
    rt = model.objects.filter(token_checksum=checksum).order_by("-created").first()
    if rt is None:
        return oauth_error(400, "invalid_grant", "Invalid refresh token")
    if rt.application_id != application.pk:
        return oauth_error(
            400, "invalid_grant", "Invalid refresh token. Token client and authorized client don't match"
        )
    if rt.revoked is not None:
        return oauth_error(400, "invalid_grant", "Session not active")
    if rt.token_family:
        model.revoke_family(rt.token_family)
    else:
        rt.revoke()
    return http.HttpResponse(status=204)


_rp_initiated_logout = csrf_protect(dot.RPInitiatedLogoutView.as_view())


@csrf_exempt
def logout(request, *args, **kwargs):
    """One URL, two protocols, as in Keycloak: the browser's RP-initiated logout (GET, or the
    confirmation form's POST, still CSRF-protected) and the CLI's back-channel POST."""
    if request.method == "POST" and "csrfmiddlewaretoken" not in request.POST:
        return backchannel_logout(request)
    return _rp_initiated_logout(request, *args, **kwargs)


# --- login page ---------------------------------------------------------------------------------


class KeycloakLoginView(LoginView):
    """Django's login view with Keycloak's form markup (#kc-form-login, username, password, login)."""

    template_name = "kcprovider/login.html"
