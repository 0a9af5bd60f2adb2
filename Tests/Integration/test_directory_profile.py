"""The profile chosen by the directory: `.kcauth-profile` in the working directory
or the nearest parent names one of the user's own profiles; precedence --profile >
KCAUTH_PROFILE > the file > default_profile > default; a file not owned by the user or root, or
writable by others, is ignored with a warning; a file naming a profile that is not configured
stops every command that picks a profile (exit 4, one line naming the file, the profile and the
command that fixes it); the front and the full program agree."""

import os
import subprocess

import pytest

from helpers import login
from kcauth import BINARY, FULL_BINARY


def run(kcauth, cwd, *args, executable=BINARY, env=None):
    return subprocess.run([str(executable), *args], cwd=cwd, env={**kcauth.env, **(env or {})}, capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)


@pytest.fixture
def repo(tmp_path, kcauth, provider):
    """`work` signed in, `default` configured; a checkout whose root names `work`, and a
    subdirectory to run in."""
    login(kcauth, provider, "--profile", "work")
    login(kcauth, provider)
    root = tmp_path / "checkout"
    (root / "src" / "deep").mkdir(parents=True)
    marker = root / ".kcauth-profile"
    marker.write_text("work\n")
    os.chmod(marker, 0o644)
    return root


def test_the_nearest_file_selects_the_profile_and_status_says_so(kcauth, repo):
    here = repo / "src" / "deep"
    marker = repo / ".kcauth-profile"
    r = run(kcauth, here, "status")
    assert r.returncode == 0, r
    assert f"work (selected by {marker})" in r.stdout and "default (selected" not in r.stdout
    w = run(kcauth, here, "whoami")
    assert w.returncode == 0 and f"work (selected by {marker})" in w.stdout, w
    d = run(kcauth, here, "doctor")
    assert f"profile work ({marker})" in d.stdout + d.stderr, d
    # The front and the full program hand out the same token: work's.
    front, full = run(kcauth, here, "token"), run(kcauth, here, "token", executable=FULL_BINARY)
    assert front.returncode == full.returncode == 0 and front.stdout == full.stdout and front.stderr == full.stderr == ""
    assert front.stdout == run(kcauth, here, "token", "--profile", "work").stdout
    assert front.stdout != run(kcauth, here, "token", "--profile", "default").stdout


def test_flag_and_environment_come_first(kcauth, repo):
    here = repo / "src"
    default = run(kcauth, here, "token", "--profile", "default").stdout
    assert run(kcauth, here, "token", env={"KCAUTH_PROFILE": "default"}).stdout == default
    s = run(kcauth, here, "status", env={"KCAUTH_PROFILE": "default"})
    assert "default (selected by KCAUTH_PROFILE)" in s.stdout, s


@pytest.mark.parametrize("how", ["other-owner", "group-writable", "not-a-name"])
def test_an_untrusted_file_is_ignored_with_a_warning(kcauth, repo, how):
    marker = repo / ".kcauth-profile"
    if how == "other-owner":
        if os.geteuid() != 0:
            pytest.skip("needs root to give the file away")
        os.chown(marker, 4242, 4242)
        expected = "owned by uid 4242"
    elif how == "group-writable":
        os.chmod(marker, 0o664)
        expected = "writable by group or others"
    else:
        marker.write_text("../work\n")
        expected = "does not hold one profile name"
    here = repo / "src"
    default = run(kcauth, here, "token", "--profile", "default").stdout
    front, full = run(kcauth, here, "token"), run(kcauth, here, "token", executable=FULL_BINARY)
    assert (front.returncode, front.stdout, front.stderr) == (full.returncode, full.stdout, full.stderr)
    assert front.returncode == 0 and front.stdout == default, front
    assert str(marker) in front.stderr and expected in front.stderr and front.stderr.count("\n") == 1, front.stderr
    # With the profile named elsewhere the file is not even looked at.
    assert run(kcauth, here, "token", "--profile", "work").stderr == ""


def test_an_oversized_file_is_ignored_and_the_limit_is_said_in_bytes(kcauth, repo):
    # The rule (KCAuthContract's DirectoryProfile) reads at most 256 bytes: a longer file names
    # no profile, and the warning says the limit as it is, not rounded down to "0 KiB".
    marker = repo / ".kcauth-profile"
    marker.write_text("work" + " " * 300 + "\n")
    here = repo / "src"
    default = run(kcauth, here, "token", "--profile", "default").stdout
    front, full = run(kcauth, here, "token"), run(kcauth, here, "token", executable=FULL_BINARY)
    assert (front.returncode, front.stdout, front.stderr) == (full.returncode, full.stdout, full.stderr)
    assert front.returncode == 0 and front.stdout == default, front
    assert front.stderr == (f"warning: {marker} is larger than 256 bytes, which it never is; "
                            "the profile it names is not used\n"), front.stderr
# Every command that picks a profile, as the front and the full program are run by people and tools.
PICKING = [
    ("kcauth", ["token"], None), ("kcauth", ["token", "-o", "json"], None), ("kcauth", ["exec", "--", "/bin/true"], None),
    ("git-credential-kcauth", ["get"], "protocol=https\nhost=git.example.com\n\n"),
    ("kcauth", ["git-credential", "get"], "protocol=https\nhost=git.example.com\n\n"),
    ("docker-credential-kcauth", ["get"], "registry.example.com\n"), ("docker-credential-kcauth", ["list"], ""),
    ("kcauth", ["whoami"], None), ("kcauth", ["status"], None), ("kcauth", ["refresh"], None), ("kcauth", ["logout"], None),
    ("kcauth", ["login"], None), ("kcauth", ["kubeconfig"], None), ("kcauth", ["profiles"], None),
]


def test_a_file_naming_a_profile_that_is_not_configured_stops_every_command_that_picks_one(kcauth, provider, tmp_path):
    """The file's profile is not the user's (a cloned repository for another organisation): no
    command goes on with the default profile's token; each says which file names which profile
    and the command that creates it, and changes nothing."""
    # Profile names of this test's own: the sign-in lock is per user, shared with whatever else runs.
    mine, other, missing = (f"{name}-{os.getpid()}" for name in ("mine", "other", "elsewhere"))
    login(kcauth, provider, "--profile", other)
    login(kcauth, provider, "--profile", mine)
    text = kcauth.config_file.read_text()
    kcauth.config_file.write_text(f"default_profile = {mine}\n" + text.replace(
        f"[{mine}]\n", f"[{mine}]\nhosts = git.example.com registry.example.com\n"))   # mine would answer the helpers
    here = tmp_path / "checkout" / "src"
    here.mkdir(parents=True)
    marker = tmp_path / "checkout" / ".kcauth-profile"
    marker.write_text(missing + "\n")
    os.chmod(marker, 0o644)
    tokens = {p: run(kcauth, here, "token", "--profile", p).stdout for p in (mine, other)}
    assert all(t.count(".") == 2 for t in tokens.values()), tokens
    config_before = kcauth.config_file.read_text()
    line = (f"error: {marker} names profile '{missing}', which is not in {kcauth.config_file}; "
            f"run `kcauth login --profile {missing}` to create it, or change {marker}\n")
    for argv0, argv, stdin in PICKING:
        for program in (BINARY, FULL_BINARY):
            r = subprocess.run([argv0, *argv], executable=str(program), cwd=here, env=kcauth.env, capture_output=True,
                               text=True, timeout=60, input=stdin, stdin=subprocess.DEVNULL if stdin is None else None)
            assert (r.returncode, r.stdout, r.stderr) == (4, "", line), (argv0, argv, program.name, r)
    # doctor reports it among its checks.
    d = run(kcauth, here, "doctor")
    assert d.returncode != 0 and f"{marker} names profile '{missing}'" in d.stdout, d
    # Nothing changed: both sessions and the configuration are as they were.
    assert kcauth.config_file.read_text() == config_before
    assert {p: run(kcauth, here, "token", "--profile", p).stdout for p in tokens} == tokens
    # A profile named another way is used as always; the file is not looked at then.
    assert run(kcauth, here, "token", env={"KCAUTH_PROFILE": other}).stdout == tokens[other]
    # And the command the line names fixes it: the directory then selects its own profile.
    login(kcauth, provider, "--profile", missing)
    front, full = run(kcauth, here, "token"), run(kcauth, here, "token", executable=FULL_BINARY)
    assert (front.returncode, front.stderr) == (full.returncode, full.stderr) == (0, ""), (front, full)
    assert front.stdout == full.stdout and front.stdout not in tokens.values()
    assert front.stdout == run(kcauth, here, "token", "--profile", missing).stdout
