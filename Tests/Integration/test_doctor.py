"""`kcauth doctor`: every check's failure reproduced with the real thing (no bus, a bus
without a Secret Service, a locked or missing collection, a hung bus or daemon, a broken config,
no runtime dir, no browser, an unreachable issuer), skips where a check does not apply, and an
all-pass run against the test provider with an unlocked keyring."""

import json
import re

import pytest

from kcauth import Kcauth
from keyring import KeyringSession, WedgedBus, build_keyring_fixture, no_bus_env
from test_encrypted_store import user_keyring  # noqa: F401 (a fixture: a user keyring of the test's own)
from provider import SCRIPTED_BROWSER

ORDER = ["session-bus", "secret-service", "default-collection", "config", "settings", "helpers", "runtime-dir", "browser",
         "issuer", "discovery", "clock", "dpop-par"]


def doctor(kc, *args, env=None):
    """Runs `doctor -o json`; returns (result, {id: check})."""
    r = kc("doctor", "-o", "json", *args, env=env, timeout=60)
    report = json.loads(r.stdout)
    assert report["ok"] == (r.returncode == 0), r
    return r, {c["id"]: c for c in report["checks"]}


def statuses(checks):
    return {k: c["status"] for k, c in checks.items()}


def write_config(kc, text):
    kc.config_file.parent.mkdir(parents=True, exist_ok=True)
    kc.config_file.write_text(text)


@pytest.fixture
def kc(kcauth, provider):
    """kcauth with an existing browser launcher and a profile that names the test provider."""
    kcauth.env["BROWSER"] = str(SCRIPTED_BROWSER)
    write_config(kcauth, f"[default]\nissuer = {provider.issuer}\nclient_id = kcauth\n")
    return kcauth


@pytest.fixture(scope="module")
def locked_fixture(tmp_path_factory):
    return build_keyring_fixture(tmp_path_factory.mktemp("keyring-fixture"))


def test_all_checks_pass_with_an_unlocked_keyring_and_the_provider(kc, provider):
    r = kc("doctor")
    assert r.returncode == 0, r
    lines = r.stdout.splitlines()
    assert len(lines) == 13 and all(line.startswith("ok    ") for line in lines[:12]), r.stdout
    assert lines[-1] == "All checks passed."
    assert r.stderr == ""

    j, checks = doctor(kc)
    assert j.returncode == 0 and list(checks) == ORDER
    assert set(statuses(checks).values()) == {"pass"}
    assert checks["default-collection"]["detail"] == "present and unlocked"
    assert provider.issuer in checks["issuer"]["detail"] and "HTTP 200" in checks["issuer"]["detail"]
    assert checks["clock"]["detail"] == "within 1 s of the provider's clock"
    assert checks["dpop-par"]["detail"] == ("the provider does not advertise DPoP and no PAR endpoint; "
                                            "the profile uses dpop = no, par = auto (ordinary requests)")


def test_no_session_bus(kc, tmp_path):
    kc.env.update(no_bus_env(tmp_path))
    kc.env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    r, checks = doctor(kc)
    assert r.returncode == 1 and r.stderr == "", r
    assert statuses(checks)["session-bus"] == "fail"
    assert checks["session-bus"]["detail"].startswith("no D-Bus session bus")
    assert "`--storage file`" in checks["session-bus"]["fix"]
    assert statuses(checks)["secret-service"] == statuses(checks)["default-collection"] == "skip"
    assert statuses(checks)["discovery"] == "pass", "the other checks still run"


def test_a_bus_without_a_secret_service(kc, tmp_path):
    with KeyringSession.bare_bus(tmp_path) as bare:
        kc.env.update(bare.env)
        r, checks = doctor(kc)
    assert r.returncode == 1, r
    assert statuses(checks)["session-bus"] == "pass"
    assert checks["secret-service"]["status"] == "fail"
    assert checks["secret-service"]["detail"] == "no Secret Service on the D-Bus session bus"
    assert "gnome-keyring" in checks["secret-service"]["fix"] and "`--storage file`" in checks["secret-service"]["fix"]
    assert statuses(checks)["default-collection"] == "skip"


@pytest.mark.parametrize("wrong_password", [False, True], ids=["never-unlocked", "wrong-password"])
def test_a_locked_collection(kc, tmp_path, locked_fixture, wrong_password):
    with KeyringSession.locked(tmp_path, locked_fixture, wrong_password=wrong_password) as locked:
        kc.env.update(locked.env)
        r, checks = doctor(kc)
    assert r.returncode == 1, r
    assert statuses(checks)["secret-service"] == "pass"
    assert checks["default-collection"]["status"] == "fail"
    assert checks["default-collection"]["detail"] == 'the keyring "Login" is locked'
    assert "unlock" in checks["default-collection"]["fix"]


def test_no_default_collection(kc, tmp_path):
    with KeyringSession.without_default_collection(tmp_path) as empty:
        kc.env.update(empty.env)
        r, checks = doctor(kc)
    assert r.returncode == 1, r
    assert checks["default-collection"]["status"] == "fail"
    assert "no default collection" in checks["default-collection"]["detail"]


def test_a_hung_bus_and_a_hung_daemon_are_told_apart(kc, keyring, tmp_path):
    with WedgedBus(tmp_path) as wedged:
        r, checks = doctor(kc, env=wedged.env)
    assert r.returncode == 1 and r.seconds < 12, r
    assert checks["session-bus"]["detail"] == "the session bus did not answer within 2 s"

    with keyring.frozen():
        r, checks = doctor(kc)
    assert r.returncode == 1 and r.seconds < 12, r
    assert statuses(checks)["session-bus"] == "pass"
    assert checks["secret-service"]["detail"] == "the keyring did not answer within 2 s"
    assert "restart gnome-keyring-daemon" in checks["secret-service"]["fix"]


def test_the_keyring_is_skipped_when_the_session_lives_in_a_file(kc, provider, tmp_path):
    kc.env.update(no_bus_env(tmp_path))
    kc.env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    write_config(kc, f"[default]\nissuer = {provider.issuer}\nstorage = file\n")
    r, checks = doctor(kc)
    assert r.returncode == 0, r
    for name in ("session-bus", "secret-service", "default-collection"):
        assert checks[name]["status"] == "skip" and "keeps its session in a file" in checks[name]["detail"]
    assert checks["state-file"]["status"] == "pass"


def test_no_issuer_skips_the_provider_checks(kc):
    write_config(kc, "[default]\nclient_id = kcauth\n")
    r, checks = doctor(kc)
    assert r.returncode == 0, r
    for name in ("issuer", "discovery", "clock", "dpop-par"):
        assert checks[name] == {"id": name, "title": checks[name]["title"], "status": "skip",
                                "detail": "no issuer configured for profile 'default'", "fix": None}
    text = kc("doctor")
    assert text.returncode == 0 and text.stdout.endswith("All checks passed (4 skipped).\n")


def test_an_unreachable_issuer(kc):
    with __import__("socket").socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    r, checks = doctor(kc, "--issuer", f"http://127.0.0.1:{port}/realms/x")
    assert r.returncode == 1
    assert checks["issuer"]["status"] == "fail" and "connection refused" in checks["issuer"]["detail"]
    assert statuses(checks)["discovery"] == statuses(checks)["clock"] == "skip"


def test_a_wrong_issuer_fails_discovery(kc, provider):
    r, checks = doctor(kc, "--issuer", provider.issuer + "-other")
    assert r.returncode == 1
    assert statuses(checks)["issuer"] == "pass" and checks["discovery"]["status"] == "fail"


def test_a_broken_config_file(kc):
    write_config(kc, "[default\n")
    r, checks = doctor(kc)
    assert r.returncode == 1
    assert checks["config"]["status"] == "fail"
    assert checks["config"]["detail"] == f"{kc.config_file}:1: a section header must end with ']'"


def test_no_runtime_dir_and_no_browser(kc, tmp_path):
    kc.env.pop("XDG_RUNTIME_DIR")
    kc.env["BROWSER"] = str(tmp_path / "no-such-browser")
    kc.env["PATH"] = str(tmp_path)
    r = kc("doctor")
    assert r.returncode == 1, r
    lines = {line.split(":")[0]: line for line in r.stdout.splitlines()}
    assert lines["FAIL  runtime directory"].startswith("FAIL  runtime directory: $XDG_RUNTIME_DIR is not set; fix: ")
    assert lines["FAIL  browser launcher"].startswith(f"FAIL  browser launcher: no browser launcher found (tried: {tmp_path}/no-such-browser)")
    assert r.stdout.endswith("\n2 of 12 checks failed; fix them in the order shown.\n") and r.stderr == "", r


def test_doctor_says_where_each_setting_came_from(kc, provider):
    """One resolver answers every setting with its source (flag, environment, file, default)."""
    kc.env["KCAUTH_STORAGE"] = "keyring"
    r, checks = doctor(kc, "--profile", "default")
    detail = checks["settings"]["detail"]
    assert "profile default (--profile)" in detail, detail
    assert f"issuer {provider.issuer} (the profile's issuer)" in detail, detail
    assert "client kcauth (the profile's client_id)" in detail, detail
    assert "storage keyring ($KCAUTH_STORAGE)" in detail, detail


# --- silent misconfigurations: said by doctor --------------------------------------------------


def test_an_unknown_key_fails_the_configuration_check_with_its_line_and_the_key_meant(kc, provider):
    write_config(kc, f"[default]\nissuer = {provider.issuer}\nclient_id = kcauth\nhost = git.example.com\n\n[work]\nclientid = cli\n")
    r, checks = doctor(kc)
    assert r.returncode == 1, r
    path = kc.config_file
    assert checks["config"]["status"] == "fail"
    assert checks["config"]["detail"] == (f"{path}: line 4 [default]: unknown key 'host' (did you mean 'hosts'?), ignored; "
                                          f"line 7 [work]: unknown key 'clientid' (did you mean 'client_id'?), ignored")
    assert "docs/configuration.md lists the keys" in checks["config"]["fix"]
    # Said once on stderr as on every use, and the other checks still ran.
    assert r.stderr == (f"warning: {path}:4: profile [default]: unknown key 'host' (did you mean 'hosts'?), ignored "
                        "(and 1 more: `kcauth doctor` lists them)\n"), r
    assert checks["discovery"]["status"] == "pass"


def test_the_helpers_check_names_the_hosts_of_each_profile(kc, provider):
    write_config(kc, f"[default]\nissuer = {provider.issuer}\nclient_id = kcauth\nhosts = git.example.com, registry.example.com:5000\n"
                     f"\n[work]\nhosts = git.example.com\n\n[plain]\n")
    r, checks = doctor(kc)
    assert r.returncode == 0, r
    assert checks["helpers"] == {"id": "helpers", "title": "git and docker helpers", "status": "pass", "fix": None,
                                 "detail": "default: git.example.com, registry.example.com:5000; "
                                           "work: git.example.com (answered by 'default', listed first)"}
    _, picked = doctor(kc, env={"KCAUTH_PROFILE": "work"})
    assert picked["helpers"]["detail"].endswith("; only 'work' answers (picked here)")


def test_a_ca_file_that_does_not_exist_fails_before_the_provider_is_asked(kc, provider, tmp_path):
    missing = tmp_path / "no-such-ca.pem"
    write_config(kc, f"[default]\nissuer = {provider.issuer}\nclient_id = kcauth\nca_file = {missing}\n")
    r, checks = doctor(kc)
    assert r.returncode == 1, r
    assert list(checks)[5:7] == ["ca-file", "helpers"]
    assert checks["ca-file"]["status"] == "fail"
    assert checks["ca-file"]["detail"] == f"{missing} cannot be read: No such file or directory"
    assert checks["ca-file"]["fix"] == "pass a readable PEM file to --ca-file"

    not_pem = tmp_path / "notes.txt"
    not_pem.write_text("not a certificate\n")
    _, checks = doctor(kc, "--profile", "default", env={"KCAUTH_CA_FILE": str(not_pem)})
    assert checks["ca-file"]["status"] == "fail" and "holds no PEM certificate" in checks["ca-file"]["detail"]


def test_a_locked_encrypted_store_is_a_failure_with_its_fix(provider, tmp_path, scripted_browser_env, user_keyring):
    from test_encrypted_store import PrivateKcauth, passphrase_file

    kc = PrivateKcauth(tmp_path, no_bus_env(tmp_path), dict(scripted_browser_env), enter=user_keyring)
    phrase = passphrase_file(tmp_path / "passphrase", "correct horse battery staple")
    r = kc("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", "--storage", "encrypted",
           "--passphrase-file", str(phrase))
    assert r.returncode == 0, r
    assert kc("unlock", "--passphrase-file", str(phrase)).returncode == 0
    _, checks = doctor(kc)
    assert checks["store-unlocked"]["status"] == "pass", checks
    # The one duration format of kcauth ("in 29m 56s"), also for the store's unlock time.
    assert re.search(r"until \S+Z \(in 1[12]h \d+m\)$", checks["store-unlocked"]["detail"]), checks["store-unlocked"]
    assert re.search(r"^  - Storage: encrypted, unlocked until \S+Z \(in 1[12]h \d+m\)$", kc("status").stdout, re.M)
    assert kc("lock").returncode == 0

    r, checks = doctor(kc)
    assert r.returncode == 1, r
    assert checks["store-unlocked"]["status"] == "fail"
    assert checks["store-unlocked"]["detail"].startswith("locked: ")
    assert checks["store-unlocked"]["fix"].startswith("run `kcauth unlock`")
    status = kc("status")
    assert status.returncode == 5, "status treats it the same way"
