"""Concurrent refreshes never destroy the session.

A cron job (no XDG_RUNTIME_DIR, its own XDG_CACHE_HOME) and a terminal refresh the same profile at
the same moment. The refresh lock must not depend on those variables: with refresh-token rotation
and reuse protection a second refresh with the same refresh token ends the whole session at the
provider. And a transient failure (a 5xx) never deletes what is stored.
"""

import json
import subprocess
import time

import pytest

from kcauth import BINARY


def login(kcauth, provider, *extra):
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", *extra)
    assert r.returncode == 0, r


def stored_state(keyring, profile="default"):
    r = keyring.secret_tool("lookup", "profile", profile)
    return json.loads(r.stdout) if r.returncode == 0 and r.stdout else None


def cron_like(kcauth, tmp_path):
    """The environment cron gives a job: no XDG_RUNTIME_DIR, another XDG_CACHE_HOME."""
    env = {k: v for k, v in kcauth.env.items() if k != "XDG_RUNTIME_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cron-cache")
    return env


def terminal_like(kcauth, tmp_path):
    return {**kcauth.env, "XDG_CACHE_HOME": str(tmp_path / "terminal-cache")}


def test_a_cron_job_and_a_terminal_refreshing_at_once_make_one_refresh_and_both_succeed(
        start_provider, keyring, kcauth, tmp_path):
    # The provider sits on each refresh for 2 s: both processes want a refresh inside that window.
    provider = start_provider(access_token_lifetime=30, reuse_protection=True, refresh_delay=2)
    login(kcauth, provider)
    before = stored_state(keyring)
    time.sleep(5.5)  # 24.5 s left: below --min-valid 25, so both want a refresh; a new token is not

    def start(env):
        return subprocess.Popen([str(BINARY), "token", "--min-valid", "25"], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    terminal = start(terminal_like(kcauth, tmp_path))
    time.sleep(0.5)  # the terminal's refresh is now waiting at the provider
    cron = start(cron_like(kcauth, tmp_path))
    results = []
    for p in (terminal, cron):
        out, err = p.communicate(timeout=60)
        results.append((p.returncode, out, err))

    assert [code for code, _, _ in results] == [0, 0], results
    assert results[0][1] == results[1][1], "both print the one new access token"
    assert len(provider.token_requests("refresh_token")) == 1, provider.token_requests("refresh_token")
    after = stored_state(keyring)
    assert after is not None and after["refresh_token"] != before["refresh_token"]
    assert after["access_token"] == results[0][1].strip()

    # The session survived at the provider too: the stored (rotated) refresh token still works.
    again = kcauth("refresh")
    assert again.returncode == 0, again
    assert len(provider.token_requests("refresh_token")) == 2


def test_sixteen_callers_from_mixed_environments_share_one_refresh(start_provider, keyring, kcauth, tmp_path):
    provider = start_provider(access_token_lifetime=30, reuse_protection=True, refresh_delay=1)
    login(kcauth, provider)
    time.sleep(5.5)  # below --min-valid 25 now
    envs = [cron_like(kcauth, tmp_path) if i % 2 else terminal_like(kcauth, tmp_path) for i in range(16)]
    procs = [subprocess.Popen([str(BINARY), "token", "--min-valid", "25"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for env in envs]
    results = [(p.returncode, out, err) for p in procs for out, err in [p.communicate(timeout=90)]]

    assert [code for code, _, _ in results] == [0] * 16, [r for r in results if r[0]]
    assert len({out for _, out, _ in results}) == 1, "all print the same new token"
    assert len(provider.token_requests("refresh_token")) == 1
    assert kcauth("refresh").returncode == 0, "the stored refresh token still works afterwards"


@pytest.mark.parametrize("answer", [
    {"status": 500, "html": "<html><body><h1>Internal Server Error</h1></body></html>"},
    {"status": 503, "error": "temporarily_unavailable", "error_description": "try again later"},
], ids=["500-html", "503-json"])
def test_a_transient_failure_on_refresh_exits_1_and_never_deletes_the_session(start_provider, keyring, kcauth, answer):
    provider = start_provider(refresh_error=answer)
    login(kcauth, provider)
    before = keyring.secret_tool("lookup", "profile", "default").stdout
    for command in (("refresh",), ("token", "--min-valid", "86400")):
        r = kcauth(*command)
        assert r.returncode == 1, r
        assert r.stdout == "" and r.stderr.count("\n") <= 2, r
    assert len(provider.token_requests("refresh_token")) == 2
    assert keyring.secret_tool("lookup", "profile", "default").stdout == before, "stored state byte for byte"
    assert kcauth("token").returncode == 0, "the session is still there"
