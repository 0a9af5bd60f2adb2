"""The man page renders without a warning in both man page toolchains Debian ships: mandoc's
linter (every level, style included) and man-db's `man --warnings` (groff -ww). The page is
man/kcauth.1 as committed, which must equal what the built binary prints (`kcauth __man`)."""

import shutil
import subprocess

import pytest

from kcauth import BINARY, REPO

PAGE = REPO / "man" / "kcauth.1"


def require(tool):
    if shutil.which(tool) is None:
        pytest.fail(f"{tool} is not installed: run scripts/install-deps")


def test_the_committed_page_is_what_the_binary_generates():
    printed = subprocess.run([str(BINARY), "__man"], capture_output=True, text=True, timeout=30, check=True).stdout
    assert printed == PAGE.read_text(), "man/kcauth.1 is out of date: run scripts/generate-docs"


def test_mandoc_lint_is_clean():
    require("mandoc")
    done = subprocess.run(["mandoc", "-T", "lint", "-W", "style", str(PAGE)], capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_man_warnings_are_clean():
    require("man")
    done = subprocess.run(["man", "--warnings", "-E", "UTF-8", "-l", str(PAGE)], capture_output=True, text=True,
                          timeout=30, env={"PATH": "/usr/bin:/bin", "MANWIDTH": "80", "LANG": "C.UTF-8"})
    assert done.returncode == 0 and done.stderr == ""
    for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "ENVIRONMENT", "FILES", "EXIT STATUS",
                    "SECURITY", "EXAMPLES", "SEE ALSO"]:
        assert f"\n{heading}\n" in done.stdout


def test_the_page_is_ascii_and_its_name_line_parses():
    assert PAGE.read_bytes().isascii()
    require("lexgrog")
    done = subprocess.run(["lexgrog", str(PAGE)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and "kcauth - sign in" in done.stdout
