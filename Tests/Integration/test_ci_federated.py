"""CI without stored secrets, end to end: the built kcauth against the test provider taught
Keycloak's federated client authentication (kcprovider/federation.py: the client kcauth-ci trusts a
live issuer, checks the signature from its JWKS, iss, sub, aud = the realm's issuer, exp, and takes
each jti once) and a local stand-in for GitHub Actions' ID-token service (platform_idp.py).

- `--client-assertion-from github-actions`: a new ID token for every token request, so a job
  outlives the platform's tokens; 32 parallel `kcauth token` steps cause one new token;
  `exec --keep-fresh` and the git helper renew the same way.
- `env:`, `file:`, `command:` and `--client-assertion-type spiffe`.
- Errors that say what to fix, exit 1: no ID-token permission, the platform refusing or silent,
  the provider refusing the assertion (naming its iss, sub and aud, never the assertion).
- `whoami` and `doctor` show the source and a fresh assertion's claims, never the assertion.
- docs/commands.md's three recipes are run as written (issuer, client id and paths replaced).
- The request token and the assertions never reach a file, the keyring, stdout or stderr.
"""

import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import set_setting
from kcauth import BINARY
from platform_idp import GITHUB_SUBJECT, PlatformIssuer
from test_json_contract import check as check_json
from test_storage_choices import verified_claims

DOCS = Path(__file__).resolve().parents[2] / "docs" / "commands.md"
CC = "client_credentials"
CLIENT = "kcauth-ci"
PERMISSION_FIX = "add `permissions: id-token: write` to the workflow or the job"


@pytest.fixture
def platform():
    with PlatformIssuer() as issuer:
        yield issuer


def github_login(kcauth, provider, env, *extra):
    return kcauth("login", "--client-credentials", "--client-assertion-from", "github-actions", "--issuer", provider.issuer,
                  "--client-id", CLIENT, "--storage", "file", *extra, env=env)


def profile_keys(kcauth):
    return dict(line.split(" = ", 1) for line in kcauth.config_file.read_text().splitlines() if " = " in line)


def assertions_sent(provider):
    """The client-credentials requests' status and assertion claims (the provider logs jti, sub, exp)."""
    return [(e["status"], e.get("assertion")) for e in provider.token_requests(CC)]


def nothing_written_holds(kcauth, tmp_path, *secrets):
    """No file under the test's home, configuration or temp dir holds any of `secrets` (but what
    the test's own fake commands wrote: they see the job's environment, as in a real job)."""
    for path in Path(tmp_path).rglob("*"):
        if path.is_file() and not path.is_symlink() and not path.name.startswith("terraform-saw"):
            data = path.read_bytes()
            for secret in secrets:
                assert secret.encode() not in data, f"{path} holds a secret"


def recipe(name):
    """The kcauth command lines of docs/commands.md's "Recipe: NAME", in order."""
    text = DOCS.read_text()
    start = text.index(f"#### Recipe: {name}\n")
    end = min(i for i in (text.find("\n#### ", start + 1), text.find("\n### ", start + 1), text.find("\n## ", start + 1)) if i > 0)
    lines, in_code = [], False
    for line in text[start:end].splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        command = line.strip()
        for prefix in ("- run: ", "- "):
            if command.startswith(prefix):
                command = command[len(prefix):]
        if in_code and command.startswith("kcauth "):
            lines.append(command)
    return lines


def run_recipe(kcauth, lines, replacements, env):
    results = []
    for line in lines:
        for old, new in replacements.items():
            line = line.replace(old, new)
        words = shlex.split(line)
        assert words[0] == "kcauth"
        results.append(kcauth(*words[1:], env=env))
        assert results[-1].returncode == 0, (line, results[-1])
    return results


def fake_terraform(tmp_path):
    """A `terraform` first on PATH that keeps what it got in $TF_VAR_access_token."""
    bin_dir = tmp_path / "fakebin"
    bin_dir.mkdir(exist_ok=True)
    saw = tmp_path / "terraform-saw"
    script = bin_dir / "terraform"
    script.write_text(f"#!/bin/sh\nprintf '%s' \"$TF_VAR_access_token\" > {shlex.quote(str(saw))}\n"
                      f"env > {shlex.quote(str(saw))}.env\necho \"terraform $*\"\n")
    script.chmod(0o755)
    return {"PATH": f"{bin_dir}:{os.environ.get('PATH', '/usr/bin:/bin')}"}, saw


def doc_replacements(provider):
    return {"https://sso.example.com/realms/demo": provider.issuer, "ci-deploy": CLIENT}


# MARK: GitHub Actions


def test_the_github_actions_recipe_runs_as_written(start_provider, platform, kcauth, tmp_path):
    provider = start_provider(ci_issuer=platform.url)
    lines = recipe("GitHub Actions")
    assert len(lines) == 2 and "--client-assertion-from github-actions" in lines[0] and lines[1].startswith("kcauth exec"), lines
    path_env, saw = fake_terraform(tmp_path)
    login, apply = run_recipe(kcauth, lines, doc_replacements(provider), {**platform.job_env(), **path_env})

    assert f"Logged in to {provider.issuer} as service-account-{CLIENT} with the client's credentials" in login.stderr
    assert platform.requests == [{"audience": provider.issuer, "authorized": True, "time": platform.requests[0]["time"]}], \
        "one ID token, for the realm's issuer, asked with the request token"
    assert assertions_sent(provider) == [(200, {"jti": platform.issued[0]["jti"], "sub": GITHUB_SUBJECT,
                                                "exp": platform.issued[0]["exp"]})]
    assert apply.stdout == "terraform apply -auto-approve\n"
    claims = verified_claims(provider, saw.read_text())
    assert claims["azp"] == CLIENT and claims["preferred_username"] == f"service-account-{CLIENT}"
    child_env = Path(f"{saw}.env").read_text()
    assert not any(v in child_env for v in platform.values), "no assertion in the environment of exec's command"

    saved = profile_keys(kcauth)
    assert saved["client_assertion_from"] == "github-actions" and saved["grant"] == "client_credentials"
    assert "client_assertion_audience" not in saved, "the issuer is the default audience, not written"
    state = json.loads((kcauth.state_dir / "default.json").read_text())
    assert state["grant_type"] == "client_credentials" and "refresh_token" not in state
    nothing_written_holds(kcauth, tmp_path, platform.request_token, *platform.values)
    for r in (login, apply):
        assert platform.request_token not in r.stdout + r.stderr
        assert not any(v in r.stdout + r.stderr for v in platform.values)


def test_a_job_outlives_the_platforms_tokens_each_request_sending_a_new_one(start_provider, platform, kcauth):
    platform.lifetime = 3
    provider = start_provider(ci_issuer=platform.url, access_token_lifetime=6)
    env = platform.job_env()
    began = time.time()
    first = github_login(kcauth, provider, env, "-o", "raw")
    assert first.returncode == 0, first
    tokens = [first.stdout.strip()]
    for _ in range(2):
        time.sleep(5)  # the access token has 1 s left (< --min-valid 2), the last ID token is 2 s past its exp
        r = kcauth("token", "--min-valid", "2", env=env)
        assert r.returncode == 0, r
        tokens.append(r.stdout.strip())
    assert time.time() - began > 3 * platform.lifetime, "the job outlived three of the platform's tokens"

    assert len(set(tokens)) == 3 and all(verified_claims(provider, t)["azp"] == CLIENT for t in tokens)
    sent = provider.token_requests(CC)
    assert [e["status"] for e in sent] == [200, 200, 200]
    assert [e["assertion"]["jti"] for e in sent] == [i["jti"] for i in platform.issued], "a new assertion for every request"
    assert len({i["jti"] for i in platform.issued}) == 3
    for earlier, request in zip(platform.issued, sent[1:]):
        assert request["time"] > earlier["exp"], "the previous ID token had expired: it could not have served"
    assert not [e for e in provider.request_log() if e.get("grant_type") == "refresh_token"], "no refresh token to use"


def test_32_parallel_steps_cause_one_new_token(start_provider, platform, kcauth):
    provider = start_provider(ci_issuer=platform.url, access_token_lifetime=30)
    env = platform.job_env()
    assert github_login(kcauth, provider, env).returncode == 0
    time.sleep(11)  # 19 s left: below --min-valid 20 from now on; the renewed token stays fresh for 10 s
    procs = [subprocess.Popen([str(BINARY), "token", "--min-valid", "20"], env={**kcauth.env, **env},
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(32)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o for o, p in zip(outs, procs) if p.returncode]
    assert len({out for out, _ in outs}) == 1, "every step got the one new token"
    assert [e["status"] for e in provider.token_requests(CC)] == [200, 200], "login + one renewal under the lock"
    assert len(platform.requests) == 2, "one new ID token for the renewal"


# Reads the token file twice a second for argv[1] seconds; counts the reads that found a token
# past its `exp` (a service account's token has no userinfo: the test checks signatures after).
READER = r"""
import base64, json, os, sys, time
path = os.environ["KCAUTH_TOKEN_FILE"]
seen, stale = [], 0
end = time.monotonic() + float(sys.argv[1])
while time.monotonic() < end:
    token = open(path).read()
    if not seen or seen[-1] != token:
        seen.append(token)
    payload = token.split(".")[1]
    if json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["exp"] <= time.time():
        stale += 1
    time.sleep(0.5)
print(json.dumps({"tokens": seen, "stale": stale}))
"""


def test_exec_keep_fresh_renews_with_new_assertions(start_provider, platform, kcauth, tmp_path):
    platform.lifetime = 3
    provider = start_provider(ci_issuer=platform.url, access_token_lifetime=5)
    env = platform.job_env()
    assert github_login(kcauth, provider, env).returncode == 0
    reader = tmp_path / "reader.py"
    reader.write_text(READER)
    r = kcauth("exec", "--keep-fresh", "--", sys.executable, str(reader), "11", env=env, timeout=90)
    assert r.returncode == 0, r
    seen = json.loads(r.stdout)
    assert len(seen["tokens"]) >= 3 and seen["stale"] == 0, seen
    assert all(verified_claims(provider, t)["azp"] == CLIENT for t in seen["tokens"])
    sent = provider.token_requests(CC)
    assert len(sent) >= 3 and all(e["status"] == 200 for e in sent)
    assert len({e["assertion"]["jti"] for e in sent}) == len(sent), "each renewal sent a new assertion"


def test_the_git_helper_renews_with_a_new_assertion(start_provider, platform, kcauth):
    provider = start_provider(ci_issuer=platform.url, access_token_lifetime=4)
    env = platform.job_env()
    assert github_login(kcauth, provider, env).returncode == 0
    set_setting(kcauth, "hosts", "git.example.test")
    time.sleep(2)  # 2 s left: less than the helpers' margin
    r = subprocess.run([str(BINARY), "git-credential", "get"], input="protocol=https\nhost=git.example.test\n\n",
                       env={**kcauth.env, **env}, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r
    answer = dict(line.split("=", 1) for line in r.stdout.splitlines() if "=" in line)
    assert verified_claims(provider, answer["password"])["azp"] == CLIENT
    assert [e["status"] for e in provider.token_requests(CC)] == [200, 200] and len(platform.requests) == 2


# MARK: errors that say what to fix


def test_without_the_id_token_permission_the_error_says_to_add_it(start_provider, platform, kcauth):
    provider = start_provider(ci_issuer=platform.url)
    r = github_login(kcauth, provider, {})
    assert r.returncode == 1, r
    assert r.stderr.strip().splitlines() == [
        "error: GitHub Actions gives this job no ID token: $ACTIONS_ID_TOKEN_REQUEST_URL and $ACTIONS_ID_TOKEN_REQUEST_TOKEN "
        f"are not set; {PERMISSION_FIX} (GitHub sets both variables only then, and never for a pull request from a fork)"]
    assert provider.token_requests(CC) == [] and platform.requests == []

    # Signed in, then a step without the permission: exit 1, not 4 (no sign-in fixes it).
    assert github_login(kcauth, provider, platform.job_env()).returncode == 0
    later = kcauth("token", "--min-valid", "600")
    assert later.returncode == 1 and PERMISSION_FIX in later.stderr, later


@pytest.mark.parametrize("status,fix", [(403, "the request token lives only as long as its job"),
                                        (503, "try again (re-run the job)")])
def test_a_refusing_platform_is_named_with_its_status_and_the_fix(start_provider, platform, kcauth, status, fix):
    provider = start_provider(ci_issuer=platform.url)
    platform.refuse = status
    r = github_login(kcauth, provider, platform.job_env())
    assert r.returncode == 1, r
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"error: GitHub Actions' ID-token service at 127.0.0.1:{platform.url.rsplit(':', 1)[1]} answered HTTP {status}; {fix}"), lines
    assert platform.request_token not in r.stderr and provider.token_requests(CC) == []


def test_a_wrong_request_token_is_a_401_with_the_fix(start_provider, platform, kcauth):
    provider = start_provider(ci_issuer=platform.url)
    env = {**platform.job_env(), "ACTIONS_ID_TOKEN_REQUEST_TOKEN": "ghs_from-another-job"}
    r = github_login(kcauth, provider, env)
    assert r.returncode == 1 and "answered HTTP 401; the request token lives only as long as its job" in r.stderr, r
    assert platform.requests[0]["authorized"] is False and "ghs_from-another-job" not in r.stderr


def test_a_silent_platform_times_out_at_the_usual_deadline(start_provider, platform, kcauth):
    provider = start_provider(ci_issuer=platform.url)
    platform.slow = True
    r = github_login(kcauth, provider, platform.job_env())
    assert r.returncode == 1, r
    port = platform.url.rsplit(":", 1)[1]
    assert r.stderr.strip().splitlines() == [
        f"error: GitHub Actions' ID-token service did not answer: timed out after 30 s waiting for 127.0.0.1:{port}; "
        "try again (re-run the job); the platform's status page says whether its ID-token service is down"]
    assert 29 < r.seconds < 45, r.seconds


def test_a_refused_assertion_names_the_iss_sub_and_aud_that_were_sent(start_provider, platform, kcauth):
    provider = start_provider(ci_issuer=platform.url, ci_subject="repo:org/app:environment:production")
    r = github_login(kcauth, provider, platform.job_env())
    assert r.returncode == 1, r
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("error: requesting a client-credentials token failed: invalid_client (Invalid token subject); "
                               f"the platform's assertion sent had iss {platform.url}, sub {GITHUB_SUBJECT}, aud {provider.issuer}; "
                               "at the provider (Keycloak: the client's Credentials, \"Signed JWT - Federated\")"), lines
    assert "federated subject must equal that sub" in lines[0]
    assert not any(v in r.stderr for v in platform.values) and not any(v.split(".")[1] in r.stderr for v in platform.values)
    assert not (kcauth.state_dir / "default.json").exists() and not kcauth.config_file.exists()


def test_an_audience_keycloak_does_not_accept_is_named(start_provider, platform, kcauth):
    provider = start_provider(ci_issuer=platform.url)
    r = github_login(kcauth, provider, platform.job_env(), "--client-assertion-audience", "sts.example.test")
    assert r.returncode == 1 and "invalid_client (Invalid token audience)" in r.stderr and "aud sts.example.test;" in r.stderr, r
    assert platform.requests[0]["audience"] == "sts.example.test"


# MARK: env:, file:, command:, spiffe


def test_the_gitlab_recipe_runs_as_written_and_its_one_token_is_taken_once(start_provider, platform, kcauth, tmp_path):
    subject = "project_path:org/app:ref_type:branch:ref:main"
    provider = start_provider(ci_issuer=platform.url, ci_subject=subject)
    lines = recipe("GitLab CI")
    assert len(lines) == 2 and "--client-assertion-from env:KEYCLOAK_ID_TOKEN" in lines[0], lines
    path_env, saw = fake_terraform(tmp_path)
    job_token = platform.mint(aud=provider.issuer, sub=subject)
    env = {"KEYCLOAK_ID_TOKEN": job_token, **path_env}
    run_recipe(kcauth, lines, doc_replacements(provider), env)
    assert verified_claims(provider, saw.read_text())["azp"] == CLIENT
    assert profile_keys(kcauth)["client_assertion_from"] == "env:KEYCLOAK_ID_TOKEN"

    # The variable is read again for the next request: the same token is refused (its jti was
    # taken), and the error names what it said.
    again = kcauth("token", "--min-valid", "600", env=env)
    assert again.returncode == 1, again
    assert "invalid_client (Token reuse detected); the platform's assertion sent had " \
           f"iss {platform.url}, sub {subject}, aud {provider.issuer}" in again.stderr
    assert job_token not in again.stderr
    fresh = kcauth("token", "--min-valid", "600", env={**env, "KEYCLOAK_ID_TOKEN": platform.mint(aud=provider.issuer, sub=subject)})
    assert fresh.returncode == 0, fresh
    assert [e["status"] for e in provider.token_requests(CC)] == [200, 401, 200]


def test_the_kubernetes_recipe_runs_as_written_and_a_rotated_file_is_read_again(start_provider, platform, kcauth, tmp_path):
    subject = "system:serviceaccount:ci:deployer"
    provider = start_provider(ci_issuer=platform.url, ci_subject=subject)
    lines = recipe("a Kubernetes pod")
    assert len(lines) == 2 and "--client-assertion-from file:/var/run/secrets/tokens/kcauth" in lines[0], lines
    token_file = tmp_path / "tokens" / "kcauth"
    token_file.parent.mkdir()
    token_file.write_text(platform.mint(aud=[provider.issuer], sub=subject, lifetime=600))
    deploy = tmp_path / "deploy.sh"
    saw = tmp_path / "deploy-saw"
    deploy.write_text(f"#!/bin/sh\nprintf '%s' \"$API_TOKEN\" > {shlex.quote(str(saw))}\n")
    deploy.chmod(0o755)
    replacements = {**doc_replacements(provider), "/var/run/secrets/tokens/kcauth": str(token_file), "./deploy.sh": str(deploy)}
    run_recipe(kcauth, lines, replacements, {})
    assert verified_claims(provider, saw.read_text())["azp"] == CLIENT
    assert profile_keys(kcauth)["client_assertion_from"] == f"file:{token_file}"

    token_file.write_text(platform.mint(aud=[provider.issuer], sub=subject, lifetime=600) + "\n")  # the kubelet rotated it
    renewed = kcauth("token", "--min-valid", "600")
    assert renewed.returncode == 0, renewed
    assert [e["assertion"]["jti"] for e in provider.token_requests(CC)] == [i["jti"] for i in platform.issued]


def test_a_command_source_runs_for_each_request_with_the_audience(start_provider, platform, kcauth, tmp_path):
    provider = start_provider(ci_issuer=platform.url)
    script = tmp_path / "get-token"
    # A helper for a platform kcauth does not know: here it asks the stand-in itself.
    script.write_text(
        "#!/bin/sh\n"
        "echo \"get-token: asking for $KCAUTH_CLIENT_ASSERTION_AUDIENCE\" >&2\n"
        "curl -sf -H \"Authorization: bearer $ACTIONS_ID_TOKEN_REQUEST_TOKEN\" "
        "\"$ACTIONS_ID_TOKEN_REQUEST_URL&audience=$KCAUTH_CLIENT_ASSERTION_AUDIENCE\" "
        f"| {shlex.quote(sys.executable)} -c 'import json,sys; print(json.load(sys.stdin)[\"value\"])'\n")
    script.chmod(0o755)
    env = platform.job_env()
    source = f"command:{script} --verbose"
    r = kcauth("login", "--client-credentials", "--client-assertion-from", source, "--issuer", provider.issuer,
               "--client-id", CLIENT, "--storage", "file", env=env)
    assert r.returncode == 0, r
    assert f"get-token: asking for {provider.issuer}" in r.stderr, "its stderr reaches the person"
    assert profile_keys(kcauth)["client_assertion_from"] == source
    renewed = kcauth("token", "--min-valid", "600", env=env)
    assert renewed.returncode == 0, renewed
    assert [e["status"] for e in provider.token_requests(CC)] == [200, 200] and len(platform.issued) == 2
    assert not any(v in r.stdout + r.stderr + renewed.stderr for v in platform.values)


def test_a_failing_or_stuck_command_is_named(start_provider, platform, kcauth, tmp_path):
    provider = start_provider(ci_issuer=platform.url)
    failing = tmp_path / "vault-token"
    failing.write_text("#!/bin/sh\necho 'vault: permission denied' >&2\nexit 2\n")
    failing.chmod(0o755)
    stuck = tmp_path / "stuck-token"
    # Its child outlives it and would hold kcauth's stderr open, if kcauth shared it.
    sleeper = tmp_path / "sleeper.pid"
    stuck.write_text(f"#!/bin/sh\necho 'stuck-token: waiting' >&2\nsleep 60 &\necho $! > {shlex.quote(str(sleeper))}\nwait\n")
    stuck.chmod(0o755)

    def login_with(source):
        return kcauth("login", "--client-credentials", "--client-assertion-from", source, "--issuer", provider.issuer,
                      "--client-id", CLIENT, "--storage", "memory", timeout=60)

    r = login_with(f"command:{failing}")
    assert r.returncode == 1, r
    assert r.stderr.splitlines()[0] == "vault: permission denied"
    assert r.stderr.splitlines()[1].startswith(
        f"error: the client assertion command {failing} failed (exit status 2); what it printed on stderr is above"), r.stderr
    try:
        r = login_with(f"command:{stuck}")
    finally:
        if sleeper.exists():
            subprocess.run(["kill", sleeper.read_text().strip()], check=False)
    assert r.returncode == 1, r
    assert r.stderr.splitlines() == [
        "stuck-token: waiting",
        f"error: the client assertion command {stuck} did not finish within 10 s; it was stopped; `kcauth doctor` shows what is wrong"]
    assert 9.5 < r.seconds < 20, "its child held none of kcauth's pipes"
    r = login_with("command:no-such-kcauth-helper")
    assert r.returncode == 1 and "cannot start the client assertion command no-such-kcauth-helper: not found on PATH" in r.stderr, r
    assert provider.token_requests(CC) == []


def test_a_spiffe_svid_is_sent_as_jwt_spiffe(start_provider, platform, kcauth, tmp_path):
    provider = start_provider(ci_issuer=platform.url)
    svid = tmp_path / "svid.token"
    svid.write_text(platform.mint(aud=provider.issuer, sub="spiffe://ci.example.test/workload"))

    def login_as(*extra):
        return kcauth("login", "--client-credentials", "--client-assertion-from", f"file:{svid}", "--issuer", provider.issuer,
                      "--client-id", "kcauth-ci-spiffe", "--storage", "memory", "-o", "raw", *extra)

    refused = login_as()
    assert refused.returncode == 1 and "Parameter client_assertion_type is missing or invalid" in refused.stderr, refused
    r = login_as("--client-assertion-type", "spiffe")
    assert r.returncode == 0, r
    assert verified_claims(provider, r.stdout.strip())["azp"] == "kcauth-ci-spiffe"


# MARK: whoami and doctor


def test_whoami_and_doctor_show_the_source_and_a_fresh_assertions_claims(start_provider, platform, kcauth):
    provider = start_provider(ci_issuer=platform.url)
    env = platform.job_env()
    assert github_login(kcauth, provider, env).returncode == 0

    text = kcauth("whoami", env=env)
    assert text.returncode == 0, text
    rows = {line.split("  ", 1)[0]: line.split("  ", 1)[1].strip() for line in text.stdout.splitlines() if "  " in line}
    assert rows["Client auth"] == "private_key_jwt (assertion from github-actions)"
    assert rows["Assertion from"] == f"github-actions, audience {provider.issuer}"
    assert rows["Assertion"].startswith(f"iss {platform.url}, sub {GITHUB_SUBJECT}, aud {provider.issuer}; valid until "), rows

    who = json.loads(kcauth("whoami", "-o", "json", env=env).stdout)
    check_json(who, "kcauth whoami -o json")
    check_json(who["client_assertion"], "kcauth whoami -o json: client_assertion")
    assert who["client_assertion"] | {"expires_at": None, "expires_in": None} == {
        "from": "github-actions", "audience": provider.issuer, "type": "jwt-bearer", "iss": platform.url, "sub": GITHUB_SUBJECT,
        "aud": [provider.issuer], "expires_at": None, "expires_in": None, "error": None}
    assert 250 < who["client_assertion"]["expires_in"] <= 300

    doctor = kcauth("doctor", "-o", "json", env=env)
    check = next(c for c in json.loads(doctor.stdout)["checks"] if c["id"] == "client-assertion")
    assert check["status"] == "pass" and check["detail"].startswith(
        f"github-actions, audience {provider.issuer}: iss {platform.url}, sub {GITHUB_SUBJECT}, aud {provider.issuer}; expires "), check

    outside = kcauth("doctor", "-o", "json")  # a step without the permission
    assert outside.returncode == 1
    failed = next(c for c in json.loads(outside.stdout)["checks"] if c["id"] == "client-assertion")
    assert failed["status"] == "fail" and failed["fix"].startswith(PERMISSION_FIX), failed
    missing = json.loads(kcauth("whoami", "-o", "json").stdout)["client_assertion"]
    assert missing["iss"] is None and missing["error"].startswith("GitHub Actions gives this job no ID token")

    for r in (text, doctor, outside):
        assert platform.request_token not in r.stdout + r.stderr
        assert not any(v in r.stdout + r.stderr for v in platform.values)
    assert len(provider.token_requests(CC)) == 1, "showing an assertion asks the provider for nothing"


def test_the_keyring_holds_the_session_and_nothing_of_the_platform(start_provider, platform, kcauth, keyring, tmp_path):
    provider = start_provider(ci_issuer=platform.url, access_token_lifetime=60)
    env = platform.job_env()
    r = kcauth("login", "--client-credentials", "--client-assertion-from", "github-actions", "--issuer", provider.issuer,
               "--client-id", CLIENT, env=env)
    assert r.returncode == 0, r
    assert kcauth("token", "--min-valid", "90", env=env).returncode == 0  # a renewal, with a second ID token
    stored = keyring.secret_tool("lookup", "profile", "default").stdout
    state = json.loads(stored)
    assert state["grant_type"] == "client_credentials" and "refresh_token" not in state
    assert len(platform.values) == 2
    for secret in [platform.request_token, *platform.values]:
        assert secret not in stored
    nothing_written_holds(kcauth, tmp_path, platform.request_token, *platform.values)


def test_the_debug_trace_shows_the_platform_request_and_none_of_its_secrets(start_provider, platform, kcauth, tmp_path):
    from test_trace_redaction import Proof

    provider = start_provider(ci_issuer=platform.url)
    trace = tmp_path / "trace.log"
    r = github_login(kcauth, provider, {**platform.job_env(), "KCAUTH_DEBUG": "1", "KCAUTH_DEBUG_FILE": str(trace)}, "-o", "raw")
    assert r.returncode == 0, r
    text = trace.read_text()
    # The ID-token service's request is in the trace, its bearer and answer redacted by type.
    assert platform.token_url.split("?")[0] in text and "[request_token: " in text, text
    assert "[client_assertion: " in text
    for secret in (platform.request_token, *platform.values, r.stdout.strip()):
        for how, form in Proof.forms(secret):
            assert form not in text, f"a secret ({how}) in the trace"
