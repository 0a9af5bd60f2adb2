"""`kcauth exec` runs a program with the token in its environment, and `kcauth token -o curl`
feeds curl a config on stdin: the token reaches the server and no process's argv."""

import os
import signal
import subprocess
import sys
import threading
import time

from helpers import argv_of_all_processes, login
from kcauth import BINARY
from stubservers import HeaderEchoServer, TokenCheck

CHECK_VARIABLE = r"""
import os, sys
want = sys.argv[1]
for name in sys.argv[2:]:
    if os.environ.get(name) != want:
        print(f"{name} is {os.environ.get(name)!r}")
        sys.exit(9)
print("ok", sorted(os.listdir("/proc/self/fd")))
"""


def test_the_command_gets_the_access_token_in_the_default_variable_and_its_exit_status_is_kcauths(provider, keyring, kcauth):
    login(kcauth, provider)
    token = kcauth("token").stdout.strip()
    r = kcauth("exec", "--", sys.executable, "-c", CHECK_VARIABLE, token, "KCAUTH_ACCESS_TOKEN")
    assert r.returncode == 0, r
    # Only stdin, stdout, stderr and listdir's own: no keyring socket or lock file leaks in.
    assert r.stdout.strip() == "ok ['0', '1', '2', '3']" and r.stderr == ""

    assert kcauth("exec", "sh", "-c", "exit 7").returncode == 7, "no -- needed: the first word starts the command"
    assert kcauth("exec", "--", "sh", "-c", 'test -z "$KCAUTH_ACCESS_TOKEN" || exit 0; exit 1').returncode == 0


def test_several_env_names_and_the_id_token(provider, keyring, kcauth):
    login(kcauth, provider)
    token = kcauth("token").stdout.strip()
    id_token = kcauth("token", "--id-token").stdout.strip()
    r = kcauth("exec", "--env", "API_TOKEN", "--env", "OTHER=access", "--env", "OIDC=id", "--",
               sys.executable, "-c", CHECK_VARIABLE, token, "API_TOKEN", "OTHER")
    assert r.returncode == 0, r
    r = kcauth("exec", "--env", "API_TOKEN", "--env", "OIDC=id", "--", sys.executable, "-c", CHECK_VARIABLE, id_token, "OIDC")
    assert r.returncode == 0, r
    r = kcauth("exec", "--env", "API_TOKEN", "--", "sh", "-c", 'test -z "$KCAUTH_ACCESS_TOKEN"')
    assert r.returncode == 0, "only the variables asked for"

    for bad in ("1ABC", "A-B", "X=refresh", ""):
        r = kcauth("exec", "--env", bad, "--", "true")
        assert r.returncode == 2 and r.stderr.count("\n") == 1, (bad, r)


def test_sigterm_to_kcauth_reaches_the_command(provider, keyring, kcauth, tmp_path):
    login(kcauth, provider)
    marker = tmp_path / "got-sigterm"
    child = ("import signal, sys, time\n"
             f"signal.signal(signal.SIGTERM, lambda *a: (open({str(marker)!r}, 'w').write('TERM'), sys.exit(42)))\n"
             "print('ready', flush=True)\n"
             "time.sleep(60)\n")
    proc = subprocess.Popen([str(BINARY), "exec", "--", sys.executable, "-c", child], env=kcauth.env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == "ready\n"
    proc.send_signal(signal.SIGTERM)  # to the PID kcauth was started as
    assert proc.wait(timeout=20) == 42
    assert marker.read_text() == "TERM"
    proc.stdout.close()
    proc.stderr.close()


def test_no_session_exits_4_before_the_command_starts(keyring, kcauth, tmp_path):
    marker = tmp_path / "started"
    r = kcauth("exec", "--", "touch", str(marker))
    assert r.returncode == 4 and "run `kcauth login`" in r.stderr and r.stdout == ""
    assert not marker.exists()


def test_usage_errors(provider, keyring, kcauth):
    login(kcauth, provider)
    r = kcauth("exec")
    assert r.returncode == 2 and "exec needs a command" in r.stderr



def test_a_command_that_cannot_start_exits_127_or_126_like_env(provider, keyring, kcauth, tmp_path):
    login(kcauth, provider)
    for missing in ("/nonexistent/program", "no-such-command-kcauth-test"):
        r = kcauth("exec", "--", missing)
        assert r.returncode == 127 and r.stdout == "" and r.stderr.count("\n") == 1, r
        assert f"cannot run '{missing}'" in r.stderr
        assert subprocess.run(["env", missing], capture_output=True).returncode == 127, "what env does"
    not_executable = tmp_path / "script"
    not_executable.write_text("#!/bin/sh\nexit 0\n")
    r = kcauth("exec", "--", str(not_executable))
    assert r.returncode == 126 and r.stderr.count("\n") == 1, r
    assert subprocess.run(["env", str(not_executable)], capture_output=True).returncode == 126


def test_env_refuses_names_that_change_how_the_command_runs(provider, keyring, kcauth):
    login(kcauth, provider)
    for name in ("PATH", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "BASH_ENV", "IFS", "PATH=id"):
        r = kcauth("exec", "--env", name, "--", "true")
        assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1, (name, r)
        assert "changes how COMMAND runs" in r.stderr, r
    assert len(provider.token_requests("refresh_token")) == 0


def test_curl_reads_the_header_from_stdin_and_the_token_is_in_no_argv(provider, keyring, kcauth):
    login(kcauth, provider)
    token = kcauth("token").stdout.strip()
    line = kcauth("token", "-o", "curl").stdout
    assert line == f'header = "Authorization: Bearer {token}"\n'

    with HeaderEchoServer(TokenCheck(provider), delay=1.5) as server:
        url = f"http://127.0.0.1:{server.port}/whoami"
        seen = []
        watcher = threading.Thread(target=lambda: [seen.extend(argv_of_all_processes()) or time.sleep(0.05) for _ in range(20)])
        pipeline = subprocess.Popen(["sh", "-c", f'"$KCAUTH" token -o curl | curl -sS --fail -K - {url}'],
                                    env={**kcauth.env, "KCAUTH": str(BINARY)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        watcher.start()
        out, err = pipeline.communicate(timeout=60)
        watcher.join()
    assert pipeline.returncode == 0, err
    assert out == "hello alice\n" and server.requests == [("/whoami", "alice")]
    assert any("curl" in argv and "-K -" in argv for argv in seen), "the watcher saw curl running"
    assert not any(token in argv for argv in seen)
