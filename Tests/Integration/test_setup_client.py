"""`kcauth setup-client`: the Keycloak client JSON and the kcadm.sh commands, with no
network call (checked with dead proxies in the environment, no keyring, and the provider's
request log)."""

import json
import subprocess

from kcauth import Kcauth
from keyring import no_bus_env


def offline(tmp_path):
    """kcauth with no keyring and every proxy variable pointing at a closed port: any network or
    keyring use would fail loudly."""
    dead = "http://127.0.0.1:9"
    kc = Kcauth(tmp_path, no_bus_env(tmp_path))
    kc.env.update({"http_proxy": dead, "https_proxy": dead, "HTTPS_PROXY": dead, "all_proxy": dead, "no_proxy": ""})
    return kc


def test_json_has_the_client_kcauth_needs_and_nothing_else_on_stdout(tmp_path, provider):
    before = len(provider.request_log())
    r = offline(tmp_path)("setup-client", "--server", provider.base_url, "--realm", "demo", "--client-id", "my-cli", "-o", "json")
    assert r.returncode == 0 and r.stderr == "", r
    client = json.loads(r.stdout)
    assert client["clientId"] == "my-cli" and client["protocol"] == "openid-connect"
    assert client["publicClient"] is True and client["enabled"] is True
    assert client["standardFlowEnabled"] is True
    assert client["directAccessGrantsEnabled"] is False and client["implicitFlowEnabled"] is False
    assert client["redirectUris"] == ["http://127.0.0.1/callback"]
    assert client["attributes"]["pkce.code.challenge.method"] == "S256"
    assert client["attributes"]["oauth2.device.authorization.grant.enabled"] == "true"
    assert len(provider.request_log()) == before, "no network call"


def test_json_needs_no_server_or_realm(tmp_path):
    r = offline(tmp_path)("setup-client", "--client-id", "cli", "-o", "json")
    assert r.returncode == 0 and json.loads(r.stdout)["clientId"] == "cli"


def test_the_kcadm_commands_create_the_same_client(tmp_path):
    kc = offline(tmp_path)
    script = kc("setup-client", "--server", "https://sso.example.com", "--realm", "it's", "--client-id", "cli", "-o", "kcadm")
    assert script.returncode == 0, script
    # Run the script with a stand-in kcadm.sh that records its arguments and stdin.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "calls.jsonl"
    fake = bin_dir / "kcadm.sh"
    fake.write_text(f"""#!/usr/bin/env python3
import json, sys
stdin = sys.stdin.read() if "-f" in sys.argv else ""
with open({str(record)!r}, "a") as f:
    f.write(json.dumps({{"argv": sys.argv[1:], "stdin": stdin}}) + "\\n")
""")
    fake.chmod(0o755)
    ran = subprocess.run(["sh", "-eu"], input=script.stdout, env={"PATH": f"{bin_dir}:/usr/bin:/bin"},
                         capture_output=True, text=True, timeout=30)
    assert ran.returncode == 0, ran
    calls = [json.loads(line) for line in record.read_text().splitlines()]
    assert calls[0]["argv"] == ["config", "credentials", "--server", "https://sso.example.com", "--realm", "master", "--user", "admin"]
    assert calls[1]["argv"] == ["create", "clients", "-r", "it's", "-f", "-"]
    json_only = kc("setup-client", "--client-id", "cli", "-o", "json").stdout
    assert json.loads(calls[1]["stdin"]) == json.loads(json_only)


def test_the_default_shows_both_with_headings(tmp_path):
    r = offline(tmp_path)("setup-client", "--server", "https://sso.example.com", "--realm", "demo", "--client-id", "cli")
    assert r.returncode == 0, r
    assert r.stdout.startswith("# Keycloak client for kcauth in realm demo at https://sso.example.com.\n")
    assert '"oauth2.device.authorization.grant.enabled": "true"' in r.stdout
    assert "kcadm.sh create clients -r 'demo'" in r.stdout
    assert "kcauth login --issuer https://sso.example.com/realms/demo --client-id 'cli'" in r.stdout


def test_usage_errors(tmp_path):
    kc = offline(tmp_path)
    missing = kc("setup-client", "--client-id", "cli")
    assert missing.returncode == 2 and "needs --server URL and --realm NAME" in missing.stderr and missing.stdout == ""
    plain = kc("setup-client", "--server", "http://sso.example.com", "--realm", "demo", "--client-id", "cli")
    assert plain.returncode == 2 and "must travel over https" in plain.stderr
