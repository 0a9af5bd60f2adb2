"""CI without a person (RFC 6749 §4.4, RFC 7523), end to end: the built kcauth against the test
provider's confidential clients, with the real keyring. Client credentials with a secret
(client_secret_basic as discovery prefers it, client_secret_post as the profile pins it), with a
signed assertion (private_key_jwt RS256/PS256/ES256) and with a platform's assertion file; each
with --storage memory and the keyring. The secret never reaches argv, the config file or output.
"""

import json
import os
import subprocess
import time

import pytest

from kcauth import Kcauth, stored_items
from test_client_authentication import KEYS, SECRET, platform_token
from test_storage_choices import verified_claims

CC = "client_credentials"


def args(provider, client_id, *extra):
    return ("login", "--client-credentials", "--issuer", provider.issuer, "--client-id", client_id, *extra)


def method_setup(method, provider, tmp_path):
    """(client id, extra args, extra env, profile keys) for one way to authenticate."""
    if method == "basic":
        return "kcauth-confidential", [], {"KCAUTH_CLIENT_SECRET": SECRET}, {"client_secret_env": "KCAUTH_CLIENT_SECRET"}
    if method == "post":
        secret_file = tmp_path / "client-secret"
        secret_file.write_text(SECRET + "\n")
        return "kcauth-confidential", ["--client-secret-file", str(secret_file)], {}, {"client_secret_file": str(secret_file)}
    if method in ("RS256", "PS256"):
        key = str(KEYS / "kcauth-jwt-rsa.pem")
        return "kcauth-jwt", ["--client-key", key, "--client-key-id", "kcauth-jwt-rsa", "--client-key-alg", method], {}, \
            {"client_key": key, "client_key_id": "kcauth-jwt-rsa", "client_key_alg": method}
    if method == "ES256":
        key = str(KEYS / "kcauth-jwt-ec.pem")
        return "kcauth-jwt", ["--client-key", key, "--client-key-id", "kcauth-jwt-ec"], {}, {"client_key": key}
    if method == "assertion-file":
        token_file = tmp_path / "platform-token"
        token_file.write_text(platform_token(provider))
        # The short form of --client-assertion-from file:PATH, kept as client_assertion_from.
        return "kcauth-federated", ["--client-assertion-file", str(token_file)], {}, {"client_assertion_from": f"file:{token_file}"}
    raise AssertionError(method)


def profile_keys(config_text):
    return dict(line.split(" = ", 1) for line in config_text.splitlines() if " = " in line)


METHODS = ["basic", "post", "RS256", "PS256", "ES256", "assertion-file"]


@pytest.mark.parametrize("method", METHODS)
def test_memory_storage_prints_a_service_account_token_and_keeps_nothing(provider, kcauth, keyring, tmp_path, method):
    client_id, extra, env, _ = method_setup(method, provider, tmp_path)
    if method == "post":
        # The profile pins the method (as a login records what discovery chose).
        kcauth.config_file.parent.mkdir(parents=True, exist_ok=True)
        kcauth.config_file.write_text("[default]\nclient_auth_method = client_secret_post\n")
    r = kcauth(*args(provider, client_id, "--storage", "memory", "-o", "raw", *extra), env=env)
    assert r.returncode == 0, r
    claims = verified_claims(provider, r.stdout.strip())
    assert claims["azp"] == client_id and claims["preferred_username"] == f"service-account-{client_id}"
    assert f"Logged in to {provider.issuer} as service-account-{client_id} with the client's credentials" in r.stderr
    assert stored_items(keyring) == []
    if method == "post":
        assert profile_keys(kcauth.config_file.read_text()) == {"client_auth_method": "client_secret_post"}, "memory keeps nothing"
    else:
        assert not kcauth.config_file.exists()
    requests_ = provider.token_requests(CC)
    assert requests_ and requests_[-1]["status"] == 200
    assert SECRET not in r.stdout + r.stderr


@pytest.mark.parametrize("method", METHODS)
def test_keyring_login_remembers_where_the_credential_comes_from_and_token_renews(start_provider, kcauth, keyring, tmp_path, method):
    provider = start_provider(access_token_lifetime=60)
    client_id, extra, env, keys = method_setup(method, provider, tmp_path)
    r = kcauth(*args(provider, client_id, *extra), env=env)
    assert r.returncode == 0, r
    assert r.stdout == ""
    config = kcauth.config_file.read_text()
    assert SECRET not in config and "s3cret" not in config and "BEGIN" not in config
    saved = profile_keys(config)
    for key, value in keys.items():
        assert saved[key] == value, config
    assert saved["grant"] == "client_credentials" and saved["client_id"] == client_id
    if method == "basic":
        assert saved["client_auth_method"] == "client_secret_basic", "the method discovery chose is pinned"
    state = json.loads(keyring.secret_tool("lookup", "profile", "default").stdout)
    assert state["grant_type"] == "client_credentials" and "refresh_token" not in state and "id_token" not in state

    first = kcauth("token", env=env)
    assert first.returncode == 0 and first.stdout.strip() == state["access_token"], first
    # Valid for 60 s, wanted for 90: a new token from the client's credentials, no refresh token.
    renewed = kcauth("token", "--min-valid", "90", env=env)
    assert renewed.returncode == 0, renewed
    assert renewed.stdout.strip() != state["access_token"]
    assert "note: the provider issues tokens valid for less than --min-valid 90 s" in renewed.stderr
    assert verified_claims(provider, renewed.stdout.strip())["azp"] == client_id
    assert [e["status"] for e in provider.token_requests(CC)] == [200, 200]
    assert not [e for e in provider.request_log() if e.get("grant_type") == "refresh_token"]
    assert SECRET not in first.stderr + renewed.stderr

    # status and whoami say how the client authenticates, never the secret.
    status = kcauth("status", "-o", "json", env=env)
    entry = json.loads(status.stdout)["profiles"][0]
    who = json.loads(kcauth("whoami", "-o", "json", env=env).stdout)
    expected_method = {"basic": "client_secret_basic", "post": "client_secret_basic"}.get(method, "private_key_jwt")
    assert entry["client_auth"] == who["client_auth"] == expected_method, (entry, who)
    source = {"basic": "$KCAUTH_CLIENT_SECRET", "post": f"file {keys.get('client_secret_file')}",
              "assertion-file": f"assertion from file {keys.get('client_assertion_from', '')[len('file:'):]}"}.get(method, f"key file {keys.get('client_key')}")
    assert entry["client_auth_source"] == who["client_auth_source"] == source
    assert f"Client auth: {expected_method}" in kcauth("status", env=env).stdout
    assert who["has_refresh_token"] is False and who["state"] == "valid" and who["client_id"] == client_id
    assert who["preferred_username"] == entry["user"] == f"service-account-{client_id}"


def test_an_expired_token_is_renewed_once_for_concurrent_callers(start_provider, kcauth, keyring):
    provider = start_provider(access_token_lifetime=33)
    env = {"KCAUTH_CLIENT_SECRET": SECRET}
    assert kcauth(*args(provider, "kcauth-confidential"), env=env).returncode == 0
    time.sleep(4)  # 29 s left: below the default --min-valid 30 from now on
    procs = [subprocess.Popen([str(kcauth_binary()), "token"], env={**kcauth.env, **env}, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outs = [p.communicate(timeout=60) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    assert len({out for out, _ in outs}) == 1, "every caller got the one renewed token"
    assert [e["status"] for e in provider.token_requests(CC)] == [200, 200], "login + one renewal under the lock"


def kcauth_binary():
    from kcauth import BINARY
    return BINARY


def test_the_platform_assertion_file_is_read_again_for_every_request(start_provider, kcauth, keyring, tmp_path):
    provider = start_provider()
    client_id, extra, env, _ = method_setup("assertion-file", provider, tmp_path)
    assert kcauth(*args(provider, client_id, *extra)).returncode == 0
    token_file = tmp_path / "platform-token"
    token_file.write_text("not-a-jwt\n")  # the platform wrote something broken
    broken = kcauth("token", "--min-valid", "600")
    assert broken.returncode == 1, broken
    assert broken.stderr.startswith(f"error: the client assertion in file {token_file} is not a signed JWT"), broken.stderr
    token_file.write_text(platform_token(provider))  # ...and rotated it
    fixed = kcauth("token", "--min-valid", "600")
    assert fixed.returncode == 0, fixed
    assert [e["status"] for e in provider.token_requests(CC)] == [200, 200]


def test_a_secret_on_the_command_line_is_refused_with_the_reason(provider, kcauth, keyring):
    r = kcauth(*args(provider, "kcauth-confidential", "--client-secret", "hunter2-value"))
    assert r.returncode == 2, r
    assert r.stderr.startswith("error: --client-secret is refused: a secret on the command line is visible to every user"), r
    assert "KCAUTH_CLIENT_SECRET" in r.stderr and "--client-secret-file" in r.stderr
    assert "hunter2-value" not in r.stderr + r.stdout
    assert not kcauth.config_file.exists() and provider.token_requests() == []


def test_a_wrong_secret_is_one_line_with_the_fix_and_nothing_is_stored(provider, kcauth, keyring):
    r = kcauth(*args(provider, "kcauth-confidential"), env={"KCAUTH_CLIENT_SECRET": "wrong-" + SECRET})
    assert r.returncode == 1, r
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "invalid_client" in lines[0] and "check the client secret" in lines[0], r.stderr
    assert "wrong-" not in r.stderr and SECRET not in r.stderr
    assert stored_items(keyring) == [] and not kcauth.config_file.exists()


def test_client_credentials_without_a_credential_says_how_to_give_one(provider, kcauth, keyring):
    r = kcauth(*args(provider, "kcauth-confidential"))
    assert r.returncode == 2, r
    assert "needs the client's secret or key" in r.stderr and "KCAUTH_CLIENT_SECRET" in r.stderr


def test_a_missing_secret_variable_later_is_a_configuration_error_naming_it(provider, kcauth, keyring):
    assert kcauth(*args(provider, "kcauth-confidential"), env={"KCAUTH_CLIENT_SECRET": SECRET}).returncode == 0
    r = kcauth("token", "--min-valid", "600")
    assert r.returncode == 1, r
    assert "KCAUTH_CLIENT_SECRET" in r.stderr


def test_file_storage_works_too(provider, kcauth, keyring, tmp_path):
    r = kcauth(*args(provider, "kcauth-confidential", "--storage", "file"), env={"KCAUTH_CLIENT_SECRET": SECRET})
    assert r.returncode == 0, r
    state = json.loads((kcauth.state_dir / "default.json").read_text())
    assert state["grant_type"] == "client_credentials" and SECRET not in json.dumps(state)
    t = kcauth("token", "--min-valid", "600", env={"KCAUTH_CLIENT_SECRET": SECRET})
    assert t.returncode == 0 and t.stdout.strip() != state["access_token"], t


def test_logout_revokes_the_token_as_the_client(provider, kcauth, keyring):
    env = {"KCAUTH_CLIENT_SECRET": SECRET}
    assert kcauth(*args(provider, "kcauth-confidential"), env=env).returncode == 0
    r = kcauth("logout", env=env)
    assert r.returncode == 0, r
    revocations = [e for e in provider.request_log() if e["path"].endswith("/revoke")]
    assert [e["status"] for e in revocations] == [200], "authenticated with the secret (401 invalid_client otherwise)"
    assert stored_items(keyring) == []
