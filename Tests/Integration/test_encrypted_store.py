"""The encrypted store, end to end with the built binary: sessions sealed with
AES-256-GCM under a data key wrapped by scrypt, unlocked once into the real kernel user keyring
(inspected with Debian's `keyctl`), passphrases typed on a pseudo-terminal or read from a file,
and every kind of bad input: wrong passphrase, tampered, truncated and swapped files, a newer
format, a passphrase file others can read, and a kernel that refuses add_key (seccomp).

Every kcauth and keyctl here runs in a user keyring of the test's own (see `user_keyring`):
`kcauth lock` revokes every kcauth data key of the user, and the tests of other checkouts on the
same machine share root's user keyring."""

import base64
import hashlib
import json
import os
import pty
import re
import stat
import subprocess
import time
from pathlib import Path

import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from kcauth import BINARY, Kcauth, Result
from keyring import no_bus_env
from test_login_shortcuts import Terminal as ShortcutsTerminal

PASSPHRASE = "correct horse battery staple"


def login_args(provider, *extra):
    return ("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", *extra)


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def b64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def store_id(kc):
    return re.search(r"^id (\w+)$", (kc.state_dir / "store.key").read_text(), re.M).group(1)


def keyctl(kc, *args):
    """Debian's keyctl, in the test's own user keyring."""
    return subprocess.run([*kc.enter, "keyctl", *args], capture_output=True, text=True, timeout=30)


def key_serial(kc, store=None):
    """The data key's serial in the user keyring, or None (via `keyctl`, not kcauth)."""
    r = keyctl(kc, "search", "@u", "user", f"kcauth:data-key:{store or store_id(kc)}")
    return r.stdout.strip() if r.returncode == 0 else None


def data_keys(kc):
    """The descriptions of the kcauth data keys live in the user keyring."""
    listing = keyctl(kc, "show", "@u").stdout
    return sorted(re.findall(r"user: (kcauth:data-key:\w+)", listing))


@pytest.fixture
def user_keyring():
    """A user keyring (@u) of the test's own, as the prefix that runs a command in it.

    `kcauth lock` revokes every kcauth data key of the user (uid 0 here), and other test runs on
    this machine share root's user keyring: a lock here must not revoke their keys mid-test.
    `keyctl session -` is no help, since the store's keys live in @u, not in the session keyring;
    nor is another uid without a password entry (kcauth then has no place for its locks). The
    kernel keeps one user keyring per uid *per user namespace* (keyrings(7)), so the test holds a
    user namespace of its own open (root mapped to root: files, owners and permission checks are
    as outside) with a sleeping process, and enters it with nsenter(1) for every kcauth and
    keyctl; the namespace and its keys end with the holder, stopped by PID at teardown."""
    holder = subprocess.Popen(["unshare", "--user", "--map-root-user", "sleep", "3600"], stdin=subprocess.DEVNULL)
    ns = f"/proc/{holder.pid}/ns/user"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # until unshare(2) has happened: entering before it enters our own
        try:
            if os.readlink(ns) != os.readlink("/proc/self/ns/user"):
                break
        except FileNotFoundError:
            pass
        time.sleep(0.02)
    else:
        holder.kill()
        holder.wait()
        pytest.fail("could not make a user namespace (unshare --user) for a private user keyring")
    yield ["nsenter", f"--user={ns}", "--"]
    holder.kill()
    holder.wait()


class PrivateKcauth(Kcauth):
    """Kcauth whose every run enters the test's own user keyring."""

    def __init__(self, tmp_path, keyring_env, extra_env=None, enter=()):
        super().__init__(tmp_path, keyring_env, extra_env)
        self.enter = list(enter)

    def __call__(self, *args, env=None, timeout=60, stdin=subprocess.DEVNULL):
        start = time.monotonic()
        completed = subprocess.run([*self.enter, str(BINARY), *args], env={**self.env, **(env or {})}, capture_output=True,
                                   text=True, timeout=timeout, stdin=stdin)
        return Result(completed, time.monotonic() - start)

    def popen(self, *args, env=None, **kwargs):
        return subprocess.Popen([*self.enter, str(BINARY), *args], env={**self.env, **(env or {})}, **kwargs)


class Terminal(ShortcutsTerminal):
    """kcauth on a pseudo-terminal, in the test's own user keyring."""

    def __init__(self, kc, *args, env=None, program=()):
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen([*kc.enter, *program, str(BINARY), *args], env={**kc.env, **(env or {})}, stdin=slave,
                                        stderr=slave, stdout=subprocess.PIPE, close_fds=True)
        os.close(slave)
        self.seen = b""


def data_key(key_file_text, passphrase=PASSPHRASE):
    """The data key a key file (`store.key`'s text) wraps, unwrapped with Python's own scrypt and AES-GCM."""
    lines = key_file_text.splitlines(keepends=True)
    kdf = dict(p.split("=", 1) for p in lines[2].split()[2:])
    kek = hashlib.scrypt(passphrase.encode(), salt=b64(kdf["salt"]), n=int(kdf["n"]), r=int(kdf["r"]), p=int(kdf["p"]),
                         maxmem=(1 << 31) - 1, dklen=32)
    wrapped = b64(lines[3].split()[1])
    return AESGCM(kek).decrypt(wrapped[:12], wrapped[12:], "".join(lines[:3]).encode())


def open_sealed(text, key):
    """A session file's JSON, opened with `key` (AESGCM raises InvalidTag for another key)."""
    session = text.splitlines(keepends=True)
    sealed = b64(session[3].split()[1])
    return json.loads(AESGCM(key).decrypt(sealed[:12], sealed[12:], "".join(session[:3]).encode()))


def open_session(kc, profile, passphrase=PASSPHRASE):
    """Decrypts a session with Python's own scrypt and AES-GCM: the format is what docs/security.md says."""
    key = data_key((kc.state_dir / "store.key").read_text(), passphrase)
    return open_sealed((kc.state_dir / f"{profile}.sealed").read_text(), key)


def passphrase_file(path, text):
    path.write_text(text + "\n")
    path.chmod(0o600)
    return path


@pytest.fixture
def kc(tmp_path, scripted_browser_env, user_keyring):
    """kcauth with no D-Bus session at all (no Secret Service), a passphrase file of mode 0600,
    and a user keyring of its own (gone with the test)."""
    kc = PrivateKcauth(tmp_path, no_bus_env(tmp_path), dict(scripted_browser_env), enter=user_keyring)
    kc.passphrase_file = passphrase_file(tmp_path / "passphrase", PASSPHRASE)
    kc.cold = {"KCAUTH_TOKEN_CACHE": "off"}  # a read from the store, not the runtime cache
    return kc


def sign_in(kc, provider, *extra):
    r = kc(*login_args(provider, "--storage", "encrypted", "--passphrase-file", str(kc.passphrase_file), *extra))
    assert r.returncode == 0, r
    return r


def test_login_seals_the_session_and_no_plaintext_refresh_token_is_anywhere(provider, kc, tmp_path):
    started = time.time()
    r = sign_in(kc, provider)
    assert f"Created the encrypted store {kc.state_dir / 'store.key'}" in r.stderr
    assert "plaintext" not in r.stderr
    assert mode(kc.state_dir) == 0o700
    assert mode(kc.state_dir / "store.key") == 0o600 and mode(kc.state_dir / "default.sealed") == 0o600
    assert "storage = encrypted" in kc.config_file.read_text()
    header = (kc.state_dir / "store.key").read_text().splitlines()
    assert header[0] == "kcauth-encrypted-store 1" and header[2].startswith("kdf scrypt n=")

    refresh = open_session(kc, "default")["refresh_token"]
    assert len(refresh) > 10
    needle = refresh.encode()
    roots = [kc.home, kc.config_home, Path("/tmp"), Path(kc.env["XDG_RUNTIME_DIR"])]
    for root in roots:
        # os.walk skips what vanishes or cannot be read meanwhile (other tests share /tmp).
        for directory, _, names in os.walk(root):
            if directory.startswith("/tmp/kcauth-provider-"):
                continue  # the provider's own database holds the tokens it issued
            for name in names:
                path = Path(directory) / name
                try:
                    info = path.lstat()
                    if not stat.S_ISREG(info.st_mode) or info.st_mtime < started - 1 or info.st_size > 1 << 22:
                        continue
                    assert needle not in path.read_bytes(), f"plaintext refresh token in {path}"
                except (PermissionError, FileNotFoundError):
                    continue

    # Locked, no terminal: the store is not read, and the message says what to run (a cold read:
    # the login kept its token in the runtime cache, which answers without the store).
    assert kc("lock").returncode == 0
    t = kc("token", env=kc.cold)
    assert t.returncode == 5, t
    assert "is locked" in t.stderr and "run `kcauth unlock`" in t.stderr and t.stdout == ""
    # Unlocked, the first token is read from the store and kept in the runtime cache; once
    # locked again, the warm path still answers without the passphrase (only a cold read needs it).
    assert kc("unlock", "--passphrase-file", str(kc.passphrase_file)).returncode == 0
    first = kc("token")
    assert first.returncode == 0, first
    assert kc("lock").returncode == 0
    warm = kc("token")
    assert warm.returncode == 0 and warm.stdout == first.stdout, warm
    assert kc("token", env=kc.cold).returncode == 5


def test_unlock_in_one_process_token_in_another_then_lock(provider, kc):
    sign_in(kc, provider)
    assert kc("lock").returncode == 0
    assert key_serial(kc) is None
    u = kc("unlock", "--for", "1h", "--passphrase-file", str(kc.passphrase_file))
    assert u.returncode == 0, u
    assert "The encrypted store is unlocked until " in u.stderr
    serial = key_serial(kc)
    assert serial
    described = keyctl(kc, "rdescribe", serial).stdout.strip()
    assert described.split(";")[0] == "user" and described.endswith(f"kcauth:data-key:{store_id(kc)}")
    assert described.split(";")[3] == "3f2f0000", "possessor all, user view/read/write/search/setattr, nothing for others"

    # Another process, no terminal, in a fresh session keyring (it does not possess @u's keys
    # through its own session): user permission is enough.
    env = {**kc.env, **kc.cold}
    other = subprocess.run([*kc.enter, "keyctl", "session", "-", str(BINARY), "token"], env=env, capture_output=True, text=True,
                           stdin=subprocess.DEVNULL, timeout=30)
    assert other.returncode == 0, other.stderr
    assert other.stdout.strip() == open_session(kc, "default")["access_token"]

    status = kc("status")
    assert "encrypted" in status.stdout + status.stderr and "unlocked until" in status.stdout + status.stderr, status

    lock = kc("lock")
    assert lock.returncode == 0 and "locked" in lock.stderr, lock
    assert key_serial(kc) is None
    after = kc("token", env=kc.cold)
    assert after.returncode == 5 and "run `kcauth unlock`" in after.stderr, after


def test_the_unlock_times_out(provider, kc):
    sign_in(kc, provider)
    assert kc("unlock", "--for", "2s", "--passphrase-file", str(kc.passphrase_file)).returncode == 0
    assert kc("token", env=kc.cold).returncode == 0
    time.sleep(3)
    late = kc("token", env=kc.cold)
    assert late.returncode == 5 and "is locked" in late.stderr, late


def answer(terminal, prompt, text):
    """Waits for `prompt` (echo is off by then, so typing ahead is never flushed), types `text`,
    and forgets what was seen so far, so the next identical prompt is waited for."""
    terminal.expect(prompt)
    terminal.type(text)
    terminal.all_seen = getattr(terminal, "all_seen", b"") + terminal.seen
    terminal.seen = b""


def test_on_a_terminal_login_asks_twice_and_unlock_asks_without_echo(provider, kc):
    t = Terminal(kc, *login_args(provider, "--storage", "encrypted"))
    answer(t, "New passphrase for the kcauth encrypted store: ", PASSPHRASE)
    answer(t, "Repeat the passphrase: ", "something else")
    t.expect("The two passphrases differ, try again.")
    answer(t, "New passphrase for the kcauth encrypted store: ", PASSPHRASE)
    answer(t, "Repeat the passphrase: ", PASSPHRASE)
    code, _, seen = t.finish()
    seen = t.all_seen.decode(errors="replace") + seen
    assert code == 0, seen
    assert PASSPHRASE not in seen, "no echo"
    assert "it is unlocked until" in seen
    assert key_serial(kc), "a login that creates the store unlocks it"
    assert kc("token", env=kc.cold).returncode == 0
    assert kc("lock").returncode == 0

    wrong = Terminal(kc, "unlock")
    for attempt in range(3):
        wrong.expect("Passphrase for the kcauth encrypted store: ")
        wrong.type("not it")
        if attempt < 2:
            wrong.expect("Wrong passphrase, try again.")
            wrong.seen = wrong.seen.split(b"Wrong passphrase, try again.", 1)[1]  # the next prompt may follow at once
    code, _, seen = wrong.finish()
    assert code == 5 and "wrong passphrase" in seen, seen
    assert key_serial(kc) is None

    # A locked store at a terminal: asked for this one command, nothing left unlocked.
    once = Terminal(kc, "token", env=kc.cold)
    answer(once, "Passphrase for the kcauth encrypted store: ", PASSPHRASE)
    code, stdout, seen = once.finish()
    assert code == 0 and stdout.strip(), seen
    assert "`kcauth unlock` opens the store once for every process" in seen
    assert key_serial(kc) is None

    right = Terminal(kc, "unlock", "--for", "10m")
    right.expect("Passphrase for the kcauth encrypted store: ")
    right.type(PASSPHRASE)
    code, _, seen = right.finish()
    assert code == 0 and "unlocked until" in seen and PASSPHRASE not in seen, seen
    assert key_serial(kc)


def test_a_wrong_passphrase_file_changes_nothing_and_is_slow(provider, kc, tmp_path):
    sign_in(kc, provider)
    assert kc("lock").returncode == 0
    before = {p.name: p.read_bytes() for p in kc.state_dir.iterdir()}
    wrong = tmp_path / "wrong"
    wrong.write_text("nope\n")
    wrong.chmod(0o600)
    r = kc("unlock", "--passphrase-file", str(wrong))
    assert r.returncode == 5 and f"the passphrase in {wrong} does not open the encrypted store" in r.stderr, r
    assert r.seconds >= 1.0, "a delay after a wrong passphrase"
    assert {p.name: p.read_bytes() for p in kc.state_dir.iterdir()} == before
    assert key_serial(kc) is None


def test_a_passphrase_file_others_can_read_is_refused(provider, kc):
    kc.passphrase_file.chmod(0o644)
    r = kc(*login_args(provider, "--storage", "encrypted", "--passphrase-file", str(kc.passphrase_file)))
    assert r.returncode == 5, r
    assert f"refusing to use the passphrase file {kc.passphrase_file}: it is accessible to group or others (mode 0644)" in r.stderr
    assert not (kc.state_dir / "store.key").exists()
    e = kc("unlock", env={"KCAUTH_PASSPHRASE_FILE": str(kc.passphrase_file)})
    assert e.returncode == 5


def flip(path, index):
    data = bytearray(path.read_bytes())
    data[index] ^= 0x01
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", ["ciphertext", "header", "truncated", "version"])
def test_a_damaged_session_file_is_named_kept_and_replaced_only_when_asked(provider, kc, damage):
    sign_in(kc, provider)
    kc("unlock", "--passphrase-file", str(kc.passphrase_file))
    sealed = kc.state_dir / "default.sealed"
    text = sealed.read_text()
    if damage == "ciphertext":
        lines = text.splitlines(keepends=True)
        body = bytearray(b64(lines[3].split()[1]))
        body[len(body) // 2] ^= 0x01
        lines[3] = "sealed " + base64.urlsafe_b64encode(bytes(body)).decode().rstrip("=") + "\n"
        sealed.write_text("".join(lines))
    elif damage == "header":
        flip(sealed, text.index("store ") + 8)
    elif damage == "truncated":
        sealed.write_text(text[: len(text) // 2])
    else:
        sealed.write_text(text.replace("kcauth-encrypted-session 1", "kcauth-encrypted-session 7"))
    damaged = sealed.read_bytes()
    r = kc("token", env=kc.cold)
    assert r.returncode == 5, r
    assert str(sealed) in r.stderr
    expected = {"ciphertext": "failed its integrity check", "header": "another store", "truncated": "it may be truncated",
                "version": "has format version 7"}[damage]
    assert expected in r.stderr, r.stderr
    assert sealed.read_bytes() == damaged, "never overwritten by the failed read"

    # A new login without a terminal does not replace it...
    again = kc("login", "--force", "--timeout", "30")
    assert again.returncode == 5 and str(sealed) in again.stderr, again
    assert sealed.read_bytes() == damaged
    # ...and on a terminal it asks first.
    t = Terminal(kc, "login", "--force", "--timeout", "30")
    t.expect("Replace it with the new session? [y/N] ")
    t.type("y")
    code, _, seen = t.finish()
    assert code == 0, seen
    assert open_session(kc, "default")["refresh_token"]


def test_a_tampered_key_file_or_swapped_profiles_are_detected(provider, kc):
    sign_in(kc, provider)
    sign_in(kc, provider, "--profile", "work")
    kc("unlock", "--passphrase-file", str(kc.passphrase_file))
    a, b = kc.state_dir / "default.sealed", kc.state_dir / "work.sealed"
    a_bytes, b_bytes = a.read_bytes(), b.read_bytes()
    a.write_bytes(b_bytes)
    b.write_bytes(a_bytes)
    r = kc("token", env=kc.cold)
    assert r.returncode == 5 and f"{a} holds the session of profile 'work', not this one" in r.stderr, r
    doctor = kc("doctor").stdout
    assert "ok    kernel keyring: add_key and keyctl work" in doctor, doctor
    assert "ok    encrypted store key file: " in doctor and "scrypt N=" in doctor
    assert f"FAIL  encrypted session file: {a} holds the session of profile 'work'" in doctor, doctor
    assert "ok    encrypted store: unlocked until " in doctor
    a.write_bytes(a_bytes)
    b.write_bytes(b_bytes)
    assert kc("token", env=kc.cold).returncode == 0

    # A lowered work factor in the key file's header: the passphrase no longer opens it.
    assert kc("lock").returncode == 0
    key = kc.state_dir / "store.key"
    original = key.read_text()
    key.write_text(original.replace(" r=8 ", " r=4 "))
    weak = kc("unlock", "--passphrase-file", str(kc.passphrase_file))
    assert weak.returncode == 5 and "does not open" in weak.stderr, weak
    key.write_text(original)


def test_changing_the_passphrase_rewraps_the_key_atomically(provider, kc, tmp_path):
    sign_in(kc, provider)
    sealed_before = (kc.state_dir / "default.sealed").read_bytes()
    new = tmp_path / "new-passphrase"
    new.write_text("a new passphrase\n")
    new.chmod(0o600)
    r = kc("passphrase", "--passphrase-file", str(kc.passphrase_file), "--new-passphrase-file", str(new))
    assert r.returncode == 0, r
    assert (kc.state_dir / "default.sealed").read_bytes() == sealed_before, "sessions are not rewritten"
    assert sorted(p.name for p in kc.state_dir.iterdir() if ".tmp-" in p.name) == []
    assert kc("unlock", "--passphrase-file", str(kc.passphrase_file)).returncode == 5
    assert kc("unlock", "--passphrase-file", str(new)).returncode == 0
    assert open_session(kc, "default", "a new passphrase")["refresh_token"]


def test_a_plain_change_leaves_an_old_key_file_with_the_old_passphrase_working(provider, kc, tmp_path):
    # What docs/security.md says a plain change does not protect against: the data key stays,
    # so a copy of the old store.key (a backup) opens every session with the old passphrase.
    sign_in(kc, provider)
    old_key_file = (kc.state_dir / "store.key").read_text()
    new = passphrase_file(tmp_path / "new-passphrase", "a new passphrase")
    assert kc("passphrase", "--passphrase-file", str(kc.passphrase_file), "--new-passphrase-file", str(new)).returncode == 0
    session = open_sealed((kc.state_dir / "default.sealed").read_text(), data_key(old_key_file))
    assert session == open_session(kc, "default", "a new passphrase")


def test_a_new_key_reseals_every_session_and_revokes_the_old_key(provider, kc, tmp_path):
    sign_in(kc, provider)
    sign_in(kc, provider, "--profile", "work")
    old_id, old_key_file = store_id(kc), (kc.state_dir / "store.key").read_text()
    sessions = {p: open_session(kc, p) for p in ("default", "work")}
    assert key_serial(kc, old_id), "unlocked by the login that created the store"

    new = passphrase_file(tmp_path / "new-passphrase", "a new passphrase")
    r = kc("passphrase", "--new-key", "--passphrase-file", str(kc.passphrase_file), "--new-passphrase-file", str(new))
    assert r.returncode == 0, r
    assert ("The encrypted store has a new passphrase and a new data key (re-sealed the sessions of profiles 'default', "
            "'work'); the old key is revoked, and it stays unlocked until ") in r.stderr, r.stderr
    new_id = store_id(kc)
    assert new_id != old_id
    assert key_serial(kc, old_id) is None and key_serial(kc, new_id), "the old key revoked, the new one in its place"
    assert data_keys(kc) == [f"kcauth:data-key:{new_id}"]
    assert sorted(p.name for p in kc.state_dir.iterdir()) == ["default.sealed", "store.key", "store.lock", "work.sealed"]
    for profile, session in sessions.items():
        text = (kc.state_dir / f"{profile}.sealed").read_text()
        assert f"store {new_id}\n" in text
        assert open_session(kc, profile, "a new passphrase") == session, "the same session, re-sealed"
        # An old copy of store.key with the old passphrase no longer opens it.
        with pytest.raises(InvalidTag):
            open_sealed(text.replace(new_id, old_id), data_key(old_key_file))
        cold = kc("token", "--profile", profile, env=kc.cold)
        assert cold.returncode == 0 and cold.stdout.strip() == session["access_token"], cold

    assert kc("lock").returncode == 0
    assert kc("unlock", "--passphrase-file", str(kc.passphrase_file)).returncode == 5
    assert kc("unlock", "--passphrase-file", str(new)).returncode == 0

    # A locked store stays locked under its new key.
    assert kc("lock").returncode == 0
    again = kc("passphrase", "--new-key", "--passphrase-file", str(new), "--new-passphrase-file", str(new))
    assert again.returncode == 0 and "the old key is revoked, and it is locked: `kcauth unlock` opens it" in again.stderr, again
    assert data_keys(kc) == []


def test_a_new_key_with_a_damaged_session_changes_nothing(provider, kc, tmp_path):
    sign_in(kc, provider)
    sign_in(kc, provider, "--profile", "work")
    flip(kc.state_dir / "work.sealed", -10)
    before = {p.name: p.read_bytes() for p in kc.state_dir.iterdir()}
    serial = key_serial(kc)
    r = kc("passphrase", "--new-key", "--passphrase-file", str(kc.passphrase_file), "--new-passphrase-file", str(kc.passphrase_file))
    assert r.returncode == 5, r
    assert f"cannot re-seal {kc.state_dir / 'work.sealed'} under a new key: it " in r.stderr, r.stderr
    assert "nothing was changed" in r.stderr
    assert {p.name: p.read_bytes() for p in kc.state_dir.iterdir()} == before
    assert key_serial(kc) == serial, "still unlocked with the old key"


def strace(kc, inject, *args):
    """kcauth under strace(1), with a fault injected into its renames (rename(2), renameat(2),
    renameat2(2): whichever glibc uses): `inject` is strace's `signal=KILL:when=3`, say."""
    return subprocess.run([*kc.enter, "strace", "-f", "-qq", "-o", "/dev/null",
                           "-e", f"inject=rename,renameat,renameat2:{inject}", str(BINARY), *args],
                          env={**kc.env}, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def rotate_args(kc):
    return ("passphrase", "--new-key", "--passphrase-file", str(kc.passphrase_file), "--new-passphrase-file", str(kc.passphrase_file))


def test_a_new_key_killed_at_any_rename_leaves_the_old_store_or_the_new(provider, kc):
    # The real process, killed (SIGKILL, by strace on entry to the Nth rename) at each step
    # of the rotation in turn: after each, every profile's session opens under the key file that
    # is there, with the key file's own data key, for kcauth and for Python alike.
    sign_in(kc, provider)
    sign_in(kc, provider, "--profile", "work")
    assert kc("lock").returncode == 0
    sessions = {p: open_session(kc, p) for p in ("default", "work")}
    clean = ["default.sealed", "store.key", "store.lock", "work.sealed"]
    outcomes = []
    for when in range(1, 20):
        if sorted(p.name for p in kc.state_dir.iterdir()) != clean:
            # The next writer settles what a kill left (with renames of its own): so that the
            # Nth rename is the rotation's Nth, start each run from a settled store.
            assert kc(*rotate_args(kc)).returncode == 0
            assert sorted(p.name for p in kc.state_dir.iterdir()) == clean
        before = store_id(kc)
        r = strace(kc, f"signal=KILL:when={when}", *rotate_args(kc))
        if r.returncode == 0:
            break  # past the last rename: the rotation finished
        assert r.returncode in (-9, 137), r
        now = store_id(kc)
        outcomes.append("old" if now == before else "new")
        key = data_key((kc.state_dir / "store.key").read_text())
        for profile, session in sessions.items():
            sealed = (kc.state_dir / f"{profile}.sealed").read_text()
            pending = kc.state_dir / f"{profile}.sealed.next"
            if f"store {now}\n" not in sealed:  # committed, not yet renamed: the re-sealed copy is the session
                sealed = pending.read_text()
            assert f"store {now}\n" in sealed and open_sealed(sealed, key) == session, (when, profile)
            cold = kc("token", "--profile", profile, env={**kc.cold, "KCAUTH_PASSPHRASE_FILE": str(kc.passphrase_file)})
            assert cold.returncode == 0 and cold.stdout.strip() == session["access_token"], (when, cold)
    # Killed before the commit (the new key file's rename is the third rename after the two
    # sessions' and the commit the fourth) the store is the old one; from then on, the new one.
    assert outcomes == ["old", "old", "old", "old", "new", "new"], outcomes
    # The next writer settles what the last kill left, and a whole rotation leaves nothing over.
    assert kc(*rotate_args(kc)).returncode == 0
    assert sorted(p.name for p in kc.state_dir.iterdir()) == clean
    assert {p: open_session(kc, p) for p in sessions} == sessions


def test_a_new_key_whose_write_fails_changes_nothing(provider, kc):
    sign_in(kc, provider)
    sign_in(kc, provider, "--profile", "work")
    before = {p.name: p.read_bytes() for p in kc.state_dir.iterdir()}
    # The renames before the commit: the two re-sealed sessions and the new key file.
    for when in (1, 2, 3):
        r = strace(kc, f"error=EIO:when={when}", *rotate_args(kc))
        assert r.returncode == 5 and "Input/output error" in r.stderr, (when, r)
        assert {p.name: p.read_bytes() for p in kc.state_dir.iterdir()} == before, when
        assert key_serial(kc), "the old key is revoked only just before the commit"
    assert kc("token", "--profile", "work", env=kc.cold).returncode == 0


def test_moving_from_the_file_store_to_the_encrypted_store(provider, kc):
    assert kc(*login_args(provider, "--storage", "file")).returncode == 0
    plain = kc.state_dir / "default.json"
    assert plain.exists()
    r = kc("login", "--storage", "encrypted", "--passphrase-file", str(kc.passphrase_file), "--timeout", "30")
    assert r.returncode == 0, r
    assert "Moved profile 'default' to the encrypted store: removed its old copy from the file." in r.stderr
    assert not plain.exists() and (kc.state_dir / "default.sealed").exists()
    assert "storage = encrypted" in kc.config_file.read_text()


def test_two_logins_at_once_share_one_store(provider, kc):
    procs = [kc.popen(*login_args(provider, "--storage", "encrypted", "--profile", name, "--passphrase-file", str(kc.passphrase_file)),
                      stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for name in ("one", "two")]
    for p in procs:
        _, err = p.communicate(timeout=90)
        assert p.returncode == 0, (err, provider.server_log())
    assert open_session(kc, "one")["refresh_token"] and open_session(kc, "two")["refresh_token"]

    # Two unlocks at once: both succeed, and the keyring holds one key (add_key updates in place).
    unlocks = [kc.popen("unlock", "--passphrase-file", str(kc.passphrase_file), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE) for _ in range(2)]
    for p in unlocks:
        _, err = p.communicate(timeout=60)
        assert p.returncode == 0, err
    assert data_keys(kc) == [f"kcauth:data-key:{store_id(kc)}"], "one key (add_key updates in place)"
    assert kc("token", "--profile", "two", env=kc.cold).returncode == 0


SECCOMP_DENY = r"""
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
/* Like Docker's default profile: add_key, keyctl and request_key fail with EPERM. */
int main(int argc, char **argv) {
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_add_key, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_keyctl, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    };
    struct sock_fprog prog = { sizeof f / sizeof f[0], f };
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) return 99;
    execv(argv[1], argv + 1);
    return 98;
}
"""


def test_without_the_kernel_keyring_it_says_so_and_asks_each_time(provider, kc, tmp_path):
    sign_in(kc, provider)
    source = tmp_path / "deny.c"
    source.write_text(SECCOMP_DENY)
    deny = tmp_path / "deny-keyctl"
    subprocess.run(["cc", str(source), "-o", str(deny)], check=True)

    r = subprocess.run([*kc.enter, str(deny), str(BINARY), "unlock", "--passphrase-file", str(kc.passphrase_file)], env=kc.env,
                       capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=30)
    assert r.returncode == 5, r.stderr
    assert "the kernel keyring is unavailable" in r.stderr and "seccomp" in r.stderr, r.stderr

    # Each command reads the passphrase (here from the file) instead.
    t = subprocess.run([*kc.enter, str(deny), str(BINARY), "token"], env={**kc.env, **kc.cold, "KCAUTH_PASSPHRASE_FILE": str(kc.passphrase_file)},
                       capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=30)
    assert t.returncode == 0, t.stderr

    # On a terminal: it says so, then asks.
    term = Terminal(kc, "token", env=kc.cold, program=[str(deny)])
    answer(term, "Passphrase for the kcauth encrypted store: ", PASSPHRASE)
    code, out, seen = term.finish()
    seen = term.all_seen.decode(errors="replace") + seen
    assert "The kernel keyring is unavailable" in seen, seen
    assert code == 0 and out.strip(), seen


def test_login_without_a_secret_service_offers_the_encrypted_store_at_a_terminal(provider, kc):
    t = Terminal(kc, *login_args(provider))
    answer(t, "Use the encrypted store for profile 'default'? [Y/n] ", "y")
    answer(t, "New passphrase for the kcauth encrypted store: ", PASSPHRASE)
    answer(t, "Repeat the passphrase: ", PASSPHRASE)
    code, _, seen = t.finish()
    seen = t.all_seen.decode(errors="replace") + seen
    assert code == 0, seen
    assert "There is no keyring here (no D-Bus session bus" in seen
    assert "storage = encrypted" in kc.config_file.read_text()
    assert open_session(kc, "default")["refresh_token"]
    assert kc("token", env=kc.cold).returncode == 0, "unlocked by the login that created the store"

    # Without a terminal: exit 5, the stores that need no keyring named, nothing written.
    (kc.home.parent / "other").mkdir()
    other = PrivateKcauth(kc.home.parent / "other", kc.env, enter=kc.enter)
    r = other(*login_args(provider))
    assert r.returncode == 5, r
    assert "`kcauth login --storage encrypted`" in r.stderr and "`--storage file`" in r.stderr


def test_declining_the_offer_stores_nothing(provider, kc):
    t = Terminal(kc, *login_args(provider))
    answer(t, "Use the encrypted store for profile 'default'? [Y/n] ", "n")
    code, _, seen = t.finish()
    assert code == 5, seen
    assert not kc.state_dir.exists() and not kc.config_file.exists()


def test_a_login_with_a_passphrase_file_unlocks_the_store_it_creates(provider, kc):
    # The CI way in behaves like the terminal way: the job's next commands find the store open.
    r = sign_in(kc, provider)
    assert (f"Created the encrypted store {kc.state_dir / 'store.key'}, with the passphrase from {kc.passphrase_file}; "
            "it is unlocked until ") in r.stderr, r.stderr
    assert key_serial(kc), "the data key is in the kernel keyring"
    status = kc("status")
    assert status.returncode == 0 and "unlocked until" in status.stdout, status
    assert kc("whoami").returncode == 0
    cold = kc("token", env=kc.cold)
    assert cold.returncode == 0 and cold.stdout.strip() == open_session(kc, "default")["access_token"], cold
    # Only a login that creates the store unlocks it.
    assert kc("lock").returncode == 0
    assert sign_in(kc, provider, "--profile", "work", "--force").returncode == 0
    assert key_serial(kc) is None


def test_lock_revokes_every_data_key_whatever_the_files_say(provider, kc, tmp_path):
    sign_in(kc, provider)
    (tmp_path / "second").mkdir()
    second = PrivateKcauth(tmp_path / "second", kc.env, enter=kc.enter)  # a second store: another state directory
    second.passphrase_file = kc.passphrase_file
    sign_in(second, provider)
    stores = sorted([f"kcauth:data-key:{store_id(kc)}", f"kcauth:data-key:{store_id(second)}"])
    assert data_keys(kc) == stores
    other = keyctl(kc, "add", "user", "someone-else:key", "not kcauth's", "@u")
    assert other.returncode == 0, other

    # store.key moved away (a backup being restored, a half-done copy): lock still revokes.
    key_file = kc.state_dir / "store.key"
    kept = tmp_path / "store.key.kept"
    key_file.rename(kept)
    r = kc("lock")
    assert r.returncode == 0 and r.stderr == "The encrypted stores are locked (2 data keys revoked).\n", r
    assert data_keys(kc) == [] and keyctl(kc, "search", "@u", "user", "someone-else:key").returncode == 0
    kept.rename(key_file)
    cold = kc("token", env=kc.cold)
    assert cold.returncode == 5 and "is locked" in cold.stderr, "the key file back, the key is still gone"
    assert kc("lock").stderr == "The encrypted store was not unlocked.\n"

    # A state directory kcauth refuses to read does not stop it either.
    assert kc("unlock", "--passphrase-file", str(kc.passphrase_file)).returncode == 0
    kc.state_dir.chmod(0o777)
    try:
        assert kc("token", env=kc.cold).returncode == 5, "the directory is refused"
        r = kc("lock")
        assert r.returncode == 0 and r.stderr == "The encrypted store is locked.\n", r
    finally:
        kc.state_dir.chmod(0o700)
    assert data_keys(kc) == []


@pytest.mark.parametrize("kdf, refusal", [
    ("n=1048576 r=16 p=1", "asks scrypt for 2048 MiB of memory (128*r*N), more than the 1024 MiB kcauth allows"),
    ("n=1048576 r=8 p=2", "asks scrypt for N*r*p = 16777216, more work than the 8388608 kcauth allows"),
])
def test_a_key_file_asking_for_more_than_the_limits_is_refused_before_any_work(provider, kc, kdf, refusal):
    sign_in(kc, provider)
    assert kc("lock").returncode == 0
    key_file = kc.state_dir / "store.key"
    text = re.sub(r"n=\d+ r=\d+ p=\d+", kdf, key_file.read_text())
    key_file.write_text(text)
    for args in (("unlock", "--passphrase-file", str(kc.passphrase_file)), ("token",)):
        r = kc(*args, env={**kc.cold, "KCAUTH_PASSPHRASE_FILE": str(kc.passphrase_file)})
        assert r.returncode == 5 and f"{key_file} {refusal}" in r.stderr, r
        # Refused at once: scrypt at these parameters takes seconds and 1-2 GiB before the
        # passphrase could even be checked.
        assert r.seconds < 3, r
    assert key_file.read_text() == text, "never rewritten"
    doctor = kc("doctor").stdout
    assert f"FAIL  encrypted store key file: {key_file} {refusal}" in doctor, doctor


def test_a_new_passphrase_typed_at_a_terminal_has_at_least_8_characters(provider, kc, tmp_path):
    t = Terminal(kc, *login_args(provider, "--storage", "encrypted"))
    answer(t, "New passphrase for the kcauth encrypted store: ", "pässwör")  # 7 characters in 9 bytes
    t.expect("The passphrase has 7 characters; it needs at least 8, try again.")
    answer(t, "New passphrase for the kcauth encrypted store: ", "pässwört")  # 8 characters (NIST SP 800-63B)
    answer(t, "Repeat the passphrase: ", "pässwört")
    code, _, seen = t.finish()
    assert code == 0, t.all_seen + seen.encode()
    assert open_session(kc, "default", "pässwört")["refresh_token"]

    # A passphrase file is taken as it is, however short.
    short = passphrase_file(tmp_path / "short", "abc")
    r = kc("passphrase", "--new-passphrase-file", str(short), env={"KCAUTH_PASSPHRASE_FILE": str(passphrase_file(tmp_path / "p", "pässwört"))})
    assert r.returncode == 0, r
    assert kc("unlock", "--passphrase-file", str(short)).returncode == 0

    # `kcauth passphrase` at the terminal asks the same.
    p = Terminal(kc, "passphrase", "--passphrase-file", str(short))
    for attempt in range(3):
        answer(p, "New passphrase for the kcauth encrypted store: ", "short")
        p.expect("The passphrase has 5 characters; it needs at least 8, try again.")
    code, _, seen = p.finish()
    assert code == 3 and "no new passphrase was chosen; nothing was written" in seen, seen
    assert kc("unlock", "--passphrase-file", str(short)).returncode == 0, "unchanged"
