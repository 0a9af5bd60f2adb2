"""`kcauth doctor --bundle FILE`: the bug-report archive, from the built binary against the real
provider and a real gnome-keyring.

Each bundle is extracted with Python's tarfile and every part checked for what it must say: the
discovery document is the provider's (its issuer), the library versions are the ones the system's
own tools report (`openssl version`, `curl-config --version`, zlib's), the trace shows `kcauth
token`'s request to the token endpoint, doctor's checks are there as text and JSON. Then every byte
of every member is searched for every secret of the session — the stored access, refresh and ID
tokens, everything the provider's database issued, the authorization request's secrets, the client
secret and its encoded forms, the DPoP key — as sent and base64url-, base64-, percent-, form- and
JSON-encoded (the proof of test_trace_redaction.py): none may appear, nor any signed JWT.
"""

import base64
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import tarfile
import urllib.parse

import pytest

from provider import ProviderFactory
from test_client_authentication import SECRET
# The module's keyring, scripted browser and kcauth are the redaction proof's fixtures.
from test_trace_redaction import JWT, TEXT_LINE, Proof, browser, browser_result, kc, login_args, shared_keyring, stored  # noqa: F401

PARTS = {"version.txt", "system.txt", "configuration.txt", "discovery.json", "doctor.txt", "doctor.json", "token.txt",
         "token-trace.log"}


@pytest.fixture(scope="module")
def providers():
    factory = ProviderFactory()
    # A: access tokens that live less than `token`'s 30 s minimum, so the bundle's `token` refreshes
    # (a token request in its trace). B: DPoP, so a session holds a key.
    yield factory(access_token_lifetime=20), factory(dpop="on", access_token_lifetime=20)
    factory.stop_all()


@pytest.fixture(scope="module")
def proof(tmp_path_factory):
    return Proof(tmp_path_factory.mktemp("bundles"))


def extract(path):
    """The archive's members by name (under kcauth-bundle/), each a regular file, 0600."""
    raw = path.read_bytes()
    assert raw[:2] == b"\x1f\x8b", "a gzip file"
    gzip.decompress(raw)  # the CRC and length of the gzip trailer are checked
    members = {}
    with tarfile.open(path, "r:gz") as archive:
        for info in archive.getmembers():
            assert info.isfile() and info.name.startswith("kcauth-bundle/"), info.name
            assert info.mode == 0o600, (info.name, oct(info.mode))
            members[info.name.removeprefix("kcauth-bundle/")] = archive.extractfile(info).read()
    return members


def bundle(kc, tmp_path, profile, env=None):
    path = tmp_path / f"bundle-{profile}.tar.gz"
    r = kc("doctor", "--profile", profile, "--bundle", str(path), env=env, timeout=120)
    assert r.returncode == 0 and r.stdout == "", r
    assert oct(os.stat(path).st_mode & 0o777) == "0o600"
    members = extract(path)
    assert set(members) == PARTS | (set() if "discovery.json" in members else {"discovery.txt"}), sorted(members)
    # One line on stderr per part, then the path.
    said = r.stderr.splitlines()
    assert [line.split(":")[0] for line in said[:-1]] == ["bundle"] * len(members), r.stderr
    assert {line.split(": ")[1] for line in said[:-1]} == set(members), r.stderr
    assert said[-1].startswith(f"wrote {path}: "), r.stderr
    return {name: data.decode() for name, data in members.items()}


def library_versions(system):
    return dict(re.findall(r"^  (libcurl|OpenSSL \(libcrypto\)|libsecret|zlib): (.+)$", system, re.M))


def check_parts(parts, provider, profile):
    assert parts["version.txt"].startswith("kcauth ") and "\nbuild: " in parts["version.txt"]
    program = re.search(r"^program: (.+)$", parts["version.txt"], re.M).group(1)
    assert os.path.basename(program) == "kcauth-full" and os.path.exists(program)

    system = parts["system.txt"]
    uname = os.uname()
    assert system.startswith(f"uname: {uname.sysname} {uname.release} {uname.version} {uname.machine}\n"), system
    assert "/etc/os-release:\n" in system and re.search(r"^  ID=", system, re.M)
    versions = library_versions(system)
    openssl = subprocess.run(["openssl", "version"], capture_output=True, text=True, check=True).stdout.split()[1]
    # `openssl version` says the library's version ("Library: OpenSSL x" when it differs from the tool's).
    assert versions["OpenSSL (libcrypto)"].startswith(f"OpenSSL {openssl} "), versions
    if shutil.which("curl-config"):
        curl = subprocess.run(["curl-config", "--version"], capture_output=True, text=True, check=True).stdout.split()[1]
        assert versions["libcurl"].startswith(curl + " ("), versions
    assert f"TLS OpenSSL/{openssl}" in versions["libcurl"], versions
    zlib = subprocess.run(["pkg-config", "--modversion", "zlib"], capture_output=True, text=True, check=True).stdout.strip()
    assert versions["zlib"] == zlib and f"zlib {zlib}" in versions["libcurl"], versions
    # The keyring profiles' checks load libsecret: the file it came from and GLib's version.
    libsecret = versions["libsecret"]
    found = re.fullmatch(r"loaded from (\S+) \(GLib (\d+\.\d+\.\d+)\)", libsecret)
    assert found, libsecret
    assert os.path.realpath(found.group(1)) == found.group(1) and os.path.basename(found.group(1)).startswith("libsecret-1.so.0")
    glib = subprocess.run(["pkg-config", "--modversion", "glib-2.0"], capture_output=True, text=True, check=True).stdout.strip()
    assert found.group(2) == glib

    configuration = parts["configuration.txt"]
    assert f"issuer = {provider.issuer} (the profile's issuer)" in configuration, configuration
    assert f"profile = {profile} (--profile)" in configuration, configuration

    discovery = json.loads(parts["discovery.json"])
    assert discovery["issuer"] == provider.issuer and discovery["token_endpoint"] == provider.token_endpoint

    checks = json.loads(parts["doctor.json"])
    assert checks["profile"] == profile and {"issuer", "discovery", "secret-service"} <= {c["id"] for c in checks["checks"]}
    assert next(c for c in checks["checks"] if c["id"] == "discovery")["status"] == "pass"
    text = parts["doctor.txt"]
    assert len(text.splitlines()) == len(checks["checks"]) + 1 and "discovery document: issuer matches" in text

    assert parts["token.txt"].startswith(f"kcauth token --profile {profile}\nexit status: 0\n"), parts["token.txt"]
    trace = parts["token-trace.log"]
    lines = trace.splitlines()
    assert lines and all(TEXT_LINE.match(line) for line in lines), trace
    assert lines[0].split()[2] == "command.start" and "command=token" in lines[0]
    assert "command.end command=token exit_status=0" in lines[-1]
    requests = [line for line in lines if TEXT_LINE.match(line).group(1) == "http.request"]
    assert any(f"url={provider.token_endpoint}" in line and "grant_type=refresh_token" in line for line in requests), trace


def search(proof, parts, label):
    """Every secret of the session, in every encoded form, in every byte of every member."""
    proof.check([(f"{label}: {name}", text) for name, text in parts.items()])
    for name, text in parts.items():
        assert not JWT.search(text), name


def test_a_signed_in_profile(proof, providers, kc, shared_keyring, browser, tmp_path):
    a, _ = providers
    r = kc(*login_args(a, "bundled"))
    assert r.returncode == 0, r
    proof.browser(browser_result(browser), "the sign-in's browser")
    before = stored(shared_keyring, "bundled")
    proof.session(before, "the session")

    parts = bundle(kc, tmp_path, "bundled")
    check_parts(parts, a, "bundled")
    # The bundle's `token` refreshed: the new tokens are in the store, and searched for too.
    after = stored(shared_keyring, "bundled")
    assert after["access_token"] != before["access_token"]
    proof.session(after, "the session after the bundle's token")
    proof.provider(a)
    search(proof, parts, "bundled")
    assert "client authentication: none" in parts["configuration.txt"]


def test_a_dpop_profile(proof, providers, kc, shared_keyring, browser, tmp_path):
    _, b = providers
    r = kc(*login_args(b, "bound", "--dpop"))
    assert r.returncode == 0, r
    proof.browser(browser_result(browser), "the DPoP sign-in's browser")
    state = stored(shared_keyring, "bound")
    assert state["token_type"] == "DPoP" and state["dpop"]["private_key"]
    proof.session(state, "the DPoP session")

    parts = bundle(kc, tmp_path, "bound")
    check_parts(parts, b, "bound")
    assert "dpop = yes (the profile's dpop)" in parts["configuration.txt"], parts["configuration.txt"]
    # The refresh was sent with a DPoP proof (RFC 9449 §5), shown redacted.
    token_request = next(line for line in parts["token-trace.log"].splitlines()
                         if " http.request " in line and f"url={b.token_endpoint}" in line)
    assert 'DPoP="[dpop_proof: ' in token_request, token_request
    proof.session(stored(shared_keyring, "bound"), "the DPoP session after the bundle's token")
    proof.provider(b)
    search(proof, parts, "bound")


def test_a_client_secret_shows_its_source_and_redacted_form_never_its_value(proof, providers, kc, shared_keyring, tmp_path):
    a, _ = providers
    proof.secret(SECRET, "the client secret")
    # Its encoded forms (Proof.forms) are searched for too; and the Basic header it is sent in.
    basic = base64.b64encode(f"kcauth-confidential:{urllib.parse.quote(SECRET, safe='-._~')}".encode()).decode()
    proof.secret(basic, "the client secret's Basic header")
    env = {"KCAUTH_CLIENT_SECRET": SECRET}
    r = kc("login", "--client-credentials", "--issuer", a.issuer, "--client-id", "kcauth-confidential", "--profile", "cc", env=env)
    assert r.returncode == 0, r
    proof.session(stored(shared_keyring, "cc"), "the client-credentials session")

    parts = bundle(kc, tmp_path, "cc", env=env)
    configuration = parts["configuration.txt"]
    found = re.search(r"^client authentication: client_secret_basic, from \$KCAUTH_CLIENT_SECRET: "
                      r"\[client_secret: (\d+) bytes, sha256 ([0-9a-f]{8})\]$", configuration, re.M)
    assert found, configuration
    assert int(found.group(1)) == len(SECRET.encode()) and found.group(2) == hashlib.sha256(SECRET.encode()).hexdigest()[:8]
    # The renewed client-credentials token was requested with the secret (client_secret_basic,
    # RFC 6749 §2.3.1): the trace shows its Authorization header redacted.
    trace = parts["token-trace.log"]
    request = next(line for line in trace.splitlines() if " http.request " in line and f"url={a.token_endpoint}" in line)
    assert "grant_type=client_credentials" in request and 'Authorization="[authorization: ' in request, trace
    proof.session(stored(shared_keyring, "cc"), "the renewed client-credentials session")
    proof.provider(a)
    search(proof, parts, "cc")
    # Without the variable, the source is named and the secret said to be missing, still no value.
    parts = bundle(kc, tmp_path, "cc")
    assert re.search(r"^client authentication: .*from \$KCAUTH_CLIENT_SECRET .*: cannot be read \(", parts["configuration.txt"], re.M)
    search(proof, parts, "cc without its secret")


def test_a_missing_directory_or_a_link_is_refused_and_nothing_is_written(kc, tmp_path):
    missing = tmp_path / "nowhere" / "bundle.tar.gz"
    r = kc("doctor", "--bundle", str(missing))
    assert r.returncode == 1 and r.stdout == "", r
    assert r.stderr == f"error: cannot write {missing}: the directory {missing.parent} does not exist; create it first, or choose another file name\n", r
    assert not missing.parent.exists()

    target = tmp_path / "target"
    target.write_text("mine\n")
    link = tmp_path / "link.tar.gz"
    link.symlink_to(target)
    r = kc("doctor", "--bundle", str(link))
    assert r.returncode == 1 and r.stdout == "", r
    assert r.stderr == f"error: refusing to use {link}: it is a symbolic link; remove it\n", r
    assert target.read_text() == "mine\n" and link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.tar.gz", "target"], "no temporary file left"

    # An existing file is replaced atomically, as `tar -czf` would (0600, whatever it was).
    old = tmp_path / "old.tar.gz"
    old.write_text("old\n")
    old.chmod(0o644)
    r = kc("doctor", "--bundle", str(old))
    assert r.returncode == 0, r
    assert oct(os.stat(old).st_mode & 0o777) == "0o600" and "doctor.json" in extract(old)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.tar.gz", "old.tar.gz", "target"]

    r = kc("doctor", "--bundle", str(tmp_path / "x.tar.gz"), "-o", "json")
    assert r.returncode == 2 and r.stderr.startswith("error: --bundle writes the report as text and as JSON: drop -o"), r
