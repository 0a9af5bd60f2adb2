"""The encrypted store, end to end with the built binary: sessions sealed with
AES-256-GCM under a data key wrapped by scrypt, unlocked once into the real kernel user keyring
(inspected with Debian's `keyctl`), passphrases typed on a pseudo-terminal or read from a file,
and every kind of bad input: wrong passphrase, tampered, truncated and swapped files, a newer
format, a passphrase file others can read, and a kernel that refuses add_key (seccomp)."""

import base64
import hashlib
import json
import os
import pty
import re
import select
import stat
import subprocess
import time
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from kcauth import BINARY, Kcauth
from keyring import no_bus_env
from test_login_shortcuts import Terminal

PASSPHRASE = "correct horse battery staple"


def login_args(provider, *extra):
    return ("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", *extra)


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def b64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def store_id(kc):
    return re.search(r"^id (\w+)$", (kc.state_dir / "store.key").read_text(), re.M).group(1)


def key_serial(kc):
    """The data key's serial in the user keyring, or None (via `keyctl`, not kcauth)."""
    r = subprocess.run(["keyctl", "search", "@u", "user", f"kcauth:data-key:{store_id(kc)}"], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else None


def open_session(kc, profile, passphrase=PASSPHRASE):
    """Decrypts a session with Python's own scrypt and AES-GCM: the format is what docs/security.md says."""
    lines = (kc.state_dir / "store.key").read_text().splitlines(keepends=True)
    kdf = dict(p.split("=", 1) for p in lines[2].split()[2:])
    kek = hashlib.scrypt(passphrase.encode(), salt=b64(kdf["salt"]), n=int(kdf["n"]), r=int(kdf["r"]), p=int(kdf["p"]),
                         maxmem=(1 << 31) - 1, dklen=32)
    wrapped = b64(lines[3].split()[1])
    data_key = AESGCM(kek).decrypt(wrapped[:12], wrapped[12:], "".join(lines[:3]).encode())
    session = (kc.state_dir / f"{profile}.sealed").read_text().splitlines(keepends=True)
    sealed = b64(session[3].split()[1])
    return json.loads(AESGCM(data_key).decrypt(sealed[:12], sealed[12:], "".join(session[:3]).encode()))


@pytest.fixture
def kc(tmp_path, scripted_browser_env):
    """kcauth with no D-Bus session at all (no Secret Service), a passphrase file of mode 0600,
    and the store's keys removed from the user keyring afterwards."""
    kc = Kcauth(tmp_path, no_bus_env(tmp_path), dict(scripted_browser_env))
    kc.passphrase_file = tmp_path / "passphrase"
    kc.passphrase_file.write_text(PASSPHRASE + "\n")
    kc.passphrase_file.chmod(0o600)
    kc.cold = {"KCAUTH_TOKEN_CACHE": "off"}  # a read from the store, not the runtime cache
    yield kc
    if (kc.state_dir / "store.key").exists():
        while serial := key_serial(kc):
            subprocess.run(["keyctl", "unlink", serial, "@u"], capture_output=True)


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

    # Locked, no terminal: the store is not read, and the message says what to run.
    t = kc("token")
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
    assert key_serial(kc) is None
    u = kc("unlock", "--for", "1h", "--passphrase-file", str(kc.passphrase_file))
    assert u.returncode == 0, u
    assert "The encrypted store is unlocked until " in u.stderr
    serial = key_serial(kc)
    assert serial
    described = subprocess.run(["keyctl", "rdescribe", serial], capture_output=True, text=True).stdout.strip()
    assert described.split(";")[0] == "user" and described.endswith(f"kcauth:data-key:{store_id(kc)}")
    assert described.split(";")[3] == "3f2f0000", "possessor all, user view/read/write/search/setattr, nothing for others"

    # Another process, no terminal, in a fresh session keyring (it does not possess @u's keys
    # through its own session): user permission is enough.
    env = {**kc.env, **kc.cold}
    other = subprocess.run(["keyctl", "session", "-", str(BINARY), "token"], env=env, capture_output=True, text=True,
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
    saved_env = kc.env
    kc.env = {**kc.env, **kc.cold}
    once = Terminal(kc, "token")
    kc.env = saved_env
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
    procs = [subprocess.Popen([str(BINARY), *login_args(provider, "--storage", "encrypted", "--profile", name,
                                                        "--passphrase-file", str(kc.passphrase_file))],
                              env=kc.env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for name in ("one", "two")]
    for p in procs:
        _, err = p.communicate(timeout=90)
        assert p.returncode == 0, err
    assert open_session(kc, "one")["refresh_token"] and open_session(kc, "two")["refresh_token"]

    # Two unlocks at once: both succeed, and the keyring holds one key (add_key updates in place).
    unlocks = [subprocess.Popen([str(BINARY), "unlock", "--passphrase-file", str(kc.passphrase_file)], env=kc.env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    for p in unlocks:
        _, err = p.communicate(timeout=60)
        assert p.returncode == 0, err
    listing = subprocess.run(["keyctl", "show", "@u"], capture_output=True, text=True).stdout
    assert listing.count(f"kcauth:data-key:{store_id(kc)}") == 1, listing
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

    r = subprocess.run([str(deny), str(BINARY), "unlock", "--passphrase-file", str(kc.passphrase_file)], env=kc.env,
                       capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=30)
    assert r.returncode == 5, r.stderr
    assert "the kernel keyring is unavailable" in r.stderr and "seccomp" in r.stderr, r.stderr

    # Each command reads the passphrase (here from the file) instead.
    t = subprocess.run([str(deny), str(BINARY), "token"], env={**kc.env, **kc.cold, "KCAUTH_PASSPHRASE_FILE": str(kc.passphrase_file)},
                       capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=30)
    assert t.returncode == 0, t.stderr

    # On a terminal: it says so, then asks.
    term = Terminal(kc, "token")  # the helper runs BINARY; swap in the filtered one
    term.process.kill()
    term.process.wait()
    os.close(term.master)
    master, slave = pty.openpty()
    proc = subprocess.Popen([str(deny), str(BINARY), "token"], env={**kc.env, **kc.cold}, stdin=slave, stderr=slave,
                            stdout=subprocess.PIPE, close_fds=True)
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 20
    while b"Passphrase for the kcauth encrypted store: " not in seen and time.monotonic() < deadline:
        if select.select([master], [], [], 1)[0]:
            seen += os.read(master, 4096)
    os.write(master, PASSPHRASE.encode() + b"\n")
    out, _ = proc.communicate(timeout=30)
    os.close(master)
    assert b"The kernel keyring is unavailable" in seen, seen
    assert proc.returncode == 0 and out.strip()


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

    # Without a terminal: exit 5, the three stores named, nothing written.
    (kc.home.parent / "other").mkdir()
    other = Kcauth(kc.home.parent / "other", kc.env)
    r = other(*login_args(provider))
    assert r.returncode == 5, r
    assert "`--storage encrypted`" in r.stderr and "`--storage file`" in r.stderr and "`--storage memory`" in r.stderr


def test_declining_the_offer_stores_nothing(provider, kc):
    t = Terminal(kc, *login_args(provider))
    answer(t, "Use the encrypted store for profile 'default'? [Y/n] ", "n")
    code, _, seen = t.finish()
    assert code == 5, seen
    assert not kc.state_dir.exists() and not kc.config_file.exists()
