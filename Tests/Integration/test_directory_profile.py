"""The profile chosen by the directory: `.kcauth-profile` in the working directory
or the nearest parent names one of the user's own profiles; precedence --profile >
KCAUTH_PROFILE > the file > default_profile > default; a file not owned by the user or root, or
writable by others, is ignored with a warning; the front and the full program agree."""

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


@pytest.mark.parametrize("how", ["other-owner", "group-writable", "unknown-profile", "not-a-name"])
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
    elif how == "unknown-profile":
        marker.write_text("elsewhere\n")
        expected = "names profile 'elsewhere', which is not in"
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
