"""No command hands out a session's token after that session was logged out or
replaced, whatever the caller's environment.

The runtime cache follows XDG_RUNTIME_DIR, which a cron job, `su` or another terminal may not
share; the session mark (by uid) is what every environment sees the same way. Each case warms
the cache in one environment, ends or replaces the session from another, and asks the first
again — through the front (`kcauth`) and through `kcauth-full`, which must agree."""

import subprocess

from kcauth import BINARY, FULL_BINARY


def both(kcauth, *args, env):
    """The front's and the full program's answers, for the same environment."""
    results = []
    for executable in (BINARY, FULL_BINARY):
        r = subprocess.run(["kcauth", *args], executable=str(executable), env=env, capture_output=True, text=True,
                           timeout=60, stdin=subprocess.DEVNULL)
        results.append((r.returncode, r.stdout, r.stderr))
    assert results[0] == results[1], results
    return results[0]


def cron_env(kcauth, tmp_path):
    """What cron gives a job: no XDG_RUNTIME_DIR (so no runtime cache of its own)."""
    return {k: v for k, v in kcauth.env.items() if k != "XDG_RUNTIME_DIR"}


def test_a_logout_from_another_environment_retires_the_cached_token(provider, keyring, kcauth, tmp_path):
    assert kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30").returncode == 0
    status, warm, _ = both(kcauth, "token", env=kcauth.env)
    assert status == 0 and warm.count(".") == 2
    # Logged out by a process that cannot see this environment's cache.
    r = subprocess.run([str(BINARY), "logout"], env=cron_env(kcauth, tmp_path), capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r
    status, out, err = both(kcauth, "token", env=kcauth.env)
    assert status == 4 and out == "" and "not logged in" in err, (status, out, err)


def test_a_new_sign_in_from_another_environment_replaces_the_cached_token(provider, keyring, kcauth, tmp_path):
    assert kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30").returncode == 0
    _, first, _ = both(kcauth, "token", env=kcauth.env)
    r = subprocess.run([str(BINARY), "login", "--force", "--timeout", "30"], env=cron_env(kcauth, tmp_path),
                       capture_output=True, text=True, timeout=90)
    assert r.returncode == 0, r
    status, second, _ = both(kcauth, "token", env=kcauth.env)
    assert status == 0 and second.count(".") == 2 and second != first, (first, second)


def test_a_session_the_provider_ended_is_not_served_from_another_environments_cache(provider, keyring, kcauth, tmp_path):
    assert kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30").returncode == 0
    status, _, _ = both(kcauth, "token", env=kcauth.env)
    assert status == 0
    # A local logout (no provider call) from the cron environment: the store is emptied there.
    r = subprocess.run([str(BINARY), "logout", "--local"], env=cron_env(kcauth, tmp_path), capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r
    status, out, _ = both(kcauth, "token", "-o", "json", env=kcauth.env)
    assert status == 4 and out == ""
