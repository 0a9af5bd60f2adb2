"""Create the database schema and seed the `demo` realm (users, roles, clients). Idempotent."""

import secrets

from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.core.management.base import BaseCommand
from oauth2_provider.models import get_application_model

from kcprovider.realm import CLIENTS, LOOPBACK_LOGOUT_REDIRECTS, LOOPBACK_REDIRECTS, USERS


class Command(BaseCommand):
    help = "Migrate the database and seed the demo realm."

    def handle(self, *args, **options):
        call_command("migrate", interactive=False, verbosity=0)
        for spec in USERS:
            user, _ = User.objects.get_or_create(username=spec["username"])
            user.email = spec["email"]
            user.first_name = spec["first_name"]
            user.last_name = spec["last_name"]
            user.set_password(spec["password"])
            user.save()
            user.groups.set([Group.objects.get_or_create(name=role)[0] for role in spec["roles"]])

        Application = get_application_model()
        for spec in CLIENTS:
            confidential = "auth" in spec
            Application.objects.update_or_create(
                client_id=spec["client_id"],
                defaults={
                    "name": spec["name"],
                    "client_type": Application.CLIENT_CONFIDENTIAL if confidential else Application.CLIENT_PUBLIC,
                    # The device and client-credentials grants are allowed on top by the
                    # validator (one grant per DOT app).
                    "authorization_grant_type": Application.GRANT_AUTHORIZATION_CODE,
                    # Assertion clients get a random secret nobody knows (DOT wants one for a
                    # confidential client); the validator refuses secrets for them anyway.
                    "client_secret": spec.get("secret") or (secrets.token_urlsafe(32) if confidential else ""),
                    # Hashed like Keycloak stores it; the MD5 hasher keeps the check cheap.
                    "hash_client_secret": confidential,
                    "skip_authorization": spec["skip_authorization"],
                    "algorithm": Application.RS256_ALGORITHM,
                    "redirect_uris": LOOPBACK_REDIRECTS,
                    "post_logout_redirect_uris": LOOPBACK_LOGOUT_REDIRECTS,
                },
            )
        self.stdout.write(f"seeded {len(USERS)} users and {len(CLIENTS)} clients")
