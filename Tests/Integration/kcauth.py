"""Running the built kcauth binary from tests, in an isolated environment.

    kc = Kcauth(tmp_path, keyring.env, browser_env)
    r = kc("login", "--issuer", provider.issuer, "--client-id", "kcauth")
    r.returncode, r.stdout, r.stderr

HOME and XDG_CONFIG_HOME point into tmp_path, so a test never reads or writes the developer's
own configuration; the keyring is whatever bus `keyring_env` names.
"""

import os
import pwd
import stat
import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("KCAUTH_BIN", REPO / ".build" / "debug" / "kcauth"))
# The full program the static front execs for everything but a warm-cache token; beside the front
# in a build tree (Sources/KCAuthFastPath/FullProgram.swift).
FULL_BINARY = BINARY.parent / "kcauth-full"


def shared_directory():
    """Where kcauth keeps the user's locks, session marks and forward sockets, whatever the
    environment (docs/security.md, "Where the locks, sockets and token files live"):
    /run/user/UID/kcauth-locks when /run/user/UID is ours and private, else
    .local/state/kcauth/locks in the home of the password database."""
    uid = os.geteuid()
    run = f"/run/user/{uid}"
    try:
        info = os.lstat(run)
        if stat.S_ISDIR(info.st_mode) and info.st_uid == uid and info.st_mode & 0o077 == 0:
            return Path(run) / "kcauth-locks"
    except FileNotFoundError:
        pass
    return Path(pwd.getpwuid(uid).pw_dir) / ".local" / "state" / "kcauth" / "locks"


def remove_shared_files(profile):
    """Removes the files a test's own profile (a name of its run) left in the shared directory."""
    shared = shared_directory()
    for name in os.listdir(shared) if shared.is_dir() else []:
        if profile in name and (shared / name).is_file():
            (shared / name).unlink()


class Result:
    def __init__(self, completed, seconds):
        self.returncode = completed.returncode
        self.stdout = completed.stdout
        self.stderr = completed.stderr
        self.seconds = seconds

    def __repr__(self):
        return f"<kcauth exit={self.returncode} {self.seconds:.2f}s stdout={self.stdout!r} stderr={self.stderr!r}>"


class Kcauth:
    def __init__(self, tmp_path, keyring_env, extra_env=None):
        self.home = Path(tmp_path) / "home"
        self.config_home = Path(tmp_path) / "config"
        self.home.mkdir(exist_ok=True)
        self.env = {
            **keyring_env,
            "HOME": str(self.home),
            "XDG_CONFIG_HOME": str(self.config_home),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            **(extra_env or {}),
        }
        # CI, SSH_* and KCAUTH_FLOW steer `login` to the device flow: a test asks for them itself.
        for name in ("KCAUTH_PROFILE", "KCAUTH_ISSUER", "KCAUTH_CLIENT_ID", "DISPLAY", "WAYLAND_DISPLAY",
                     "CI", "SSH_CONNECTION", "SSH_TTY", "SSH_CLIENT", "KCAUTH_FLOW",
                     "KCAUTH_STORAGE", "KCAUTH_CA_FILE", "XDG_STATE_HOME"):
            self.env.pop(name, None)

    @property
    def config_file(self):
        return self.config_home / "kcauth" / "config"

    @property
    def state_dir(self):
        """Where `--storage file` keeps sessions: ~/.local/state/kcauth under the test's HOME."""
        return self.home / ".local" / "state" / "kcauth"

    def __call__(self, *args, env=None, timeout=60, stdin=subprocess.DEVNULL):
        start = time.monotonic()
        completed = subprocess.run(
            [str(BINARY), *args], env={**self.env, **(env or {})}, capture_output=True, text=True,
            timeout=timeout, stdin=stdin,
        )
        return Result(completed, time.monotonic() - start)


def stored_items(keyring):
    """The kcauth items in `keyring` (a KeyringSession), as attribute dicts; secrets not read."""
    r = keyring.secret_tool("search", "--all", "--unlock", "xdg:schema", "dev.kcauth.AuthState")
    items, current = [], None
    for line in (r.stdout + r.stderr).splitlines():
        if line.startswith("["):
            current = {}
            items.append(current)
        elif line.startswith("attribute.") and current is not None:
            key, _, value = line[len("attribute."):].partition(" = ")
            current[key] = value
    return items
