"""A request log for tests: one JSON line per request, so a test can count e.g. refresh requests.

Only the method, the path (never the query string, which carries codes and states), the grant
type of token requests, the status and the OAuth `error` code are written: never a token value.
"""

import base64
import json
import os
import threading
import time

from .config import CONFIG

TOKEN_PATH_SUFFIX = "/protocol/openid-connect/token"
AUTH_PATH_SUFFIX = "/protocol/openid-connect/auth"
# The authorization request's own secrets stay out of the log; every other parameter is logged
# (`auth_params`), so a test can see what a client asked for (prompt, kc_idp_hint, ...).
AUTH_PARAMS_NOT_LOGGED = {"state", "nonce", "code_challenge"}
PAR_PATH_SUFFIX = "/protocol/openid-connect/ext/par/request"
PAR_PARAMS_NOT_LOGGED = AUTH_PARAMS_NOT_LOGGED | {"client_secret", "client_assertion"}


class RequestLogMiddleware:
    _lock = threading.Lock()

    def __init__(self, get_response):
        self.get_response = get_response
        self.path = CONFIG.request_log

    def __call__(self, request):
        # What the browser sent, before a pushed request (par.py) replaces the query.
        query_keys = sorted(request.GET.keys()) if request.path.endswith(AUTH_PATH_SUFFIX) else None
        response = self.get_response(request)
        if self.path:
            self._write(request, response, query_keys)
        return response

    def _write(self, request, response, query_keys=None):
        entry = {
            "time": round(time.time(), 3),
            "method": request.method,
            "path": request.path,
            "status": response.status_code,
        }
        if request.method == "POST" and request.path.endswith(PAR_PATH_SUFFIX):
            entry["par_params"] = {k: v for k, v in request.POST.items() if k not in PAR_PARAMS_NOT_LOGGED}
        if request.method == "POST" and request.path.endswith(TOKEN_PATH_SUFFIX):
            # The view has parsed the form by now, so this reads Django's cached copy.
            entry["grant_type"] = request.POST.get("grant_type")
            # A client assertion's jti and sub (never the assertion): a test can see that each
            # request sent a new one.
            seen = _assertion_claims(request.POST.get("client_assertion"))
            if seen:
                entry["assertion"] = seen
        if request.method == "GET" and request.path.endswith(AUTH_PATH_SUFFIX):
            # After a pushed request was resolved, these are the pushed parameters.
            entry["auth_params"] = {k: v for k, v in request.GET.items() if k not in AUTH_PARAMS_NOT_LOGGED}
            # The names in the browser's URL (for PAR: client_id and request_uri only).
            entry["query_keys"] = query_keys
            # Who asked: a browser, or a client checking the request before it opens one.
            entry["user_agent"] = request.META.get("HTTP_USER_AGENT", "")[:60]
        if response.status_code >= 400 and response.get("Content-Type", "").startswith("application/json"):
            try:
                entry["error"] = json.loads(response.content).get("error")
            except (ValueError, AttributeError):
                pass
        line = json.dumps(entry) + "\n"
        with self._lock:
            # O_APPEND: whole lines, even if the file is shared with another process.
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, line.encode())
            finally:
                os.close(fd)


def _assertion_claims(assertion):
    """`jti`, `sub` and `exp` of a client assertion's payload (unverified), or None."""
    if not assertion:
        return None
    try:
        payload = assertion.split(".")[1]
        claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        return {k: claims.get(k) for k in ("jti", "sub", "exp")}
    except (IndexError, ValueError, TypeError, AttributeError):
        return None
