"""`make install` / `make uninstall` into a temporary DESTDIR.

The targets are run for real; BINARY= hands them the binary this test run already built (the debug
one under `make integration`), so the test needs no release build. What is checked is the layout:
the binary, the man page and the three completions in their standard directories, with their modes,
and that uninstall takes every file away again. A missing source file must stop the install before
anything is copied.
"""

import os
import stat
import subprocess
from pathlib import Path

from kcauth import BINARY, REPO

DOCS = {
    "man/kcauth.1": "share/man/man1/kcauth.1",
    "completions/kcauth.bash": "share/bash-completion/completions/kcauth",
    "completions/_kcauth": "share/zsh/site-functions/_kcauth",
    "completions/kcauth.fish": "share/fish/vendor_completions.d/kcauth.fish",
}

HELPERS = ["git-credential-kcauth", "docker-credential-kcauth"]


def make(*args):
    # Run the Makefile as a user would, not as a sub-make of the `make integration` that runs us.
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
    return subprocess.run(["make", "--no-print-directory", "-C", str(REPO), *args],
                          env=env, capture_output=True, text=True, timeout=120)


def files_under(root):
    return sorted(str(p.relative_to(root)) for p in Path(root).rglob("*") if not p.is_dir())


def mode(path):
    return stat.S_IMODE(path.stat().st_mode)


def test_install_lays_out_binary_man_page_and_completions_and_uninstall_removes_them(tmp_path):
    dest = tmp_path / "dest"
    r = make("install", f"DESTDIR={dest}", "PREFIX=/usr", f"BINARY={BINARY}")
    assert r.returncode == 0, r.stderr

    expected = ["usr/bin/kcauth", *(f"usr/bin/{h}" for h in HELPERS)] + [f"usr/{target}" for target in DOCS.values()]
    assert files_under(dest) == sorted(expected)
    for name in HELPERS:
        link = dest / "usr/bin" / name
        assert link.is_symlink() and os.readlink(link) == "kcauth", name
    # Run by those names, kcauth is the helper: git's `store` is a quiet no-op, and docker's
    # helper names its own actions in the error for an unknown one.
    git = subprocess.run([str(dest / "usr/bin/git-credential-kcauth"), "store"], input="", capture_output=True, text=True, timeout=30)
    assert git.returncode == 0 and git.stdout == "" and git.stderr == "", git
    docker = subprocess.run([str(dest / "usr/bin/docker-credential-kcauth"), "frobnicate"], capture_output=True, text=True,
                            timeout=30, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert docker.returncode == 2 and "use get, list, store or erase" in docker.stderr, docker

    installed = dest / "usr/bin/kcauth"
    assert mode(installed) == 0o755
    version = subprocess.run([str(installed), "--version"], capture_output=True, text=True, timeout=30)
    assert version.returncode == 0 and version.stdout.startswith("kcauth ")
    sections = subprocess.run(["readelf", "-S", "-W", str(installed)], capture_output=True, text=True).stdout
    assert ".symtab" not in sections and ".debug_info" not in sections, "install -s strips the binary"

    for source, target in DOCS.items():
        path = dest / "usr" / target
        assert mode(path) == 0o644, target
        assert path.read_bytes() == (REPO / source).read_bytes(), target

    r = make("uninstall", f"DESTDIR={dest}", "PREFIX=/usr")
    assert r.returncode == 0, r.stderr
    assert files_under(dest) == []


def test_default_prefix_is_usr_local(tmp_path):
    dest = tmp_path / "dest"
    r = make("install", f"DESTDIR={dest}", f"BINARY={BINARY}")
    assert r.returncode == 0, r.stderr
    assert "usr/local/bin/kcauth" in files_under(dest)
    assert "usr/local/share/zsh/site-functions/_kcauth" in files_under(dest)
    assert make("uninstall", f"DESTDIR={dest}").returncode == 0
    assert files_under(dest) == []


def test_a_missing_man_page_stops_the_install_before_anything_is_copied(tmp_path):
    dest = tmp_path / "dest"
    missing = tmp_path / "man" / "kcauth.1"
    r = make("install", f"DESTDIR={dest}", "PREFIX=/usr", f"BINARY={BINARY}", f"MANPAGE={missing}")
    assert r.returncode != 0
    assert f"{missing} is missing" in r.stderr
    assert not dest.exists()


def test_a_missing_binary_stops_the_install(tmp_path):
    dest = tmp_path / "dest"
    r = make("install", f"DESTDIR={dest}", "PREFIX=/usr", f"BINARY={tmp_path / 'kcauth'}")
    assert r.returncode != 0
    assert "no kcauth binary at" in r.stderr
    assert not dest.exists()
