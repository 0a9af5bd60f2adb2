"""`kcauth logout`, `whoami`, `status`, `profiles` and `use` end to end: the built binary, the
real test provider, the scripted user as $BROWSER and a real gnome-keyring on a private D-Bus.

Whether a refresh token still works is asked of the provider directly (a refresh grant posted
with `requests`), never taken from kcauth's word."""

import json
import re
import time

import requests

OIDC = "/protocol/openid-connect"


def login(kcauth, provider, *extra):
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", *extra)
    assert r.returncode == 0, r


def stored_state(keyring, profile="default"):
    """The stored auth state (JSON) of a profile, read with secret-tool; None when there is none."""
    r = keyring.secret_tool("lookup", "profile", profile)
    return json.loads(r.stdout) if r.returncode == 0 and r.stdout else None


def refresh_grant(provider, refresh_token):
    """The provider's own answer to a refresh grant with this refresh token."""
    return requests.post(provider.token_endpoint, timeout=10, data={
        "grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": "kcauth"})


def requests_to(provider, suffix, method="POST"):
    return [e for e in provider.request_log() if e["path"].endswith(OIDC + suffix) and e["method"] == method]


# --- logout -------------------------------------------------------------------------------------


def test_logout_ends_the_session_at_the_provider_and_deletes_it(provider, keyring, kcauth):
    login(kcauth, provider)
    refresh_token = stored_state(keyring)["refresh_token"]

    r = kcauth("logout")

    assert r.returncode == 0, r
    assert r.stdout == ""
    assert f"Signed out of profile 'default': the session at {provider.issuer} is ended" in r.stderr
    assert stored_state(keyring) is None
    assert kcauth("token").returncode == 4
    rejected = refresh_grant(provider, refresh_token)
    assert rejected.status_code == 400 and rejected.json()["error"] == "invalid_grant", rejected.text
    assert [e["status"] for e in requests_to(provider, "/logout")] == [204], "Keycloak's back-channel logout"
    assert [e["status"] for e in requests_to(provider, "/revoke")] == [200], "then RFC 7009 revocation"
    assert f"issuer = {provider.issuer}" in kcauth.config_file.read_text(), "the settings stay"


def test_logout_local_keeps_the_server_session(provider, keyring, kcauth):
    login(kcauth, provider)
    refresh_token = stored_state(keyring)["refresh_token"]

    r = kcauth("logout", "--local")

    assert r.returncode == 0, r
    assert "stays alive until it expires" in r.stderr
    assert stored_state(keyring) is None
    assert requests_to(provider, "/logout") == [] and requests_to(provider, "/revoke") == []
    still = refresh_grant(provider, refresh_token)
    assert still.status_code == 200 and still.json()["access_token"], still.text


def test_logout_all_signs_out_every_profile(provider, keyring, kcauth):
    login(kcauth, provider)
    login(kcauth, provider, "--profile", "work")
    tokens = [stored_state(keyring, p)["refresh_token"] for p in ("default", "work")]

    r = kcauth("logout", "--all")

    assert r.returncode == 0, r
    assert "profile 'default'" in r.stderr and "profile 'work'" in r.stderr
    assert stored_state(keyring, "default") is None and stored_state(keyring, "work") is None
    for token in tokens:
        assert refresh_grant(provider, token).status_code == 400
    assert kcauth("profiles", "--names").stdout == "default\nwork\n", "--all keeps the settings"


def test_logout_with_the_provider_down_deletes_locally_and_exits_1(provider, keyring, kcauth):
    login(kcauth, provider)
    provider.stop()

    r = kcauth("logout")

    assert r.returncode == 1, r
    assert "may still be alive" in r.stderr
    assert r.stderr.count("error:") == 1
    assert stored_state(keyring) is None, "the local session goes even when the provider is unreachable"
    assert kcauth("token").returncode == 4


def test_logout_forget_removes_the_profiles_settings(provider, keyring, kcauth):
    login(kcauth, provider)
    login(kcauth, provider, "--profile", "work")
    assert kcauth("use", "work").returncode == 0

    r = kcauth("logout", "--forget")  # the default profile is now 'work'

    assert r.returncode == 0, r
    assert "Forgot the settings of profile 'work'" in r.stderr
    config = kcauth.config_file.read_text()
    assert "[work]" not in config and "default_profile" not in config and "[default]" in config
    assert stored_state(keyring, "work") is None and stored_state(keyring, "default") is not None


def test_logout_without_a_session_is_not_an_error(provider, keyring, kcauth):
    r = kcauth("logout", "--profile", "nobody")
    assert r.returncode == 0 and "was not signed in" in r.stderr, r


def test_browser_logout_follows_the_post_logout_redirect(provider, keyring, kcauth, scripted_browser_env):
    login(kcauth, provider)
    refresh_token = stored_state(keyring)["refresh_token"]
    scripted_browser_env.result_path.unlink()  # the login's result; the logout writes its own

    r = kcauth("logout", "--browser", "--timeout", "30")

    assert r.returncode == 0, r
    assert "The browser is signed out too." in r.stderr
    result = scripted_browser_env.wait_result()
    assert result["flow"] == "logout" and result["ok"], result
    assert re.match(r"http://127\.0\.0\.1:\d+/start/[\w-]{22}$", result["start_url"]), "no token in the browser's argv"
    assert result["start_status"] == 302
    url = result["logout_url"]
    assert url.startswith(provider.end_session_endpoint + "?") and "id_token_hint=" in url
    assert re.match(r"http://127\.0\.0\.1:\d+/logged-out\?", result["post_logout_url"]), result["post_logout_url"]
    assert result["post_logout_params"]["state"], "the provider echoes state (RP-Initiated Logout §3)"
    assert result["callback_status"] == 200 and "You are signed out" in result["callback_body"]
    assert [e["status"] for e in requests_to(provider, "/logout", "GET")] == [302]
    assert stored_state(keyring) is None
    assert refresh_grant(provider, refresh_token).status_code == 400


# --- whoami -------------------------------------------------------------------------------------


def test_whoami_shows_the_validated_identity_as_text_and_json(provider, keyring, kcauth):
    login(kcauth, provider)

    text = kcauth("whoami")
    assert text.returncode == 0 and text.stderr == "", text
    lines = dict(re.split(r"\s{2,}", line.strip(), maxsplit=1) for line in text.stdout.splitlines())
    assert lines["Username"] == "alice" and lines["Email"] == "alice@example.test"
    assert lines["Name"] == "Alice Liddell" and lines["Issuer"] == provider.issuer and lines["Client"] == "kcauth"
    assert "developer" in lines["Realm roles"] and lines["Storage"] == "keyring" and lines["State"] == "valid"
    assert re.fullmatch(r"valid until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(in \d+m \d+s\)", lines["Access token"])

    doc = json.loads(kcauth("whoami", "-o", "json").stdout)
    assert doc["version"] == 1 and doc["profile"] == "default"
    assert doc["preferred_username"] == "alice" and doc["email"] == "alice@example.test"
    assert re.fullmatch(r"[0-9a-f-]{36}", doc["subject"]), "Keycloak-style UUID subject"
    assert doc["issuer"] == provider.issuer and doc["client_id"] == "kcauth"
    assert sorted(doc["realm_roles"]) == ["default-roles-demo", "developer", "offline_access", "uma_authorization"]
    assert doc["roles_source"] == "id_token" and doc["client_roles"] == {}
    assert "openid" in doc["scopes"] and doc["state"] == "valid" and doc["storage"] == "keyring"
    assert 250 < doc["access_token_expires_in"] <= 300 and doc["has_refresh_token"] is True
    assert doc["refresh_token_expires_at"].endswith("Z") and doc["userinfo"] is None

    info = kcauth("whoami", "--userinfo", "-o", "json")
    assert info.returncode == 0, info
    assert json.loads(info.stdout)["userinfo"]["sub"] == doc["subject"]
    assert len(requests_to(provider, "/userinfo", "GET")) == 1


def test_whoami_userinfo_after_a_server_side_revocation_exits_4(provider, keyring, kcauth):
    login(kcauth, provider)
    state = stored_state(keyring)
    revoked = requests.post(provider.revocation_endpoint, timeout=10, data={
        "token": state["refresh_token"], "token_type_hint": "refresh_token", "client_id": "kcauth"})
    assert revoked.status_code == 200

    assert kcauth("whoami").returncode == 0, "without --userinfo, whoami reads only what is stored"
    r = kcauth("whoami", "--userinfo")
    assert r.returncode == 4, r
    assert "no longer accepts the session" in r.stderr and r.stdout == ""


def test_whoami_without_a_session_exits_4(provider, keyring, kcauth):
    r = kcauth("whoami", "--profile", "nobody")
    assert r.returncode == 4 and "run `kcauth login --profile nobody`" in r.stderr, r


# --- status -------------------------------------------------------------------------------------

STATUS_KEYS = {"profile", "selected", "issuer", "client_id", "client_auth", "client_auth_source", "user", "state", "usable", "reason",
               "access_token_expires_at", "access_token_expires_in", "refresh_token_expires_at",
               "refresh_token_expires_in", "storage", "fix", "dpop"}


def test_status_with_a_valid_a_refreshable_and_a_broken_profile(start_provider, keyring, kcauth):
    normal = start_provider()
    short = start_provider(access_token_lifetime=1)
    login(kcauth, normal, "--profile", "valid")
    login(kcauth, short, "--profile", "refreshable")
    with kcauth.config_file.open("a") as f:  # settings, but no stored session
        f.write(f"\n[stale]\nissuer = {normal.issuer}\nclient_id = kcauth\n")
    time.sleep(2.2)  # the 1 s access token has expired; its refresh token has not

    r = kcauth("status", "-o", "json", "--profile", "valid")
    assert r.returncode == 0, r
    doc = json.loads(r.stdout)
    assert doc["version"] == 1 and doc["selected_profile"] == "valid"
    entries = {e["profile"]: e for e in doc["profiles"]}
    assert list(entries) == ["valid", "refreshable", "stale"]
    assert all(set(e) == STATUS_KEYS for e in entries.values())
    v, x, s = entries["valid"], entries["refreshable"], entries["stale"]
    assert (v["state"], v["usable"], v["selected"], v["user"], v["fix"]) == ("valid", True, True, "alice", None)
    assert v["issuer"] == normal.issuer and v["storage"] == "keyring" and v["access_token_expires_in"] > 200
    assert (x["state"], x["usable"], x["issuer"]) == ("refreshable", True, short.issuer)
    assert x["access_token_expires_in"] < 0 < x["refresh_token_expires_in"]
    assert (s["state"], s["usable"], s["fix"], s["reason"]) == ("login_required", False, "kcauth login --profile stale", "not logged in")

    text = kcauth("status", "--profile", "stale")
    assert text.returncode == 4, text
    assert "valid\n  ✓ Logged in to " + normal.issuer + " as alice\n" in text.stdout
    assert "refreshable\n  ✓ Logged in" in text.stdout and "; refreshed on next use" in text.stdout
    assert "stale (selected)\n  X Login required for " + normal.issuer in text.stdout
    assert "  - To fix: kcauth login --profile stale\n" in text.stdout
    assert text.stderr == "", "the report is the message: no second error line"

    assert kcauth("status", "--profile", "refreshable").returncode == 0
    assert kcauth("status").returncode == 4, "the implicit 'default' profile is not signed in"
    assert kcauth("use", "refreshable").returncode == 0
    assert kcauth("status").returncode == 0, "the default set with `kcauth use` decides"


# --- profiles and use ---------------------------------------------------------------------------


def test_use_sets_the_default_profile_for_every_command(provider, keyring, kcauth):
    login(kcauth, provider, "--profile", "work")
    assert kcauth("token").returncode == 4

    r = kcauth("use", "work")
    assert r.returncode == 0 and "Commands now use profile 'work'" in r.stderr, r
    assert kcauth.config_file.read_text().startswith("default_profile = work\n")
    assert kcauth("token").returncode == 0
    assert json.loads(kcauth("whoami", "-o", "json").stdout)["profile"] == "work"
    assert kcauth("token", env={"KCAUTH_PROFILE": "other"}).returncode == 4, "KCAUTH_PROFILE wins over the default"
    assert kcauth("token", "--profile", "other").returncode == 4
    assert kcauth("use", "nope").returncode == 2

    listing = kcauth("profiles")
    assert listing.returncode == 0 and re.search(r"^\* work \(default\)\s+" + re.escape(provider.issuer), listing.stdout, re.M)


def test_profile_names_need_no_keyring_and_no_network(provider, keyring, kcauth, tmp_path):
    login(kcauth, provider, "--profile", "b")
    login(kcauth, provider, "--profile", "a")
    provider.stop()
    no_bus = {"DBUS_SESSION_BUS_ADDRESS": f"unix:path={tmp_path}/no-such-bus"}
    r = kcauth("profiles", "--names", env=no_bus)
    assert r.returncode == 0 and r.stdout == "b\na\n" and r.stderr == "", r
    assert r.seconds < 1.0


def test_a_malformed_config_file_fails_with_its_line_and_is_left_untouched(provider, keyring, kcauth):
    login(kcauth, provider)
    path = kcauth.config_file
    path.write_text(path.read_text() + "[broken\n")
    before = path.read_bytes()
    line = before.decode().count("\n")

    for args in (("status",), ("login", "--timeout", "5", "--no-browser")):
        r = kcauth(*args)
        assert r.returncode == 1, r
        assert f"{path}:{line}: a section header must end with ']'" in r.stderr, r
        assert path.read_bytes() == before
    assert stored_state(keyring) is not None, "nothing else was touched either"


def test_profiles_on_a_fresh_configuration_lists_no_phantom_default(provider, keyring, kcauth):
    r = kcauth("profiles")
    assert (r.returncode, r.stdout) == (0, ""), r
    assert r.stderr == f"No profiles in {kcauth.config_file} yet: `kcauth login --issuer URL --client-id ID` creates one (--profile NAME names it).\n"

    login(kcauth, provider, "--profile", "work")
    r = kcauth("profiles")
    assert r.returncode == 0 and r.stdout.splitlines() == [f"  work  {provider.issuer}  kcauth"], r
    assert "which is not in" in r.stderr and "`kcauth login` creates it, `kcauth use NAME` picks another" in r.stderr, r
    assert json.loads(kcauth("profiles", "-o", "json").stdout)["profiles"][0]["profile"] == "work"
