"""Keycloak-like claims about a user, shared by the ID token, userinfo and the JWT access token."""

import uuid

# Keycloak subjects are UUIDs; derive a stable one from the username so that it survives
# re-seeding (DOT would use the database primary key, "1").
_SUBJECT_NAMESPACE = uuid.UUID("6f3c1f0e-3b7a-4c55-9d1e-2a4b5c6d7e8f")


def subject(user):
    return str(uuid.uuid5(_SUBJECT_NAMESPACE, user.get_username()))


def service_account_subject(client_id):
    """The sub of a client's service-account user (Keycloak: service-account-<client_id>)."""
    return str(uuid.uuid5(_SUBJECT_NAMESPACE, f"service-account-{client_id}"))


def realm_roles(user):
    # Realm roles are stored as Django groups named after the role.
    return sorted(user.groups.values_list("name", flat=True))


def profile_claims(user):
    """The claims of Keycloak's default `profile` and `email` client scopes.

    Keycloak adds these for every openid request (they are default client scopes), so they are
    not gated on the requested scopes here either.
    """
    claims = {
        "sub": subject(user),
        "preferred_username": user.get_username(),
        "email_verified": bool(user.email),
    }
    full_name = user.get_full_name()
    if full_name:
        claims["name"] = full_name
    if user.first_name:
        claims["given_name"] = user.first_name
    if user.last_name:
        claims["family_name"] = user.last_name
    if user.email:
        claims["email"] = user.email
    return claims
