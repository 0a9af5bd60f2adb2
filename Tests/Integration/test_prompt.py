"""`kcauth prompt` end to end with the real binaries, provider and keyring: the line follows the
session (signed in with the time left, expired but refreshable, sign-in needed, store locked)
without a request, a keyring call or a refresh; the front and the full program print the same;
and it works where people put it: a bash prompt, a zsh prompt, a tmux status line, a starship
`custom` module's command (docs/integrations.md's recipes, as written there).

`KCAUTH_TOKEN_CACHE=on` makes the front hand the command to kcauth-full (the front serves only
when the variable is unset) while both read the same cache: that is the comparison run."""

import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from kcauth import BINARY, FULL_BINARY

NO_BUS = {"DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/kcauth-test-bus"}
FULL = {"KCAUTH_TOKEN_CACHE": "on"}
FIELDS = "{profile}|{state}|{expires_in}|{user}|{summary}"


def login(kcauth, provider, *extra):
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", *extra)
    assert r.returncode == 0, r


def prompt(kcauth, *args, env=None):
    """Both programs' answers, which must be the same; the front's is returned."""
    front = kcauth("prompt", *args, env={**NO_BUS, **(env or {})})
    full = kcauth("prompt", *args, env={**NO_BUS, **FULL, **(env or {})})
    assert (front.returncode, front.stdout, front.stderr) == (full.returncode, full.stdout, full.stderr), (front, full)
    assert front.returncode == 0 and front.stderr == "", front
    return front.stdout


def test_the_line_follows_the_session_without_a_request_or_the_keyring(start_provider, keyring, kcauth):
    provider = start_provider(access_token_lifetime=8)
    assert prompt(kcauth) == "\n", "no configuration: nothing to show"
    login(kcauth, provider)
    requests = len(provider.request_log())
    # Signed in: login left the runtime copy; no bus at all, so no keyring call can have answered.
    line = prompt(kcauth, "--format", FIELDS)
    assert re.fullmatch(r"default\|valid\|[0-8]s\|alice\|[0-8]s\n", line), line
    assert re.fullmatch(r"default [0-8]s\n", prompt(kcauth))
    assert prompt(kcauth, "--format", "{state}", "--profile", "nope") == "\n"

    time.sleep(9)   # the access token expires; the refresh token (30 min) does not
    assert prompt(kcauth, "--format", FIELDS) == "default|refreshable||alice|expired\n"
    assert prompt(kcauth) == "default expired\n"
    assert len(provider.request_log()) == requests, "the prompt never asks the provider"
    assert provider.token_requests("refresh_token") == [], "and never refreshes"

    assert kcauth("token").returncode == 0   # a refresh: the line is signed in again
    assert re.fullmatch(r"default [0-8]s\n", prompt(kcauth))

    assert kcauth("logout").returncode == 0
    assert prompt(kcauth, "--format", FIELDS) == "default|login_required|||login\n"


def test_a_locked_store_is_said_when_the_cache_no_longer_answers(start_provider, keyring, kcauth):
    provider = start_provider(access_token_lifetime=5)
    login(kcauth, provider)
    cache = Path(keyring.env["XDG_RUNTIME_DIR"]) / "kcauth"
    time.sleep(6)
    assert prompt(kcauth) == "default expired\n"
    # The keyring is locked (no display to ask in): `kcauth token` fails, and says so for the prompt.
    call = ["gdbus", "call", "--session", "--dest", "org.freedesktop.secrets", "--object-path", "/org/freedesktop/secrets",
            "--method"]   # (secret-tool lock crashes in libsecret 0.20.5)
    alias = subprocess.run([*call, "org.freedesktop.Secret.Service.ReadAlias", "default"], env=keyring.env, capture_output=True,
                           text=True, timeout=30)
    collection = re.search(r"'(/org/freedesktop/secrets/collection/[^']+)'", alias.stdout).group(1)
    locked = subprocess.run([*call, "org.freedesktop.Secret.Service.Lock", f"['{collection}']"], env=keyring.env,
                            capture_output=True, text=True, timeout=30)
    assert locked.returncode == 0, locked
    r = kcauth("token", env={"DISPLAY": "", "WAYLAND_DISPLAY": ""})
    assert r.returncode == 5, r
    assert (cache / "keyring.locked").stat().st_mode & 0o777 == 0o600
    assert prompt(kcauth, "--format", "{state} {summary}") == "locked locked\n"


def test_a_read_of_the_store_clears_the_lock_note(start_provider, keyring, kcauth):
    provider = start_provider(access_token_lifetime=5)
    login(kcauth, provider)
    note = Path(keyring.env["XDG_RUNTIME_DIR"]) / "kcauth" / "keyring.locked"
    note.write_text("")
    note.chmod(0o600)
    assert prompt(kcauth) != "default locked\n", "a valid token is served from the cache whatever the store"
    time.sleep(6)
    assert prompt(kcauth) == "default locked\n"
    assert kcauth("token").returncode == 0   # the store is read (and the session refreshed)
    assert not note.exists()
    assert re.fullmatch(r"default [0-5]s\n", prompt(kcauth))


def test_only_its_own_command_line_is_an_error(provider, keyring, kcauth):
    login(kcauth, provider)
    for args in (["--format", "{nope}"], ["--colour"], ["--format"], ["extra"]):
        r = kcauth("prompt", *args)
        assert r.returncode == 2 and r.stdout == "" and r.stderr.startswith("error: "), r
    # Whatever the files or the environment say, a line and exit 0, nothing on stderr.
    for env in ({"KCAUTH_PROFILE": "../x"}, {"KCAUTH_STORAGE": "bogus"}, {"LC_KCAUTH_FORWARD": "/nonexistent/agent.sock"},
                {"KCAUTH_ISSUER": "not a url"}):
        r = kcauth("prompt", env=env)
        assert (r.returncode, r.stdout, r.stderr) == (0, "\n", ""), (env, r)
    (kcauth.home / "proj").mkdir()
    # A directory file naming no configured profile stops every other command (exit 4); the
    # prompt, which never shows an error, shows nothing for it, as for an unknown --profile.
    (kcauth.home / "proj" / ".kcauth-profile").write_text("nope\n")
    for program in (BINARY, FULL_BINARY):  # the front and kcauth-full alike
        r = subprocess.run([str(program), "prompt", "--format", "{profile}"], cwd=kcauth.home / "proj", env=kcauth.env,
                           capture_output=True, text=True, timeout=30)
        assert (r.returncode, r.stdout, r.stderr) == (0, "\n", ""), r
    kcauth.config_file.write_text("[default\n")
    r = kcauth("prompt")
    assert (r.returncode, r.stdout, r.stderr) == (0, "\n", ""), r


# -- where people put it (docs/integrations.md) ---------------------------------------------------

def shell_env(kcauth):
    """The shells find `kcauth` on PATH, as an installed one."""
    return {**kcauth.env, **NO_BUS, "PATH": f"{BINARY.parent}:{kcauth.env['PATH']}", "TERM": "dumb"}


def test_the_bash_prompt_recipe(provider, keyring, kcauth):
    login(kcauth, provider)
    script = "PS1='[$(kcauth prompt)] \\w \\$ '\necho ready\nexit\n"
    r = subprocess.run(["bash", "--noprofile", "--norc", "-i"], input=script, env=shell_env(kcauth), capture_output=True,
                       text=True, timeout=30, cwd=kcauth.home)
    assert "ready" in r.stdout
    assert re.search(r"\[default \d+m\] ~ [$#] ", r.stderr), r.stderr   # bash writes the prompt to stderr


def test_the_zsh_prompt_recipe(provider, keyring, kcauth):
    login(kcauth, provider)
    script = "setopt prompt_subst\nPROMPT='[$(kcauth prompt)] %~ %# '\necho ready\nexit\n"
    r = subprocess.run(["zsh", "-f", "-i"], input=script, env=shell_env(kcauth), capture_output=True, text=True, timeout=30,
                       cwd=kcauth.home)
    assert "ready" in r.stdout
    assert re.search(r"\[default \d+m\] ~ [%#] ", r.stdout + r.stderr), (r.stdout, r.stderr)


def test_the_tmux_status_line_recipe(provider, keyring, kcauth):
    """A real tmux server and a client attached in a pseudo-terminal (script(1)): the status line
    shows what `#(kcauth prompt)` printed."""
    login(kcauth, provider)
    short = Path(tempfile.mkdtemp(prefix="kct-"))   # a socket path must stay short
    socket = short / "tmux.sock"
    env = {**shell_env(kcauth), "TERM": "xterm"}
    conf = short / "tmux.conf"
    conf.write_text("set -g status-interval 1\nset -g status-right '#(kcauth prompt --format \"kc:{summary}\")'\n")
    tmux = ["tmux", "-S", str(socket), "-f", str(conf)]
    client = None
    try:
        subprocess.run([*tmux, "new-session", "-d", "-s", "g", "-x", "120", "-y", "10", "sleep 60"], env=env, check=True, timeout=30)
        out = short / "client.out"
        with open(out, "wb") as sink:
            client = subprocess.Popen(["script", "-qfc", " ".join([*tmux, "attach", "-t", "g"]), "/dev/null"], env=env,
                                      stdout=sink, stderr=subprocess.STDOUT, stdin=subprocess.PIPE, start_new_session=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not re.search(rb"kc:\d+m", out.read_bytes()):
            time.sleep(0.2)
        assert re.search(rb"kc:\d+m", out.read_bytes()), out.read_bytes()[-2000:]
    finally:
        subprocess.run([*tmux, "kill-server"], env=env, capture_output=True, timeout=30)
        if client is not None:
            try:
                os.killpg(client.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            client.wait(timeout=10)
        shutil.rmtree(short, ignore_errors=True)


def test_the_starship_custom_module_command(provider, keyring, kcauth):
    """starship is not packaged in Debian 12: its `custom` module runs `command` with `sh -c` when
    `when` succeeds; here are the recipe's two lines, run the same way."""
    login(kcauth, provider)
    env = shell_env(kcauth)
    when = subprocess.run(["sh", "-c", "command -v kcauth"], env=env, capture_output=True, text=True, timeout=30)
    assert when.returncode == 0
    r = subprocess.run(["sh", "-c", "kcauth prompt --format '{profile} {summary}'"], env=env, capture_output=True, text=True,
                       timeout=30)
    assert r.returncode == 0 and re.fullmatch(r"default \d+m\n", r.stdout) and r.stderr == "", r
