"""Signing in from anywhere (paste-back, a failing launcher, WSL, a browser command), end to end:
the built binary, the real test provider, a real gnome-keyring; the terminal is a pseudo-terminal
driven from here.

- paste-back: the browser is "on another machine" (the scripted user walks the provider's pages
  and stops at the redirect to 127.0.0.1 without loading it); the address is pasted at the pty;
- a launcher that fails at once is noticed within seconds (device flow or paste prompt);
- --browser-command is split like a shell would and remembered per profile;
- WSL: detected from WSL_DISTRO_NAME, the browser started through a fake wslview/powershell.exe.
"""

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from kcauth import BINARY, stored_items
from provider import PROVIDER_DIR, SCRIPTED_BROWSER

sys.path.insert(0, str(PROVIDER_DIR))
import scripted_user  # noqa: E402


def login_args(provider, *extra, client_id="kcauth"):
    return ("login", "--issuer", provider.issuer, "--client-id", client_id, "--timeout", "60", *extra)


class Terminal:
    """kcauth with stdin and stderr on a pseudo-terminal (stdout stays a pipe: data)."""

    def __init__(self, args, env):
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen([str(BINARY), *args], env=env, stdin=slave, stderr=slave,
                                        stdout=subprocess.PIPE, close_fds=True)
        os.close(slave)
        self.output = ""

    def read_until(self, pattern, timeout=30):
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.output):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {pattern!r} within {timeout} s in {self.output!r}")
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"terminal closed before {pattern!r}: {self.output!r}")
                self.output += chunk.decode(errors="replace")
        return re.search(pattern, self.output)

    def type(self, text):
        os.write(self.master, text.encode())

    def finish(self, timeout=30):
        code = self.process.wait(timeout=timeout)
        try:
            while select.select([self.master], [], [], 0.2)[0]:
                chunk = os.read(self.master, 4096)
                if not chunk:
                    break
                self.output += chunk.decode(errors="replace")
        except OSError:
            pass
        os.close(self.master)
        return code, self.process.stdout.read().decode()


def remote_browser_callback(auth_url, username="alice", password="wonderland", action="approve"):
    """The browser on another machine: signs in, stops at the redirect to 127.0.0.1 (which it
    could not load) and returns that address, as the person would copy it."""
    target = scripted_user._endpoint(parse_qs(urlsplit(auth_url).query)["redirect_uri"][0])
    return scripted_user._walk_to_callback(scripted_user.Browser(), scripted_user.UserAgent(username, password, action),
                                           auth_url, target)


def authorization_url(output, provider):
    return re.search(re.escape(provider.authorization_endpoint) + r"\?\S+", output).group(0)


# --- paste-back -------------------------------------------------------------------------------


def test_paste_back_over_ssh_without_a_tunnel_signs_in(provider, keyring, kcauth):
    env = {**kcauth.env, "SSH_CONNECTION": "10.0.0.1 5000 10.0.0.2 22", "TERM": "xterm"}
    # $BROWSER (the scripted user) stays set, as a login shell's may be: nothing starts here.
    term = Terminal(login_args(provider, "--browser"), env)
    term.read_until("Address: ")
    callback = remote_browser_callback(authorization_url(term.output, provider))
    assert callback.startswith("http://127.0.0.1:")
    term.type(callback + "\n")
    code, stdout = term.finish()
    assert code == 0, term.output
    assert stdout == ""
    assert "Logged in to " + provider.issuer + " as alice" in term.output
    assert stored_items(keyring) == [{"profile": "default", "issuer": provider.issuer, "client_id": "kcauth"}]
    assert kcauth("token").returncode == 0


def test_a_wrong_paste_gets_a_reason_and_a_new_prompt_not_an_exit(provider, keyring, kcauth):
    term = Terminal(login_args(provider, "--no-browser"), {**kcauth.env, "TERM": "xterm"})
    term.read_until("Address: ")
    callback = remote_browser_callback(authorization_url(term.output, provider))
    port = re.match(r"http://127\.0\.0\.1:(\d+)/", callback).group(1)

    term.type("hello\n")
    term.read_until(r"Not taken: that is not the address kcauth waits for[^\n]*\n[^\n]*Address: ")
    tampered = re.sub(r"state=[^&]+", "state=somebody-elses", callback)
    term.type(tampered + "\n")
    term.read_until(r"Not taken: that address belongs to another sign-in \(its state")
    other_port = int(port) + 1 if int(port) < 65535 else int(port) - 1
    term.type(callback.replace(f":{port}/", f":{other_port}/") + "\n")
    term.read_until(r"Not taken: that address \(http://127\.0\.0\.1:\d+/callback\) belongs to another sign-in")
    term.type(callback.split("?")[0] + "\n")
    term.read_until(r"Not taken: that address has no parameters")
    assert stored_items(keyring) == [], "nothing is stored while the pastes are wrong"

    term.type(callback + "\n")
    code, _ = term.finish()
    assert code == 0, term.output
    assert len(provider.token_requests("authorization_code")) == 1


def test_a_pasted_error_response_ends_the_login_like_a_callback_would(provider, keyring, kcauth):
    term = Terminal(login_args(provider, "--no-browser", client_id="kcauth-consent"), {**kcauth.env, "TERM": "xterm"})
    term.read_until("Address: ")
    callback = remote_browser_callback(authorization_url(term.output, provider), action="deny")
    assert "error=access_denied" in callback
    term.type(callback + "\n")
    code, _ = term.finish()
    assert code == 3, term.output
    assert "denied" in term.output
    assert stored_items(keyring) == []
    assert provider.token_requests("authorization_code") == []


def test_the_listener_still_answers_while_the_prompt_waits(provider, keyring, kcauth):
    """Whichever answer comes first wins: here the redirect reaches the listener (ssh -L)."""
    term = Terminal(login_args(provider, "--no-browser"), {**kcauth.env, "TERM": "xterm"})
    term.read_until("Address: ")
    callback = remote_browser_callback(authorization_url(term.output, provider))
    page = scripted_user._fetch_callback(callback)
    assert page["status"] == 200 and "signed in" in page["body"]
    code, _ = term.finish()
    assert code == 0, term.output


def test_without_a_terminal_there_is_no_prompt(provider, keyring, kcauth):
    r = kcauth(*login_args(provider, "--no-browser", "--timeout", "2"))
    assert r.returncode == 3, r
    assert "Address:" not in r.stderr and "paste" not in r.stderr
    assert "\r" not in r.stderr and "\x1b" not in r.stderr, "plain lines when not on a terminal"


# --- a launcher that fails at once ------------------------------------------------------------


def failing_launcher(tmp_path, name="failing-browser", status=1):
    path = tmp_path / name
    path.write_text(f"#!/bin/sh\necho 'no browser here' >&2\nexit {status}\n")
    path.chmod(0o755)
    return path


def test_a_failing_browser_switches_the_automatic_choice_to_the_device_flow(provider, keyring, kcauth, tmp_path):
    """$BROWSER exits 1 at once: within a few seconds kcauth says why and uses the device flow."""
    browser = failing_launcher(tmp_path)
    approver = tmp_path / "approver"  # the device flow's person, on "another device"
    approver.write_text(f"#!/bin/sh\nexec {SCRIPTED_BROWSER} \"$@\"\n")
    approver.chmod(0o755)
    proc = subprocess.Popen([str(BINARY), *login_args(provider)], env={**kcauth.env, "BROWSER": str(browser)},
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    started = time.monotonic()
    lines = []
    for line in proc.stderr:
        lines.append(line)
        if "switching to the device flow" in line:
            break
    switched_after = time.monotonic() - started
    assert any("switching to the device flow" in l for l in lines), lines
    assert switched_after < 5, f"noticed after {switched_after:.1f} s"
    assert any("exited with status 1" in l for l in lines), "the line says why"
    proc.kill()
    proc.wait()


def test_a_failing_browser_asked_for_falls_back_to_the_paste_prompt(provider, keyring, kcauth, tmp_path):
    browser = failing_launcher(tmp_path)
    term = Terminal(login_args(provider, "--browser"), {**kcauth.env, "BROWSER": str(browser), "TERM": "xterm"})
    started = time.monotonic()
    term.read_until(r"The browser launcher failed: [^;]*exited with status 1")
    assert time.monotonic() - started < 6
    term.read_until("Address: ")
    term.type(remote_browser_callback(authorization_url(term.output, provider)) + "\n")
    code, _ = term.finish()
    assert code == 0, term.output


def test_the_next_browser_entry_is_tried_when_one_dies_at_once(provider, keyring, kcauth, tmp_path):
    browser = failing_launcher(tmp_path)
    r = kcauth(*login_args(provider), env={"BROWSER": f"{browser}:{SCRIPTED_BROWSER}"})
    assert r.returncode == 0, r


def test_the_browser_wait_counts_down_on_a_terminal(provider, keyring, kcauth, tmp_path):
    quiet = tmp_path / "quiet-browser"  # starts fine, never signs in
    quiet.write_text("#!/bin/sh\nexit 0\n")
    quiet.chmod(0o755)
    term = Terminal(login_args(provider, "--timeout", "3"), {**kcauth.env, "BROWSER": str(quiet), "TERM": "xterm"})
    term.read_until(r"\r\x1b\[KWaiting for the browser… 0:0[23] left \(Ctrl-C to cancel\)")
    code, _ = term.finish()
    assert code == 3, term.output
    assert "Address:" not in term.output, "a browser was started here: no paste prompt"


# --- --browser-command ------------------------------------------------------------------------


def test_browser_command_is_split_like_a_shell_and_remembered(provider, keyring, kcauth, tmp_path):
    log = tmp_path / "argv.log"
    wrapper = tmp_path / "my browser"
    wrapper.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > '{log}'\nexec {SCRIPTED_BROWSER} \"$2\"\n")
    wrapper.chmod(0o755)
    command = f"'{wrapper}' --private-window %s \"two words\""
    r = kcauth(*login_args(provider, "--browser-command", command), env={"BROWSER": "/bin/false"})
    assert r.returncode == 0, r
    argv = log.read_text().splitlines()
    assert argv[0] == "--private-window" and argv[1].startswith("http://127.0.0.1:") and argv[2] == "two words"
    assert f"browser_command = {command}" in kcauth.config_file.read_text()

    log.unlink()
    again = kcauth("login", "--force", "--timeout", "60", env={"BROWSER": "/bin/false"})
    assert again.returncode == 0, again
    assert log.exists(), "the remembered command is used, not $BROWSER"

    forget = kcauth("login", "--timeout", "60", "--browser-command", "")
    assert forget.returncode == 0, forget
    assert "browser_command" not in kcauth.config_file.read_text(), "'' forgets it; $BROWSER works again"


def test_a_malformed_browser_command_is_a_usage_error(provider, keyring, kcauth):
    r = kcauth(*login_args(provider, "--browser-command", "firefox 'unterminated"))
    assert r.returncode == 2, r
    assert r.stderr.count("\n") <= 2 and "unterminated ' quote" in r.stderr
    assert not kcauth.config_file.exists()


# --- WSL ----------------------------------------------------------------------------------------


def fake_windows(tmp_path, name):
    """A Windows launcher on PATH that hands the URL to the scripted user, recording its argv."""
    bin_dir = tmp_path / "winbin"
    bin_dir.mkdir(exist_ok=True)
    log = tmp_path / f"{name}.argv"
    script = bin_dir / name
    pick = {"wslview": '"$1"', "powershell.exe": "\"$(printf '%s' \"$3\" | sed \"s/^Start-Process '//; s/'$//\")\""}[name]
    script.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > '{log}'\nexec {SCRIPTED_BROWSER} {pick}\n")
    script.chmod(0o755)
    return bin_dir, log


def wsl_env(kcauth, bin_dir):
    env = {**kcauth.env, "WSL_DISTRO_NAME": "Debian", "PATH": f"{bin_dir}:/usr/bin:/bin"}
    env.pop("BROWSER", None)
    return env


def run_env(env, *args, timeout=60):
    return subprocess.run([str(BINARY), *args], env=env, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def test_wsl_opens_the_windows_browser_through_wslview(provider, keyring, kcauth, tmp_path):
    bin_dir, log = fake_windows(tmp_path, "wslview")
    r = run_env(wsl_env(kcauth, bin_dir), *login_args(provider))
    assert r.returncode == 0, r
    assert "this is WSL (WSL_DISTRO_NAME=Debian)" in r.stderr, "no DISPLAY, yet the browser flow"
    assert log.read_text().startswith("http://127.0.0.1:")


def test_wsl_without_wslview_uses_powershell(provider, keyring, kcauth, tmp_path):
    bin_dir, log = fake_windows(tmp_path, "powershell.exe")
    r = run_env(wsl_env(kcauth, bin_dir), *login_args(provider))
    assert r.returncode == 0, r
    argv = log.read_text().splitlines()
    assert argv[:2] == ["-NoProfile", "-Command"] and re.fullmatch(r"Start-Process 'http://127\.0\.0\.1:\d+/start/\S+'", argv[2])


def test_doctor_reports_wsl(kcauth, tmp_path):
    r = kcauth("doctor", env={"WSL_DISTRO_NAME": "Debian"})
    assert "WSL" in r.stderr + r.stdout
