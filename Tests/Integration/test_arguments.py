"""Forgiving arguments, end to end with the built binary: a global --profile before the command
name reaches the command, and the mistakes people make (`kcauth token work`, `kcauth TOKEN`,
`kcauth -v`) get a usage error with a correction, exit status 2, nothing on stdout, and no
change to the stored session."""

import pytest


def test_a_profile_before_the_command_is_the_commands_profile(provider, keyring, kcauth):
    r = kcauth("--profile", "work", "login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30")
    assert r.returncode == 0, r
    assert "[work]" in kcauth.config_file.read_text(), "the session was saved under profile work"

    before = kcauth("--profile", "work", "token")
    after = kcauth("token", "--profile", "work")
    assert before.returncode == after.returncode == 0, (before, after)
    assert before.stdout == after.stdout and before.stdout.strip()
    assert kcauth("token").returncode == 4, "the default profile has no session"


@pytest.mark.parametrize("args, stderr", [
    (["token", "work"], "error: unexpected argument 'work' for `kcauth token`; did you mean '--profile work'?\n"),
    (["TOKEN"], "error: unknown command 'TOKEN'; did you mean 'token'?\n"),
    (["-v"], "error: unknown option '-v'; did you mean '--version'?\n"),
    (["--profile", "work", "use"], "error: `kcauth use` takes no --profile; did you mean 'kcauth use work'?\n"),
    (["use", "--profile", "work"], "error: `kcauth use` takes no --profile; did you mean 'kcauth use work'?\n"),
    (["setup-client", "--profile", "work"],
     "error: `kcauth setup-client` takes no --profile: it uses no profile; "
     "usage: `kcauth setup-client --server URL --realm NAME --client-id ID [flags]`\n"),
])
def test_a_mistake_gets_a_correction_and_changes_nothing(provider, keyring, kcauth, args, stderr):
    r = kcauth("--profile", "work", "login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30")
    assert r.returncode == 0, r
    config = kcauth.config_file.read_text()
    stored = keyring.secret_tool("lookup", "profile", "work").stdout

    r = kcauth(*args)
    assert (r.returncode, r.stdout, r.stderr) == (2, "", stderr)
    assert kcauth.config_file.read_text() == config
    assert keyring.secret_tool("lookup", "profile", "work").stdout == stored
