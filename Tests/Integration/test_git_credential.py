"""The git credential helper end to end: the real git (Debian's 2.39) clones over HTTP from
`git http-backend` behind a server that lets in only an access token the provider accepts."""

import subprocess

import pytest

from helpers import helper_bin, login, set_setting
from kcauth import BINARY
from stubservers import GitHTTPServer, TokenCheck


@pytest.fixture
def git_server(tmp_path, provider):
    root = tmp_path / "repos"
    root.mkdir()
    work = tmp_path / "seed"
    subprocess.run(["git", "init", "-q", "-b", "main", str(work)], check=True)
    (work / "README").write_text("hello from the server\n")
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@example.test"]
    subprocess.run([*git, "add", "README"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "first"], check=True)
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(root / "project.git")], check=True)
    with GitHTTPServer(root, TokenCheck(provider)) as server:
        yield server


def git_env(kcauth, tmp_path, helper):
    _, path = helper_bin(tmp_path)
    config = tmp_path / "gitconfig"
    config.write_text(f"[credential]\n\thelper = {helper}\n")
    return {**kcauth.env, "PATH": path, "GIT_CONFIG_GLOBAL": str(config), "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "", "SSH_ASKPASS": ""}


def clone(env, url, dest):
    return subprocess.run(["git", "clone", "-q", url, str(dest)], env=env, capture_output=True, text=True, timeout=120)


def test_git_clones_with_the_helper_found_by_its_name_for_a_listed_host(tmp_path, provider, keyring, kcauth, git_server):
    login(kcauth, provider)
    host = f"127.0.0.1:{git_server.port}"
    set_setting(kcauth, "hosts", f"git.example.test {host}")
    env = git_env(kcauth, tmp_path, "kcauth")  # git runs git-credential-kcauth

    r = clone(env, f"http://{host}/project.git", tmp_path / "clone")
    assert r.returncode == 0, (r, git_server.requests)
    assert (tmp_path / "clone" / "README").read_text() == "hello from the server\n"
    users = {user for _, _, user, _ in git_server.requests if user}
    assert users == {"oauth2"}, "the default user name, with the token as the password"


def test_the_helper_string_with_a_profile_and_a_configured_username(tmp_path, provider, keyring, kcauth, git_server):
    login(kcauth, provider, "--profile", "work")
    set_setting(kcauth, "username", "alice-token", profile="work")
    set_setting(kcauth, "hosts", f"127.0.0.1:{git_server.port}", profile="work")
    env = git_env(kcauth, tmp_path, "!kcauth git-credential --profile work")

    r = clone(env, f"http://127.0.0.1:{git_server.port}/project.git", tmp_path / "clone")
    assert r.returncode == 0, r
    assert {user for _, _, user, _ in git_server.requests if user} == {"alice-token"}


def test_an_unlisted_host_gets_no_answer_and_git_fails_without_a_token(tmp_path, provider, keyring, kcauth, git_server):
    login(kcauth, provider)
    set_setting(kcauth, "hosts", "git.example.test")
    env = git_env(kcauth, tmp_path, "kcauth")

    r = clone(env, f"http://127.0.0.1:{git_server.port}/project.git", tmp_path / "clone")
    # No helper answered: git falls back to asking the user, which the test forbids.
    assert r.returncode != 0 and "could not read Username" in r.stderr, r
    assert all(user is None for _, _, user, _ in git_server.requests)

    direct = subprocess.run([str(BINARY), "git-credential", "get"], env=kcauth.env, capture_output=True, text=True,
                            input=f"protocol=http\nhost=127.0.0.1:{git_server.port}\n\n", timeout=30)
    assert direct.returncode == 0 and direct.stdout == "" and direct.stderr == "", direct


def test_a_rejected_token_is_erased_and_the_next_clone_gets_a_new_one(tmp_path, provider, keyring, kcauth, git_server):
    login(kcauth, provider)
    host = f"127.0.0.1:{git_server.port}"
    set_setting(kcauth, "hosts", host)
    env = git_env(kcauth, tmp_path, "kcauth")
    first = kcauth("token").stdout.strip()
    git_server.check.rejected.add(first)  # e.g. the server revoked it

    r = clone(env, f"http://{host}/project.git", tmp_path / "one")
    assert r.returncode != 0, r
    assert len(provider.token_requests("refresh_token")) == 1, "git's erase made kcauth refresh"
    second = kcauth("token").stdout.strip()
    assert second != first

    r = clone(env, f"http://{host}/project.git", tmp_path / "two")
    assert r.returncode == 0, r
    assert git_server.check.seen[-1] == second


def run_helper(kcauth, stdin, *args):
    return subprocess.run([str(BINARY), "git-credential", *args], env=kcauth.env, capture_output=True, text=True,
                          input=stdin, timeout=30)


def test_protocol_answers_bearer_when_git_takes_authtype_and_never_over_plain_http_to_another_host(provider, keyring, kcauth):
    login(kcauth, provider)
    set_setting(kcauth, "hosts", "git.example.test 127.0.0.1")
    token = kcauth("token").stdout.strip()

    plain = run_helper(kcauth, "protocol=https\nhost=git.example.test\n\n", "get")
    lines = plain.stdout.splitlines()
    assert plain.returncode == 0 and lines[:2] == ["username=oauth2", f"password={token}"], plain
    assert lines[2].startswith("password_expiry_utc=") and int(lines[2].split("=")[1]) > 0

    bearer = run_helper(kcauth, "capability[]=authtype\nprotocol=https\nhost=git.example.test\n\n", "get")
    assert bearer.stdout.splitlines()[:4] == ["capability[]=authtype", "authtype=Bearer", f"credential={token}", "ephemeral=1"]

    for request in ("protocol=http\nhost=git.example.test\n\n", "protocol=ssh\nhost=git.example.test\n\n",
                    "protocol=https\nhost=other.example.test\n\n"):
        r = run_helper(kcauth, request, "get")
        assert r.returncode == 0 and r.stdout == "", (request, r)
    assert run_helper(kcauth, "protocol=http\nhost=127.0.0.1:8080\n\n", "get").stdout.startswith("username=oauth2\n")

    stored = run_helper(kcauth, f"protocol=https\nhost=git.example.test\nusername=oauth2\npassword={token}\n\n", "store")
    assert stored.returncode == 0 and stored.stdout == ""
    assert run_helper(kcauth, "protocol=https\nhost=git.example.test\n\n", "some-future-action").returncode == 0
    assert len(provider.token_requests("refresh_token")) == 0

    not_ours = run_helper(kcauth, "protocol=https\nhost=git.example.test\nusername=oauth2\npassword=something-else\n\n", "erase")
    assert not_ours.returncode == 0 and len(provider.token_requests("refresh_token")) == 0
    erased = run_helper(kcauth, f"protocol=https\nhost=git.example.test\nusername=oauth2\npassword={token}\n\n", "erase")
    assert erased.returncode == 0 and erased.stdout == "" and len(provider.token_requests("refresh_token")) == 1


def test_a_bad_hosts_setting_is_one_error_line_and_no_answer(provider, keyring, kcauth):
    login(kcauth, provider)
    set_setting(kcauth, "hosts", "git.example.test bad/host")
    r = run_helper(kcauth, "protocol=https\nhost=git.example.test\n\n", "get")
    assert r.returncode == 1 and r.stdout == "" and r.stderr.count("\n") == 1
    assert "hosts: 'bad/host' is not a host" in r.stderr


def test_not_logged_in_exits_4_with_the_hint_and_prints_nothing(keyring, kcauth):
    set_setting(kcauth, "hosts", "git.example.test")
    r = run_helper(kcauth, "protocol=https\nhost=git.example.test\n\n", "get")
    assert r.returncode == 4 and r.stdout == "" and "kcauth login" in r.stderr


def test_a_picked_profile_answers_only_the_hosts_it_lists_even_with_a_helper_for_every_url(tmp_path, provider, keyring, kcauth,
                                                                                          git_server):
    # The old help's own example applies to every URL: a clone (or a submodule, a redirect) to a
    # server the profile does not list must not collect its token.
    login(kcauth, provider, "--profile", "work")
    set_setting(kcauth, "hosts", "git.example.test", profile="work")
    env = git_env(kcauth, tmp_path, "!kcauth git-credential --profile work")

    r = clone(env, f"http://127.0.0.1:{git_server.port}/project.git", tmp_path / "clone")
    assert r.returncode != 0 and "could not read Username" in r.stderr, r
    assert all(user is None for _, _, user, _ in git_server.requests), "no token reached the unlisted server"

    foreign = run_helper(kcauth, "protocol=https\nhost=other.example.test\n\n", "get", "--profile", "work")
    assert (foreign.returncode, foreign.stdout, foreign.stderr) == (0, "", ""), foreign
    listed = run_helper(kcauth, "protocol=https\nhost=git.example.test\n\n", "get", "--profile", "work")
    assert listed.returncode == 0 and listed.stdout.startswith("username=oauth2\npassword="), listed


def test_kcauth_profile_picks_the_profile_and_the_hosts_mapping_applies_without_it(provider, keyring, kcauth):
    login(kcauth, provider)
    login(kcauth, provider, "--profile", "work")
    set_setting(kcauth, "hosts", "git.example.test")
    set_setting(kcauth, "hosts", "git.example.test other.example.test", profile="work")
    set_setting(kcauth, "username", "worker", profile="work")
    request = "protocol=https\nhost=git.example.test\n\n"

    assert run_helper(kcauth, request, "get").stdout.startswith("username=oauth2\n"), "the first profile listing it"
    picked = subprocess.run([str(BINARY), "git-credential", "get"], env={**kcauth.env, "KCAUTH_PROFILE": "work"},
                            capture_output=True, text=True, input=request, timeout=30)
    assert picked.returncode == 0 and picked.stdout.startswith("username=worker\n"), picked

    # The picked profile must still list the host: the variable narrows, it never widens.
    set_setting(kcauth, "hosts", "other.example.test", profile="work")
    unlisted = subprocess.run([str(BINARY), "git-credential", "get"], env={**kcauth.env, "KCAUTH_PROFILE": "work"},
                              capture_output=True, text=True, input=request, timeout=30)
    assert (unlisted.returncode, unlisted.stdout) == (0, ""), unlisted


@pytest.mark.parametrize("host", ["127.evil.example.test", "127.0.0.1.evil.example.test", "localhost", "127.1", "0177.0.0.1",
                                  "[::ffff:127.0.0.1]"])
def test_plain_http_only_to_a_numeric_loopback_address(provider, keyring, kcauth, host):
    login(kcauth, provider)
    set_setting(kcauth, "hosts", f"{host} 127.0.0.1 [::1]")
    r = run_helper(kcauth, f"protocol=http\nhost={host}\n\n", "get")
    assert (r.returncode, r.stdout) == (0, ""), (host, r)
    for loopback in ("127.0.0.1", "[::1]"):
        ok = run_helper(kcauth, f"protocol=http\nhost={loopback}\n\n", "get")
        assert ok.stdout.startswith("username=oauth2\n"), (loopback, ok)


def test_a_bad_username_from_git_is_named_as_gits_input(provider, keyring, kcauth):
    login(kcauth, provider)
    set_setting(kcauth, "hosts", "git.example.test")
    r = run_helper(kcauth, "protocol=https\nhost=git.example.test\nusername=a\x1bb\n\n", "get")
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1, r
    assert "username in git's credential request" in r.stderr and "provider" not in r.stderr, r
    assert len(provider.token_requests("refresh_token")) == 0


def test_a_profile_that_does_not_exist_is_said_on_stderr_and_git_gets_nothing(tmp_path, provider, keyring, kcauth, git_server):
    login(kcauth, provider)
    set_setting(kcauth, "hosts", "127.0.0.1")
    request = "protocol=https\nhost=git.example.test\n\n"
    r = run_helper(kcauth, request, "get", "--profile", "nosuch")
    assert r.stdout == "" and r.returncode == 2, r
    assert r.stderr == (f"error: there is no profile 'nosuch' in {kcauth.config_file}; see `kcauth profiles`; "
                        "`kcauth login --profile nosuch` creates it\n"), r
    variable = subprocess.run([str(BINARY), "git-credential", "get"], env={**kcauth.env, "KCAUTH_PROFILE": "nosuch"},
                              capture_output=True, text=True, input=request, timeout=30)
    assert variable.stdout == "" and "there is no profile 'nosuch'" in variable.stderr, variable

    # git itself: the clone asks no password of a helper that answers nothing, and the person sees why.
    env = git_env(kcauth, tmp_path, "!kcauth git-credential --profile nosuch")
    cloned = clone(env, f"http://127.0.0.1:{git_server.port}/project.git", tmp_path / "clone")
    assert cloned.returncode != 0 and "there is no profile 'nosuch'" in cloned.stderr, cloned
