"""Network options through the built binary: a private CA with --ca-file,
$KCAUTH_CA_FILE and the profile's ca_file (also for commands other than login), clear messages
for untrusted certificates, DNS failures and timeouts, and the proxy environment."""

import json
import socket

import pytest

from tlsserver import PrivateCA, TLSDiscoveryServer

PROXY_VARIABLES = ("http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY")


@pytest.fixture
def ca(tmp_path):
    return PrivateCA(tmp_path / "pki")


@pytest.fixture
def tls_server(ca):
    with TLSDiscoveryServer(ca) as server:
        yield server


@pytest.fixture
def kc(kcauth):
    """kcauth with no proxy variables from the developer's environment."""
    for name in PROXY_VARIABLES:
        kcauth.env.pop(name, None)
    return kcauth


def login_args(issuer, *extra):
    # --no-browser --timeout 1: once discovery has passed, the login can only time out (exit 3),
    # which proves the TLS connection to the private-CA server worked.
    return ("login", "--issuer", issuer, "--client-id", "cli", "--no-browser", "--timeout", "1", *extra)


def error_lines(r):
    """The `error:` lines of a run (login also prints progress on stderr)."""
    return [line for line in r.stderr.splitlines() if line.startswith("error:")]


def closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_private_ca_is_untrusted_without_ca_file(kc, tls_server):
    r = kc(*login_args(tls_server.issuer))
    assert r.returncode == 1, r
    assert error_lines(r) == ["error: TLS certificate of 127.0.0.1 is not trusted; "
                              "if the provider uses a private CA, pass it with --ca-file PEM (or KCAUTH_CA_FILE)"]
    assert tls_server.requests() == [], "no request got through the failed handshake"


def test_ca_file_makes_discovery_pass(kc, ca, tls_server):
    r = kc(*login_args(tls_server.issuer, "--ca-file", str(ca.ca_pem)))
    assert r.returncode == 3, r
    assert "no response from the browser within 1 s" in r.stderr
    # Discovery, then the check of the authorization request before the browser (a sign-in page).
    assert tls_server.requests() == ["/realms/demo/.well-known/openid-configuration", "/realms/demo/protocol/openid-connect/auth"]


def test_the_environment_variable_works_like_the_flag(kc, ca, tls_server):
    r = kc(*login_args(tls_server.issuer), env={"KCAUTH_CA_FILE": str(ca.ca_pem)})
    assert r.returncode == 3, r


def test_a_ca_file_that_does_not_hold_the_issuing_ca_says_so(kc, tmp_path, tls_server):
    other = PrivateCA(tmp_path / "other-pki")
    r = kc(*login_args(tls_server.issuer, "--ca-file", str(other.ca_pem)))
    assert r.returncode == 1, r
    assert "is not trusted; " in r.stderr and f"check that {other.ca_pem} holds the CA" in r.stderr


def test_a_missing_ca_file_is_reported(kc, tmp_path, tls_server):
    r = kc(*login_args(tls_server.issuer, "--ca-file", str(tmp_path / "missing.pem")))
    assert r.returncode == 1 and "cannot use CA file" in r.stderr and "missing.pem" in r.stderr, r


def test_other_commands_use_the_profiles_ca_file(kc, ca, tls_server):
    # doctor talks to the provider through Services.http(for:), like logout, whoami and refresh.
    kc.config_file.parent.mkdir(parents=True)
    kc.config_file.write_text(f"[default]\nissuer = {tls_server.issuer}\nclient_id = cli\n")
    untrusted = json.loads(kc("doctor", "-o", "json").stdout)
    issuer = {c["id"]: c for c in untrusted["checks"]}["issuer"]
    assert issuer["status"] == "fail" and "not trusted" in issuer["detail"] and "--ca-file" in issuer["fix"]

    kc.config_file.write_text(f"[default]\nissuer = {tls_server.issuer}\nclient_id = cli\nca_file = {ca.ca_pem}\n")
    trusted = {c["id"]: c for c in json.loads(kc("doctor", "-o", "json").stdout)["checks"]}
    assert trusted["issuer"]["status"] == "pass" and trusted["discovery"]["status"] == "pass", trusted


def test_an_unknown_host_cannot_be_resolved(kc):
    r = kc("login", "--issuer", "https://nosuch.invalid/realms/x", "--client-id", "cli", "--no-browser")
    assert r.returncode == 1, r
    assert error_lines(r) == ["error: cannot resolve host nosuch.invalid; check the host name in the issuer URL and the DNS"]


def test_a_refused_connection_names_host_and_port(kc):
    port = closed_port()
    r = kc(*login_args(f"http://127.0.0.1:{port}/realms/x"))
    assert r.returncode == 1 and f"cannot connect to 127.0.0.1:{port}: connection refused" in r.stderr, r


def test_a_silent_server_times_out_at_the_connect_limit(kc):
    # The kernel completes the TCP handshake for a listening socket nobody accepts on, so the
    # TLS handshake then waits for an answer that never comes: the 10 s connect limit.
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        r = kc(*login_args(f"https://127.0.0.1:{port}/realms/x"), timeout=60)
    assert r.returncode == 1, r
    assert error_lines(r) == [f"error: timed out after 10 s connecting to 127.0.0.1:{port}; "
                              "check the network; a firewall may be dropping the connection"]
    assert 9.5 < r.seconds < 20


@pytest.mark.parametrize("proxy_var,no_proxy_var", [("https_proxy", "no_proxy"), ("HTTPS_PROXY", "NO_PROXY")])
def test_the_proxy_environment_is_honoured(kc, ca, tls_server, proxy_var, no_proxy_var):
    dead_proxy = f"http://127.0.0.1:{closed_port()}"
    through = kc(*login_args(tls_server.issuer, "--ca-file", str(ca.ca_pem)), env={proxy_var: dead_proxy})
    assert through.returncode == 1, through
    assert f"${proxy_var} is set" in through.stderr
    assert tls_server.requests() == []

    bypass = kc(*login_args(tls_server.issuer, "--ca-file", str(ca.ca_pem)),
                env={proxy_var: dead_proxy, no_proxy_var: "127.0.0.1"})
    assert bypass.returncode == 3, bypass


def test_there_is_no_insecure_switch(kc, tls_server):
    r = kc(*login_args(tls_server.issuer, "--insecure"))
    assert r.returncode == 2 and "unknown option '--insecure'" in r.stderr
