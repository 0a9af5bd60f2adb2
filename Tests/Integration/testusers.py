"""Users of a test's own: names and uids no other run uses, so that nothing depends on what
earlier runs (or suites running at the same time on this machine) left for a fixed one: a
/run/user/UID, files in /tmp, a password entry, processes."""

import os
import pwd
import secrets
from pathlib import Path


def unique_user_name():
    """A user name no other run uses: a prefix, this process, and random letters (≤ 32 chars)."""
    return f"kcssh{os.getpid() % 100000}x{secrets.token_hex(4)}"


def unused_uid(taken=()):
    """A uid that no password entry, /run/user directory, process or file at the top of /tmp has:
    random in a range no distribution allocates (above 2^20, below 2^31)."""
    while True:
        uid = 0x100000 + secrets.randbelow(0x7FFF0000 - 0x100000)
        if uid in taken or os.path.exists(f"/run/user/{uid}"):
            continue
        try:
            pwd.getpwuid(uid)
            continue
        except KeyError:
            pass
        if processes_of(uid) or any(owned_by(uid, top) for top in ("/tmp", "/var/tmp", "/dev/shm")):
            continue
        return uid


def owned_by(uid, top):
    """The entries at the top of directory `top` that `uid` owns."""
    found = []
    try:
        names = os.listdir(top)
    except OSError:
        return found
    for name in names:
        path = os.path.join(top, name)
        try:
            if os.lstat(path).st_uid == uid:
                found.append(path)
        except OSError:
            pass
    return found


def processes_of(uid):
    """The pids whose real uid is `uid`."""
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("Uid:"):
                    if int(line.split()[1]) == uid:
                        pids.append(int(pid))
                    break
        except (OSError, ValueError):
            pass
    return pids
