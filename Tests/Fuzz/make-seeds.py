#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpus (Tests/Fuzz/corpus/TARGET/) from what the tests use: the
compact JWS and JWKs of Tests/KCAuthCryptoTests/Fixtures.swift, the JSON bodies the unit tests'
fake provider answers, the config files and callback requests of the config and loopback tests.
Run from the repository root; files are named by content hash, so re-running adds, never duplicates.
Inputs the fuzzer once crashed on are kept next to them as regression-* files."""
import re, json, os, glob, hashlib, base64
root = "Tests/Fuzz/corpus"
def put(target, data):
    if isinstance(data, str): data = data.encode()
    d = os.path.join(root, target); os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    open(os.path.join(d, name), "wb").write(data)

fx = open("Tests/KCAuthCryptoTests/Fixtures.swift").read()
# Compact JWS strings from the crypto fixtures; their payloads are ID token claims.
for m in re.finditer(r'static let \w+ = "([A-Za-z0-9_\-]*\.[A-Za-z0-9_\-]*\.[A-Za-z0-9_\-]*)"', fx):
    jws = m.group(1); put("compact-jws", jws)
    p = jws.split(".")[1]
    try: put("id-token-claims", base64.urlsafe_b64decode(p + "=" * (-len(p) % 4)))
    except Exception: pass
# JWKs from the fixtures, as single keys and as one set.
keys = []
for m in re.finditer(r'static let \w+ = JWK\((.*?)\)\n', fx, re.S):
    k = dict(re.findall(r'(\w+): "([^"]*)"', m.group(1)))
    keys.append(k); put("jwks", json.dumps(k))
put("jwks", json.dumps({"keys": keys}))
put("jwks", json.dumps({"keys": keys[:2]}))
# JSON bodies the unit tests make the fake provider answer.
bodies = set()
for f in glob.glob("Tests/**/*.swift", recursive=True):
    for m in re.finditer(r'#"(\{.*?\})"#', open(f).read()):
        bodies.add(m.group(1))
for b in sorted(bodies):
    if '"access_token"' in b: put("token-response", b)
    if '"device_code"' in b: put("device-authorization", b)
    if '"authorization_endpoint"' in b: put("provider-metadata", b)
    if '"iss"' in b and '"sub"' in b: put("id-token-claims", b)
    if '"refresh_token"' in b and '"issuer"' in b: put("auth-state", b)
print(len(bodies))

ep = {"token": "https://kc.example/realms/test/protocol/openid-connect/token",
      "jwks": "https://kc.example/realms/test/protocol/openid-connect/certs",
      "userinfo": "https://kc.example/realms/test/protocol/openid-connect/userinfo",
      "end_session": "https://kc.example/realms/test/protocol/openid-connect/logout",
      "revocation": "https://kc.example/realms/test/protocol/openid-connect/revoke",
      "device_authorization": "https://kc.example/realms/test/protocol/openid-connect/auth/device"}
state = {"version": 1, "issuer": "https://kc.example/realms/test", "client_id": "kcauth", "access_token": "at-1",
         "token_type": "Bearer", "expires_at": "2026-11-24T10:00:00Z", "refresh_token": "rt-1",
         "refresh_expires_at": "2026-11-24T11:00:00Z", "id_token": "a.b.c", "id_token_expires_at": "2026-11-24T10:00:00Z",
         "scope": "openid profile email", "endpoints": ep, "obtained_at": "2026-11-24T09:55:00Z",
         "session_id": "s-1", "userinfo": {"sub": "u-1", "name": "Ada", "email": "ada@example.com", "n": 1.5, "l": [True, None]}}
put("auth-state", json.dumps(state))
put("auth-state", json.dumps({k: v for k, v in state.items() if k in ("version", "issuer", "client_id", "access_token", "token_type", "scope", "endpoints", "obtained_at")}))
base = "https://kc.example/realms/test"
md = {"issuer": base, "authorization_endpoint": base + "/protocol/openid-connect/auth",
      "token_endpoint": ep["token"], "jwks_uri": ep["jwks"], "userinfo_endpoint": ep["userinfo"],
      "end_session_endpoint": ep["end_session"], "revocation_endpoint": ep["revocation"],
      "device_authorization_endpoint": ep["device_authorization"], "code_challenge_methods_supported": ["plain", "S256"],
      "id_token_signing_alg_values_supported": ["RS256", "ES256", "PS256"], "authorization_response_iss_parameter_supported": True,
      "grant_types_supported": ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"]}
put("provider-metadata", json.dumps(md))
put("provider-metadata", json.dumps({k: md[k] for k in ("issuer", "authorization_endpoint", "token_endpoint", "jwks_uri")}))
put("token-response", '{"access_token":"at","token_type":"Bearer","expires_in":"300","refresh_token":"rt","refresh_expires_in":0,"id_token":"a.b.c","scope":"openid"}')
put("token-response", '{"access_token":"at","token_type":"bearer","expires_in":3.6e3}')
put("device-authorization", '{"device_code":"dc","user_code":"WDJB-MJHT","verification_uri":"https://kc.example/device","verification_uri_complete":"https://kc.example/device?user_code=WDJB-MJHT","expires_in":600,"interval":5}')
put("device-authorization", '{"device_code":"dc","user_code":"U","verification_url":"https://kc.example/device","expires_in":"1800"}')
put("id-token-claims", '{"iss":"https://kc.example/realms/test","sub":"u-1","aud":["kcauth","account"],"azp":"kcauth","exp":2000000000,"iat":1700000000,"auth_time":1700000000,"nonce":"n","sid":"s","preferred_username":"ada","name":"Ada","email":"ada@example.com","realm_access":{"roles":["a"]},"resource_access":{"kcauth":{"roles":["r"]}}}')
# Configuration files: the unit and integration tests' examples, LF and CRLF.
cfg = ["# my settings\ndefault_profile = work\n\n[work]\nissuer = https://sso.example.com/realms/w   ; not a comment: values run to the end\nclient_id = kcauth\n# trailing comment\n",
       "[default]\nissuer = http://127.0.0.1:8180/realms/test\nclient_id = kcauth\nscope = openid profile email\nport = 8400\nca_file = /etc/ssl/corp.pem\nstorage = file\nflow = device\n",
       "\ufeff# edited on Windows\r\n[default]\r\nissuer = https://sso.example.com\r\nclient_id = kcauth\r\n\r\n[work]\r\nclient_id = w\r\n",
       "[work\nissuer = x", "[a]\n[a]", "[ok]\nissuer x", "[bad name]", "[p]\nport = http", "[p]\nclient_id\t=\tkcauth\t\n"]
for c in cfg: put("config", c)
# Loopback requests: a browser's redirect, absolute-form, bare LF, errors, junk.
reqs = ["GET /callback?code=c-1&state=st&iss=https%3A%2F%2Fsso.example.com%2Frealms%2Fdemo HTTP/1.1\r\nHost: 127.0.0.1:8400\r\nUser-Agent: Mozilla/5.0\r\nAccept: text/html\r\n\r\n",
        "GET http://127.0.0.1:8400/callback?state=st&error=access_denied&error_description=User+denied HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "GET /callback?state=s&error=consent_required HTTP/1.0\n\n",
        "GET /favicon.ico HTTP/1.1\r\n\r\n", "POST /callback HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc",
        "GET /callback?code=&state=s&state=t&%ZZ=1 HTTP/1.1\r\n\r\n", "GET /start?k=v HTTP/1.1\r\nCookie: a=b\r\n\r\n"]
for r in reqs: put("loopback-request", r)
