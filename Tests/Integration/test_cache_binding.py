"""The runtime token cache never serves a token the selected store does not hold.

A cached access token is bound to the stored session it came from (storage kind, issuer, client)
and is invalidated before the store changes, so neither another store (`KCAUTH_STORAGE=file` with
no file), nor a new login to another provider, nor a login whose settings could not be saved
afterwards, makes `kcauth token` print the previous session's token.
"""

import base64
import json
import os
from pathlib import Path


def login(kcauth, provider, *extra, env=None):
    return kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", *extra, env=env)


def issuer_of(jwt):
    payload = jwt.strip().split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["iss"]


def cache_file(keyring, profile="default"):
    return Path(keyring.env["XDG_RUNTIME_DIR"]) / "kcauth" / f"{profile}.token"


def test_another_store_with_nothing_in_it_is_not_answered_from_the_cache(provider, keyring, kcauth):
    assert login(kcauth, provider).returncode == 0
    assert kcauth("token").returncode == 0
    assert cache_file(keyring).exists(), "the keyring session's token is in the runtime cache"

    r = kcauth("token", env={"KCAUTH_STORAGE": "file"})
    assert r.returncode == 4, r
    assert r.stdout == "" and "file" in r.stderr, "the error names the store that holds nothing"
    assert kcauth("token").returncode == 0, "the keyring session is untouched"


def test_a_login_to_another_provider_never_serves_the_previous_token(start_provider, keyring, kcauth):
    first, second = start_provider(), start_provider()
    assert login(kcauth, first).returncode == 0
    old = kcauth("token")
    assert old.returncode == 0 and issuer_of(old.stdout) == first.issuer

    assert login(kcauth, second).returncode == 0
    new = kcauth("token")
    assert new.returncode == 0, new
    assert issuer_of(new.stdout) == second.issuer and new.stdout != old.stdout


def test_a_login_to_another_client_never_serves_the_previous_token(provider, keyring, kcauth):
    assert login(kcauth, provider).returncode == 0
    old = kcauth("token").stdout
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth-consent", "--timeout", "30")
    assert r.returncode == 0, r
    new = kcauth("token")
    assert new.returncode == 0 and new.stdout != old, new


def deep_config_home(tmp_path):
    """An XDG_CONFIG_HOME whose `kcauth/config` can be read but next to which no temp file can be
    created (its path would pass PATH_MAX: ENAMETOOLONG), so saving the settings fails even for
    root, after the session has been stored."""
    target_length = 4090 - len("/kcauth/config")
    base = str(tmp_path / "deep")
    parts, length = [], len(base)
    while length < target_length:
        part = "d" * min(200, target_length - length - 1)
        parts.append(part)
        length += 1 + len(part)
    os.makedirs(base, exist_ok=True)
    cwd = os.getcwd()
    os.chdir(base)
    try:
        for part in parts:  # relative steps: no single call sees a path near PATH_MAX
            os.mkdir(part)
            os.chdir(part)
        os.mkdir("kcauth", 0o700)
    finally:
        os.chdir(cwd)
    home = base + "/" + "/".join(parts)
    assert len(home + "/kcauth/config") == 4090
    return home


def test_a_login_whose_settings_cannot_be_saved_leaves_no_stale_token_in_the_cache(start_provider, keyring, kcauth, tmp_path):
    first, second = start_provider(), start_provider()
    assert login(kcauth, first).returncode == 0
    old = kcauth("token")
    assert old.returncode == 0 and cache_file(keyring).exists()

    home = deep_config_home(tmp_path)
    Path(home, "kcauth", "config").write_text(kcauth.config_file.read_text())
    env = {"XDG_CONFIG_HOME": home}
    assert kcauth("token", env=env).stdout == old.stdout, "the deep config is read like the other"

    failed = login(kcauth, second, env=env)
    assert failed.returncode != 0, failed  # the session was stored, the settings were not
    assert f"issuer = {first.issuer}" in Path(home, "kcauth", "config").read_text()

    r = kcauth("token", env=env)
    assert r.stdout != old.stdout, f"the previous session's cached token was served: {r!r}"
