"""The static front (Sources/kcauth) and its hand-off to the full program (kcauth-full): every
command but a warm-cache token is run by kcauth-full, with the argv (argv[0] included) and the
environment the front was given, and a missing or replaceable kcauth-full is refused with one line.

The hand-off itself is observed with strace: the execve the front makes, with its argv and envp."""

import os
import re
from pathlib import Path
import shutil
import subprocess

import pytest

from kcauth import BINARY, FULL_BINARY, REPO


def source_version():
    text = (REPO / "Sources/KCAuthCLI/KCAuthMain.swift").read_text()
    return re.search(r'static let version = "([^"]+)"', text).group(1)


def run(argv, executable=BINARY, env=None, timeout=30):
    """Runs `executable` with exactly `argv` (argv[0] included), like the shell's `exec -a`."""
    return subprocess.run(argv, executable=str(executable), env=env if env is not None else {"PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=timeout)


def execs(tmp_path, argv, env, executable=BINARY, input=None):
    """The execve calls the process and its children made: [(path, argv, envp)], via strace -f."""
    if not shutil.which("strace"):
        pytest.fail("strace is not installed (scripts/install-deps installs it)")
    log = tmp_path / "strace.log"
    r = subprocess.run(["strace", "-f", "-qq", "-v", "-s", "4096", "-e", "trace=execve", "-o", str(log),
                        "--", "env", "-i", *[f"{k}={v}" for k, v in env.items()], "bash", "-c", 'exec -a "$0" "$@"',
                        argv[0], str(executable), *argv[1:]],
                       capture_output=True, text=True, timeout=60, input=input)
    calls = []
    for line in log.read_text().splitlines():
        m = re.match(r'\d+\s+execve\("([^"]+)", \[(.*?)\], \[(.*?)\]\) = 0$', line)
        if m:
            calls.append((m.group(1), re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(2)), re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(3))))
    return r, calls


def lone_front(directory):
    """A copy of the front alone in `directory` (0755), to which a test adds a kcauth-full or not."""
    directory.mkdir(parents=True, exist_ok=True)
    directory.chmod(0o755)
    front = directory / "kcauth"
    shutil.copy(BINARY, front)
    front.chmod(0o755)
    return front


def test_a_command_other_than_a_warm_token_is_run_by_the_full_program(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "KCAUTH_HANDOFF_MARK": "kept"}
    r, calls = execs(tmp_path, ["kcauth", "--version"], env)
    assert (r.returncode, r.stdout, r.stderr) == (0, f"kcauth {source_version()}\n", ""), r
    full = [c for c in calls if c[0].endswith("/kcauth-full")]
    assert len(full) == 1, calls
    path, argv, envp = full[0]
    assert os.path.samefile(path, FULL_BINARY)
    assert argv == ["kcauth", "--version"]
    assert "KCAUTH_HANDOFF_MARK=kept" in envp and f"HOME={tmp_path}" in envp, envp


def test_argv0_reaches_the_full_program_unchanged(tmp_path):
    # git/docker credential helpers are symlinks dispatched on argv[0] by the full program: run as
    # git-credential-kcauth, `store` is git's action (a quiet no-op), not a kcauth command.
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    r, calls = execs(tmp_path, ["git-credential-kcauth", "store"], env)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", ""), r
    full = [c for c in calls if c[0].endswith("/kcauth-full")]
    assert [argv for _, argv, _ in full] == [["git-credential-kcauth", "store"]], calls


def test_the_environment_reaches_the_full_program(tmp_path):
    # The full program reads KCAUTH_PROFILE itself: a bad one is its usage error, exit 2.
    r = run(["kcauth", "status"], env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "KCAUTH_PROFILE": "bad name"})
    assert (r.returncode, r.stdout) == (2, ""), r
    assert "'bad name' is not a valid profile name" in r.stderr


def test_a_symlink_to_the_front_finds_the_full_program_beside_the_real_file(tmp_path):
    link = tmp_path / "docker-credential-kcauth"
    link.symlink_to(BINARY)
    # The full program ran, and as docker's helper: it names docker's actions for an unknown one.
    r = run([str(link), "frobnicate"], executable=link, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert r.returncode == 2 and "use get, list, store or erase" in r.stderr, r


def test_the_installed_layout_is_found(tmp_path):
    front = lone_front(tmp_path / "usr" / "bin")
    libexec = tmp_path / "usr" / "libexec" / "kcauth"
    libexec.mkdir(parents=True)
    for d in (tmp_path / "usr", tmp_path / "usr" / "libexec", libexec):
        d.chmod(0o755)
    shutil.copy(FULL_BINARY, libexec / "kcauth-full")
    (libexec / "kcauth-full").chmod(0o755)
    r = run(["kcauth", "--version"], executable=front)
    assert (r.returncode, r.stdout, r.stderr) == (0, f"kcauth {source_version()}\n", ""), r


def test_a_missing_full_program_is_one_line_and_exit_1(tmp_path):
    front = lone_front(tmp_path / "bin")
    r = run(["kcauth", "status"], executable=front)
    want = (f"error: the full kcauth program is missing (looked for {tmp_path}/libexec/kcauth/kcauth-full"
            f" and {tmp_path}/bin/kcauth-full); reinstall kcauth\n")
    assert (r.returncode, r.stdout, r.stderr) == (1, "", want), r


@pytest.mark.parametrize("mode", [0o777, 0o775])
def test_a_full_program_others_could_replace_is_refused(tmp_path, mode):
    front = lone_front(tmp_path / "bin")
    full = tmp_path / "bin" / "kcauth-full"
    shutil.copy(FULL_BINARY, full)
    full.chmod(mode)
    r = run(["kcauth", "--version"], executable=front)
    assert (r.returncode, r.stdout) == (1, ""), r
    assert r.stderr == f"error: refusing to run {full}: it is writable by group or others\n"


def test_a_directory_others_could_write_to_is_refused(tmp_path):
    front = lone_front(tmp_path / "bin")
    full = tmp_path / "bin" / "kcauth-full"
    shutil.copy(FULL_BINARY, full)
    full.chmod(0o755)
    (tmp_path / "bin").chmod(0o777)
    r = run(["kcauth", "--version"], executable=front)
    assert (r.returncode, r.stdout) == (1, ""), r
    assert r.stderr == f"error: refusing to run {full}: {tmp_path}/bin is writable by group or others\n"


def test_kcauth_full_is_not_looked_up_in_path(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(FULL_BINARY, elsewhere / "kcauth-full")
    front = lone_front(tmp_path / "bin")
    r = run(["kcauth", "--version"], executable=front, env={"PATH": f"{elsewhere}:/usr/bin:/bin"})
    assert r.returncode == 1 and "the full kcauth program is missing" in r.stderr, r


def test_a_warm_token_is_served_by_the_front_alone_and_other_names_go_to_the_full_program(provider, keyring, kcauth, tmp_path):
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30")
    assert r.returncode == 0, r
    token = kcauth("token")
    assert token.returncode == 0 and token.stdout.count(".") == 2, token   # the runtime cache is warm now
    r, calls = execs(tmp_path, ["kcauth", "token"], kcauth.env)
    assert (r.returncode, r.stdout) == (0, token.stdout), r
    assert [path for path, _, _ in calls if path.endswith("/kcauth-full")] == [], calls
    # Under another name the front does not answer: that name is the full program's to dispatch.
    r, calls = execs(tmp_path, ["some-other-name", "token"], kcauth.env)
    assert [argv for path, argv, _ in calls if path.endswith("/kcauth-full")] == [["some-other-name", "token"]], calls


def test_every_tools_path_is_served_by_the_front_with_a_warm_token(provider, keyring, kcauth, tmp_path):
    """kubectl (either API version), git's and docker's helpers and `exec` get the
    warm token from the front without starting kcauth-full, and say exactly what it says."""
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30")
    assert r.returncode == 0, r
    with open(kcauth.config_file, "a") as f:
        f.write("hosts = git.example.com registry.example.com:5000\n")
    token = kcauth("token").stdout.strip()
    assert token.count(".") == 2

    def front_alone(argv, env=None, input=None):
        r, calls = execs(tmp_path, argv, env or kcauth.env, input=input)
        assert [path for path, _, _ in calls if path.endswith("/kcauth-full")] == [], (argv, calls)
        full = subprocess.run(argv, executable=str(FULL_BINARY), env=env or kcauth.env, capture_output=True, text=True,
                              input=input, timeout=30)
        assert (r.returncode, r.stdout, r.stderr) == (full.returncode, full.stdout, full.stderr), (argv, r, full)
        return r

    for version in ("v1", "v1beta1"):
        info = '{"apiVersion":"client.authentication.k8s.io/%s","kind":"ExecCredential","spec":{"interactive":true}}' % version
        r = front_alone(["kcauth", "token", "-o", "exec-credential"], {**kcauth.env, "KUBERNETES_EXEC_INFO": info})
        assert r.stdout.startswith('{"apiVersion":"client.authentication.k8s.io/%s"' % version) and token in r.stdout, r

    r = front_alone(["git-credential-kcauth", "get"], input="protocol=https\nhost=git.example.com\n\n")
    assert r.stdout.startswith(f"username=oauth2\npassword={token}\npassword_expiry_utc="), r
    r = front_alone(["kcauth", "git-credential", "get"], input="capability[]=authtype\nprotocol=https\nhost=git.example.com\n\n")
    assert f"authtype=Bearer\ncredential={token}\n" in r.stdout, r

    r = front_alone(["docker-credential-kcauth", "get"], input="https://registry.example.com:5000\n")
    assert r.stdout == '{"ServerURL":"https://registry.example.com:5000","Username":"oauth2","Secret":"%s"}\n' % token, r

    r, calls = execs(tmp_path, ["kcauth", "exec", "--env", "MY_TOKEN", "--", "/usr/bin/env"], kcauth.env)
    assert r.returncode == 0 and f"MY_TOKEN={token}\n" in r.stdout, r
    assert [path for path, _, _ in calls if path.endswith("/kcauth-full")] == [] and calls[-1][0] == "/usr/bin/env", calls

    r = front_alone(["kcauth", "token", "-o", "headers-json"])
    assert r.stdout == '{"Authorization":"Bearer %s"}\n' % token, r
    # kcauth prompt: the same files, the same front (signed in, expired, no such profile, no session here).
    r = front_alone(["kcauth", "prompt", "--format", "{profile} {state} {user}"])
    assert r.stdout == "default valid alice\n", r
    assert front_alone(["kcauth", "prompt", "--profile", "nope"]).stdout == "\n"
    cache = Path(kcauth.env["XDG_RUNTIME_DIR"]) / "kcauth" / "default.token"
    record = cache.read_text()
    cache.write_text(re.sub(r'"expires_at":"[^"]+"', '"expires_at":"2001-01-01T00:00:00Z"', record))
    assert front_alone(["kcauth", "prompt"]).stdout == "default expired\n"
    cache.unlink()
    assert front_alone(["kcauth", "prompt"]).stdout == "default ?\n"


def test_what_the_front_hands_off_reaches_the_full_program_with_standard_input_intact(provider, keyring, kcauth, tmp_path):
    """A helper request the front does not answer goes to kcauth-full with the bytes the front
    read put back: the full program quotes the bad line, and answers an unlisted host with nothing."""
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30")
    assert r.returncode == 0, r
    with open(kcauth.config_file, "a") as f:
        f.write("hosts = git.example.com\n")
    assert kcauth("token").returncode == 0
    r, calls = execs(tmp_path, ["git-credential-kcauth", "get"], kcauth.env, input="protocol=https\nhost=git.example.com\nno equals sign\n\n")
    assert [path for path, _, _ in calls if path.endswith("/kcauth-full")], calls
    assert r.returncode == 2 and "'no equals sign'" in r.stderr, r
    r, calls = execs(tmp_path, ["git-credential-kcauth", "get"], kcauth.env, input="protocol=https\nhost=elsewhere.example.com\n\n")
    assert [path for path, _, _ in calls if path.endswith("/kcauth-full")], calls
    assert (r.returncode, r.stdout) == (0, ""), r
    r, calls = execs(tmp_path, ["docker-credential-kcauth", "get"], kcauth.env, input="http://registry.example.com\n")
    assert [path for path, _, _ in calls if path.endswith("/kcauth-full")], calls
    assert r.returncode == 1 and r.stdout == "credentials not found in native keychain\n" and "127.0.0.1" in r.stderr, r
    # A command that cannot be started: the full program says so, as `env` would.
    r = subprocess.run(["kcauth", "exec", "--", "/no/such/command"], executable=str(BINARY), env=kcauth.env,
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 127 and "/no/such/command" in r.stderr, r
