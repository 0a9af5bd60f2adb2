"""`kcauth login` when there is little to do (already signed in, first run): a profile that is
already signed in with the same settings says so and opens no browser (`--force` signs in again); a
first run with no configuration asks on a terminal (driven on a pseudo-terminal here), checks the
provider's discovery document, signs in and saves the profile; off a terminal it prints the complete
command to run."""

import os
import pty
import select
import subprocess
import time

from kcauth import BINARY, stored_items


def logins(provider):
    """Code exchanges at the provider: one per browser sign-in."""
    return provider.token_requests("authorization_code")


def login_args(provider, *extra):
    return ("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", *extra)


# --- already signed in --------------------------------------------------------------------------


def test_a_second_login_with_the_same_settings_says_who_and_opens_no_browser(provider, kcauth, keyring):
    assert kcauth(*login_args(provider)).returncode == 0
    assert len(logins(provider)) == 1
    for args in [("login",), login_args(provider)]:  # the saved settings, or the same ones again
        r = kcauth(*args)
        assert r.returncode == 0, r
        assert r.stderr.startswith(f"Already logged in to {provider.issuer} as alice (profile 'default') until "), r.stderr
        assert r.stderr.rstrip().endswith("; use --force to sign in again.") and r.stdout == ""
    assert len(logins(provider)) == 1, "no new sign-in"

    raw = kcauth("login", "-o", "raw")
    assert raw.returncode == 0 and raw.stdout == kcauth("token").stdout, "-o prints the session's token"

    forced = kcauth("login", "--force", "--timeout", "30")
    assert forced.returncode == 0, forced
    assert f"Logged in to {provider.issuer} as alice" in forced.stderr
    assert len(logins(provider)) == 2


def test_changed_settings_or_one_off_parameters_sign_in_again(provider, kcauth, keyring):
    assert kcauth(*login_args(provider)).returncode == 0
    for extra in [("--scope", "openid email"), ("--prompt", "login"), ("--idp-hint", "github"),
                  ("--browser-command", kcauth.env["BROWSER"]), ("--browser",)]:
        before = len(logins(provider))
        r = kcauth(*login_args(provider, *extra))
        assert r.returncode == 0, r
        assert "Already logged in" not in r.stderr, extra
        assert len(logins(provider)) == before + 1, extra


def test_after_logout_login_signs_in(provider, kcauth, keyring):
    assert kcauth(*login_args(provider)).returncode == 0
    assert kcauth("logout").returncode == 0
    r = kcauth("login", "--timeout", "30")
    assert r.returncode == 0 and "Already" not in r.stderr, r


# --- a first run --------------------------------------------------------------------------------


def test_off_a_terminal_a_first_login_prints_the_complete_command(kcauth, keyring):
    r = kcauth("login")
    assert r.returncode == 2, r
    assert r.stderr == ("error: no issuer for profile 'default', and no terminal to ask on; run "
                        "`kcauth login --issuer https://sso.example.com/realms/REALM --client-id CLIENT` "
                        "(or --server URL --realm NAME instead of --issuer)\n")
    named = kcauth("login", "--profile", "work", "--server", "https://sso.example.com", "--realm", "demo")
    assert named.returncode == 2
    assert "run `kcauth login --profile work --client-id CLIENT`" in named.stderr
    assert not kcauth.config_file.exists()


def test_the_hint_of_token_leads_to_a_login_that_says_what_to_run(kcauth, keyring):
    token = kcauth("token")
    assert token.returncode == 4 and "run `kcauth login`" in token.stderr
    assert "kcauth login --issuer" in kcauth("login").stderr


class Terminal:
    """kcauth on a pseudo-terminal (stdin and stderr), stdout a pipe; answers typed as asked."""

    def __init__(self, kcauth, *args):
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen([str(BINARY), *args], env=kcauth.env, stdin=slave, stderr=slave,
                                        stdout=subprocess.PIPE, close_fds=True)
        os.close(slave)
        self.seen = b""

    def expect(self, text, timeout=20):
        deadline = time.monotonic() + timeout
        while text.encode() not in self.seen:
            left = deadline - time.monotonic()
            assert left > 0, f"never saw {text!r} in {self.seen.decode(errors='replace')!r}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    chunk = b""
                assert chunk, f"terminal closed before {text!r}: {self.seen.decode(errors='replace')!r}"
                self.seen += chunk

    def type(self, line):
        os.write(self.master, line.encode() + b"\n")

    def finish(self, timeout=60):
        stdout, _ = self.process.communicate(timeout=timeout)
        try:
            while select.select([self.master], [], [], 0.2)[0]:
                chunk = os.read(self.master, 4096)
                if not chunk:
                    break
                self.seen += chunk
        except OSError:
            pass
        os.close(self.master)
        return self.process.returncode, stdout.decode(), self.seen.decode(errors="replace")


def test_on_a_terminal_a_first_login_asks_checks_discovery_signs_in_and_saves(provider, kcauth, keyring):
    server = provider.issuer.split("/realms/")[0]
    t = Terminal(kcauth, "login", "--timeout", "30")
    t.expect("Keycloak server URL (https://sso.example.com) or issuer URL: ")
    t.type("not a url")
    t.expect("That did not work: 'not a url' is not an issuer URL")
    t.expect("or issuer URL: ")
    t.type(server)  # a Keycloak server: kcauth asks for the realm
    t.expect("Realm: ")
    t.type("nosuchrealm")
    t.expect("That did not work:")  # its discovery document is not there
    t.expect("or issuer URL: ")
    t.type(server)
    t.expect("Realm: ")
    t.type("demo")
    t.expect(f"Found the provider: {provider.issuer}")
    t.expect("Client id (of the public client registered for command-line sign-in): ")
    t.type("kcauth")
    code, stdout, seen = t.finish()
    assert code == 0, seen
    assert f"Logged in to {provider.issuer} as alice (profile 'default')." in seen
    config = kcauth.config_file.read_text()
    assert f"issuer = {provider.issuer}" in config and "client_id = kcauth" in config
    assert len(stored_items(keyring)) == 1
    # From now on the saved profile answers every question.
    again = kcauth("login")
    assert again.returncode == 0 and again.stderr.startswith("Already logged in"), again


def test_an_issuer_url_is_taken_as_it_is_and_end_of_input_cancels(provider, kcauth, keyring):
    t = Terminal(kcauth, "login", "--timeout", "30")
    t.expect("or issuer URL: ")
    t.type(provider.issuer)
    t.expect(f"Found the provider: {provider.issuer}")
    t.expect("Client id")
    os.write(t.master, b"\x04")  # Ctrl-D: no answer
    code, stdout, seen = t.finish()
    assert code == 3, seen
    assert "no answer (end of input); nothing was saved" in seen
    assert not kcauth.config_file.exists() and stored_items(keyring) == []
