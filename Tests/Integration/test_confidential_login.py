"""A person signs in through a confidential client (RFC 6749 §2.3): the browser flow's code
exchange and every refresh carry a fresh signed assertion, the device flow's request and polls
carry the secret. The provider refuses all of these without client authentication
(test_client_authentication.py), so a 200 in its log is the proof."""

import json

from test_client_authentication import KEYS, SECRET
from test_device import Background, login_args, scripted_user
from test_storage_choices import verified_claims


def test_browser_login_and_refresh_of_a_private_key_jwt_client(provider, kcauth, keyring):
    key = str(KEYS / "kcauth-jwt-ec.pem")
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth-jwt", "--client-key", key,
               "--client-key-id", "kcauth-jwt-ec", "--timeout", "30")
    assert r.returncode == 0, r
    assert f"Logged in to {provider.issuer} as alice (profile 'default')." in r.stderr
    codes = provider.token_requests("authorization_code")
    assert [e["status"] for e in codes] == [200], codes
    assert f"client_key = {key}" in kcauth.config_file.read_text()

    refreshed = kcauth("refresh")  # the profile knows how the client authenticates
    assert refreshed.returncode == 0, refreshed
    assert [e["status"] for e in provider.token_requests("refresh_token")] == [200]
    assert verified_claims(provider, refreshed.stdout.strip())["azp"] == "kcauth-jwt"

    who = kcauth("whoami")
    assert "private_key_jwt (key file " + key in who.stdout, who


def test_device_login_of_a_client_with_a_secret(start_provider, kcauth, keyring):
    provider = start_provider(device_interval=1)
    run = Background(kcauth, *login_args(provider, "--device", client_id="kcauth-confidential"),
                     env={"KCAUTH_CLIENT_SECRET": SECRET})
    scripted_user(run.link())
    code, stdout, stderr = run.finish()
    assert code == 0, stderr
    assert [e["status"] for e in provider.request_log() if e["path"].endswith("/auth/device")] == [200]
    assert provider.token_requests("urn:ietf:params:oauth:grant-type:device_code")[-1]["status"] == 200
    state = json.loads(keyring.secret_tool("lookup", "profile", "default").stdout)
    assert state["client_id"] == "kcauth-confidential" and state["refresh_token"]
    assert SECRET not in stderr + kcauth.config_file.read_text()


def test_logout_of_a_private_key_jwt_client_ends_the_session_at_the_provider(provider, kcauth, keyring):
    key = str(KEYS / "kcauth-jwt-ec.pem")
    assert kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth-jwt", "--client-key", key,
                  "--timeout", "30").returncode == 0
    r = kcauth("logout")
    assert r.returncode == 0, r
    ends = [e for e in provider.request_log() if e["method"] == "POST" and e["path"].endswith(("/logout", "/revoke"))]
    assert ends and all(e["status"] < 300 for e in ends), ends
