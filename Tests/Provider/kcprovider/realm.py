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

CLIENTS = [
    {
        # The CLI's client: public, PKCE, no consent screen, code and device grants.
        "client_id": "kcauth",
        "name": "kcauth",
        "skip_authorization": True,
        "device_grant": True,
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
