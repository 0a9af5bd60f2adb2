"""Shared steps of the integration tests for git, kubectl, docker, curl and `kcauth exec`."""

import os
from pathlib import Path

from kcauth import BINARY


def login(kcauth, provider, *extra):
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", *extra)
    assert r.returncode == 0, r


def set_setting(kcauth, key, value, profile="default"):
    """Adds `key = value` to a profile's section of the config file (as a user would edit it)."""
    path = kcauth.config_file
    lines = path.read_text().splitlines() if path.exists() else []
    if f"[{profile}]" not in lines:
        lines += ["", f"[{profile}]"]
    lines.insert(lines.index(f"[{profile}]") + 1, f"{key} = {value}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")


def helper_bin(tmp_path):
    """A directory with kcauth and its helper names as symlinks, as `make install` lays them out;
    returns (directory, PATH with it first)."""
    d = Path(tmp_path) / "bin"
    d.mkdir(exist_ok=True)
    for name in ("kcauth", "git-credential-kcauth", "docker-credential-kcauth"):
        link = d / name
        if not link.exists():
            link.symlink_to(BINARY)
    return d, f"{d}:{os.environ.get('PATH', '/usr/bin:/bin')}"


def argv_of_all_processes():
    """Every process's command line, as one string each (what any user can read in /proc)."""
    out = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    out.append(f.read().replace(b"\0", b" ").decode(errors="replace"))
            except OSError:
                pass
    return out
