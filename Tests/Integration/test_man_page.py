"""The man page renders without a warning in both man page toolchains Debian ships: mandoc's
linter (every level, style included) and man-db's `man --warnings` (groff -ww). The page is
man/kcauth.1 as committed, which must equal what the build tool prints (`kcauth-docgen man`,
next to the kcauth binary under test unless KCAUTH_DOCGEN_BIN names it). The generator is not
in kcauth itself."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from kcauth import BINARY, REPO

PAGE = REPO / "man" / "kcauth.1"
DOCGEN = Path(os.environ.get("KCAUTH_DOCGEN_BIN", BINARY.parent / "kcauth-docgen"))


def require(tool):
    if shutil.which(tool) is None:
        pytest.fail(f"{tool} is not installed: run scripts/install-deps")


def test_the_committed_page_is_what_the_generator_prints():
    if not DOCGEN.exists():
        pytest.fail(f"no man page generator at {DOCGEN}: swift build --product kcauth-docgen")
    printed = subprocess.run([str(DOCGEN), "man"], capture_output=True, text=True, timeout=30, check=True).stdout
    assert printed == PAGE.read_text(), "man/kcauth.1 is out of date: run scripts/generate-docs"


def test_kcauth_itself_carries_no_man_page_generator():
    # The roff a generator would emit (`.TH KCAUTH`, `.SH SYNOPSIS`) and the hidden command that
    # printed it are gone from the shipped binary; `kcauth-docgen` is a build tool.
    done = subprocess.run([str(BINARY), "__man"], capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("error: unknown command '__man'")
    binary = BINARY.read_bytes()
    for roff in [b".TH KCAUTH", b".SH SYNOPSIS", b".SS \"kcauth "]:
        assert roff not in binary, roff


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
