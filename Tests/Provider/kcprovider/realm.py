"""The seeded realm: users and clients, shaped like a small Keycloak realm called `demo`."""

USERS = [
    {
        "username": "alice",
        "password": "wonderland",
        "email": "alice@example.test",
        "first_name": "Alice",
        "last_name": "Liddell",
        # Keycloak's composite default role expands to these for every new user.
        "roles": ["default-roles-demo", "offline_access", "uma_authorization", "developer"],
    },
    {
        "username": "bob",
        "password": "builder",
        "email": "bob@example.test",
        "first_name": "Bob",
        "last_name": "Builder",
        "roles": ["default-roles-demo", "offline_access", "uma_authorization"],
    },
]

# Loopback redirect URIs without a port: DOT, like Keycloak, then accepts any port.
LOOPBACK_REDIRECTS = "http://127.0.0.1/callback http://[::1]/callback"
LOOPBACK_LOGOUT_REDIRECTS = "http://127.0.0.1/logged-out http://[::1]/logged-out"

CLIENT_CREDENTIALS_GRANT = "client_credentials"
DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"

# Confidential clients (Keycloak: "Client authentication" on). Each accepts one way of
# authenticating, as a Keycloak client has one "Client Authenticator":
#   "secret"           client_secret_basic or client_secret_post (DOT checks these)
#   "private_key_jwt"  an RFC 7523 assertion signed by one of the client's registered keys,
#                      iss = sub = client_id (kcprovider/client_assertions.py)
#   "federated"        an assertion signed by a trusted platform (a Kubernetes service-account
#                      token, a CI ID token): iss = the platform, sub = the workload
#   "federated-oidc"   Keycloak 26.6's "Signed JWT - Federated" with an OpenID Connect identity
#                      provider: a live issuer's token (its JWKS fetched), iss = that issuer,
#                      sub = the federated subject, aud = the realm's issuer, a single-use jti
#                      (kcprovider/federation.py; the issuer and subject are per start, config.py)
#   "federated-spiffe" the same with Keycloak's SPIFFE provider (client_assertion_type jwt-spiffe):
#                      sub = the workload's SPIFFE ID, signed by a key of the trust bundle
PLATFORM_ISSUER = "https://platform.example.test"
FEDERATED_SUBJECT = "system:serviceaccount:ci:kcauth-federated"
# Has every character RFC 6749 §2.3.1's form-encoding inside Basic must protect.
CONFIDENTIAL_SECRET = "s3cret:+/ &%=é"

CLIENTS = [
    {
        # The CLI's client: public, PKCE, no consent screen, code and device grants.
        "client_id": "kcauth",
        "name": "kcauth",
        "skip_authorization": True,
        "device_grant": True,
    },
    {
        # Confidential, with a secret: service accounts (client credentials) plus the user flows.
        "client_id": "kcauth-confidential",
        "name": "kcauth (confidential, client secret)",
        "skip_authorization": True,
        "device_grant": True,
        "client_credentials": True,
        "auth": "secret",
        "secret": CONFIDENTIAL_SECRET,
    },
    {
        # Confidential, authenticating with signed assertions (private_key_jwt) from its own keys.
        "client_id": "kcauth-jwt",
        "name": "kcauth (confidential, private_key_jwt)",
        "skip_authorization": True,
        "device_grant": True,
        "client_credentials": True,
        "auth": "private_key_jwt",
        # (file under client_keys/, kid) of the registered public keys (the client's JWKS).
        "keys": [("kcauth-jwt-rsa.pem", "kcauth-jwt-rsa"), ("kcauth-jwt-ec.pem", "kcauth-jwt-ec")],
    },
    {
        # Confidential, authenticating with assertions a platform signed for it.
        "client_id": "kcauth-federated",
        "name": "kcauth (confidential, federated assertion)",
        "skip_authorization": True,
        "device_grant": False,
        "client_credentials": True,
        "auth": "federated",
        "issuer": PLATFORM_ISSUER,
        "subject": FEDERATED_SUBJECT,
        "keys": [("platform.pem", "platform-1")],
    },
    {
        # A CI job's client: no secret anywhere, the platform's ID token instead (federation.py).
        "client_id": "kcauth-ci",
        "name": "kcauth (confidential, Signed JWT - Federated)",
        "skip_authorization": True,
        "device_grant": False,
        "client_credentials": True,
        "auth": "federated-oidc",
    },
    {
        # The same with a SPIFFE JWT-SVID (client_assertion_type ...:jwt-spiffe).
        "client_id": "kcauth-ci-spiffe",
        "name": "kcauth (confidential, SPIFFE JWT-SVID)",
        "skip_authorization": True,
        "device_grant": False,
        "client_credentials": True,
        "auth": "federated-spiffe",
    },
    {
        # Same, but the user sees a consent page (to test Deny -> error=access_denied).
        "client_id": "kcauth-consent",
        "name": "kcauth (consent required)",
        "skip_authorization": False,
        "device_grant": True,
    },
    {
        # The device grant switched off, as with Keycloak's per-client toggle.
        "client_id": "kcauth-nodevice",
        "name": "kcauth (no device grant)",
        "skip_authorization": True,
        "device_grant": False,
    },
]

DEVICE_GRANT_CLIENTS = frozenset(c["client_id"] for c in CLIENTS if c["device_grant"])
CLIENT_CREDENTIALS_CLIENTS = frozenset(c["client_id"] for c in CLIENTS if c.get("client_credentials"))
CONFIDENTIAL_CLIENTS = {c["client_id"]: c for c in CLIENTS if c.get("auth")}
