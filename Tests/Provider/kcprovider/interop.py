"""Switches that make the provider hostile or minimal, for kcauth's hardening tests (hostile input
never crashes it).

Each one imitates something real providers do that Keycloak does not: numbers of any shape in
token, device and ID-token answers, discovery without end-session or revocation, `invalid_request`
for a dead refresh token, an error description that echoes the token, `consent_required` on the
authorization redirect, exact-match redirect URIs. All are off by default (README "Interop switches").
"""

import threading
from urllib.parse import urlencode, urlsplit

from django import http

from .config import CONFIG

_refresh_answers = 0
_refresh_answers_lock = threading.Lock()


def merged(data, overrides):
    """`data` with `overrides` merged in; a None value removes the field."""
    out = dict(data)
    for key, value in overrides.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def next_token_overrides():
    """The overrides for this refresh answer: the i-th answer gets the i-th dict, later ones none,
    so a test can break one refresh and check that the next one still works."""
    global _refresh_answers
    with _refresh_answers_lock:
        index = _refresh_answers
        _refresh_answers += 1
    return CONFIG.token_overrides[index] if index < len(CONFIG.token_overrides) else {}


def refresh_error(request):
    """The configured error answer to a refresh grant, or None. `{refresh_token}` in the
    description is replaced by the refresh token the client sent (a provider that echoes it)."""
    if not CONFIG.refresh_error:
        return None
    body = dict(CONFIG.refresh_error)
    status = int(body.pop("status", 400))
    if "html" in body:  # a proxy's or a crashed server's error page, not an OAuth answer
        return http.HttpResponse(body["html"], status=status, content_type="text/html")
    if "error_description" in body:
        body["error_description"] = body["error_description"].replace(
            "{refresh_token}", request.POST.get("refresh_token", ""))
    return http.JsonResponse(body, status=status, headers={"Cache-Control": "no-store"})


def authorization_shortcut(request):
    """What the authorization endpoint answers instead of a login page, or None.

    (exact_redirect_uris is checked before the login page, with the client: views.py.)
    authorization_error: redirect straight back with that error (e.g. consent_required, as a
    provider answers when consent was refused or cannot be asked for).
    """
    redirect_uri = request.GET.get("redirect_uri", "")
    parts = urlsplit(redirect_uri)
    if CONFIG.authorization_error and parts.scheme == "http" and parts.hostname in ("127.0.0.1", "::1"):
        query = {"error": CONFIG.authorization_error, "error_description": "The user did not grant the request"}
        if "state" in request.GET:
            query["state"] = request.GET["state"]
        query["iss"] = CONFIG.issuer
        separator = "&" if parts.query else "?"
        return http.HttpResponseRedirect(redirect_uri + separator + urlencode(query))
    return None
