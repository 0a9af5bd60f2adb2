"""Locks nobody else can hold: without /run/user/UID the refresh and sign-in locks
(and session marks) live under the home the password database gives, not in /tmp where another
user could create the directory first; and no lock problem stops `logout` from ending the
session at the provider.

Runs kcauth as a user of its own (a uid of this run's, testusers.unused_uid) in a private mount
namespace whose /etc/passwd lists that user, as in a container without logind: needs root,
unshare and setpriv."""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from kcauth import BINARY
from provider import SCRIPTED_BROWSER
from testusers import unused_uid

UID = unused_uid()
SQUATTER = unused_uid(taken=(UID,))

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or not all(shutil.which(t) for t in ("unshare", "setpriv")),
                                reason="needs root, unshare and setpriv")


class User:
    """UID with a home of its own, listed in a private /etc/passwd (home `listed_home`)."""

    def __init__(self, listed_home=None):
        self.dir = Path(tempfile.mkdtemp(prefix="kc-lockplace-"))
        os.chmod(self.dir, 0o755)
        self.home = self.dir / "home"
        self.home.mkdir(mode=0o700)
        os.chown(self.home, UID, UID)
        self.passwd = self.dir / "passwd"
        entry = f"lockplace:x:{UID}:{UID}::{listed_home or self.home}:/bin/sh\n"
        self.passwd.write_text(Path("/etc/passwd").read_text() + entry)
        self.env = {"HOME": str(self.home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "BROWSER": str(SCRIPTED_BROWSER)}

    def __call__(self, *args, timeout=60):
        script = 'mount --bind "$0" /etc/passwd && exec setpriv --reuid %d --regid %d --clear-groups -- "$@"' % (UID, UID)
        return subprocess.run(["unshare", "--mount", "--", "sh", "-c", script, str(self.passwd), str(BINARY), *args],
                              env=self.env, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)

    def sign_in(self, provider):
        """Signs in as root with this user's HOME (the scripted browser runs as root), then gives
        the files to the user, as if the user had signed in."""
        env = {**self.env, "SCRIPTED_RESULT": str(self.dir / "scripted-result.json")}
        r = subprocess.run([str(BINARY), "login", "--issuer", provider.issuer, "--client-id", "kcauth", "--storage", "file",
                            "--timeout", "30"], env=env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        assert r.returncode == 0, r
        for root, dirs, files in os.walk(self.home):
            for name in dirs + files:
                os.lchown(os.path.join(root, name), UID, UID)

    def remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def squatted():
    """/tmp/kcauth-UID, where the locks used to go, made first by another user."""
    path = Path(f"/tmp/kcauth-{UID}")
    path.mkdir(mode=0o700)  # the uid is this run's: nobody made it before
    os.chown(path, SQUATTER, SQUATTER)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_a_squatted_tmp_directory_stops_nothing(provider, squatted):
    user = User()
    try:
        user.sign_in(provider)
        r = user("refresh")
        assert r.returncode == 0 and "Refreshed" in r.stderr, r.stderr
        locks = user.home / ".local" / "state" / "kcauth" / "locks"
        assert locks.is_dir() and locks.stat().st_uid == UID and locks.stat().st_mode & 0o777 == 0o700
        assert any(name.endswith(".lock") for name in os.listdir(locks))
        r = user("logout")
        assert r.returncode == 0 and "Signed out" in r.stderr, r
        assert user("token").returncode == 4
    finally:
        user.remove()


def test_logout_ends_the_session_even_without_a_place_for_locks(provider):
    # The password database gives a home that cannot exist: no /run/user/UID, nowhere for locks.
    user = User(listed_home="/nonexistent/lockplace")
    try:
        user.sign_in(provider)
        r = user("refresh")
        assert r.returncode == 1 and "no place for kcauth's locks" in r.stderr, r
        r = user("logout")
        assert r.returncode == 0, r
        assert "signing out without the refresh lock" in r.stderr and "Signed out" in r.stderr, r
        assert user("token").returncode == 4
    finally:
        user.remove()
