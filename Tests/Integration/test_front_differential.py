"""The front (`kcauth`, static) and `kcauth-full` give one answer.

For generated combinations of arguments, environment, configuration file, cache file and
session mark — valid, invalid, absent and hostile — the shipped `kcauth` must print exactly what
`kcauth-full` prints for the same input: the same stdout, stderr and exit status, whether the
front answered from the cache itself or handed the command over. The full program is run under
the name the front was run by (argv[0]), as the front's hand-off runs it: `kcauth`, or a
credential helper's program name.

Besides `kcauth token`, every command the front serves warm is compared the same way: the git
and docker helpers (their actions, with requests on standard input) and `kcauth exec -- CMD`,
where CMD prints its arguments, environment and standard input, so that what the front hands a
command it starts is compared too. A copy of the front with no full program beside it tells
which cases the front answered itself: it either hands off (and says the full program is
missing) or prints exactly what the full program prints.

Both programs run against the same files; no keyring is reachable (a bus address that does not
exist), so whatever the cache cannot answer ends in the store's error, the same for both. The
seed is fixed (the cases are the same on every run); KCAUTH_DIFF_SEED and KCAUTH_DIFF_CASES
explore further.
"""

import os
import pwd
import random
import re
import shutil
import stat
import subprocess

import pytest

from kcauth import BINARY, FULL_BINARY

# This run's own issuer: session marks live by uid, named after profile, store, issuer and client
# (SessionMark.file), so another run of this test on the machine (another worktree's) never
# rewrites the marks of this one's cases between its two programs.
ISSUER = f"https://sso-{os.getpid()}.example.com/realms/demo"
CASES = int(os.environ.get("KCAUTH_DIFF_CASES", "400"))
SEED = int(os.environ.get("KCAUTH_DIFF_SEED", "17"))

PROFILE_LINES = [
    "grant = bogus", "grant = client_credentials", "hosts = ftp://x", "hosts = git.example.com, 127.0.0.1:8443",
    "client_auth_method = nonsense", "client_auth_method = client_secret_post", "flow = sideways", "flow = device",
    "storage = file", "storage = keyring", "storage = Keyring", "storage = memory", "port = 70000", "port = 8400", "port = +80",
    "issuer = https://again.example.com", "colour = blue", "browser_command = 'open", "browser_command = firefox %s",
    "username =", "username = oauth2", "ca_file = relative.pem", "ca_file = /etc/ssl/ca.pem", "scope = openid email",
    "client_secret_env = A", "client_key = /k.pem", "idp_hint = github", "# comment", "; comment", "not a setting",
    "client_id =", "issuer = http://127.evil.example.com/realms/x", "dpop = yes", "dpop = sometimes", "par = always",
    "par = maybe", "storage = encrypted", "sign_in_notification = off", "issuer = https://sso.example.com/realms/demo?x=1",
    "issuer = ftp://sso.example.com", "name = caf\u00e9", "acr_values = gold",
    # Keys kcauth does not read, in any section: the full program warns of them on every use.
    "clientid = cli", "host = git.example.com", "default_profile = work",
]
GLOBAL_LINES = ["default_profile = work", "default_profile = ../x", "default_profile =", "other = 1"]
ENVIRONMENT = {
    "KCAUTH_FLOW": ["sideways", "browser", "Device", ""],
    "KCAUTH_ISSUER": ["not-a-url", ISSUER, "https://other.example.com/realms/x", "http://127.0.0.1:1/realms/x"],
    "KCAUTH_PROFILE": ["work", "../x", "", "missing"],
    "KCAUTH_STORAGE": ["file", "bogus", "keyring", "memory"],
    "KCAUTH_TOKEN_CACHE": ["off", "on"],
    "KCAUTH_CLIENT_ID": ["cli", "other"],
    "KCAUTH_CA_FILE": ["relative.pem", "/etc/ssl/ca.pem", "/a\x01b"],
    "KUBERNETES_EXEC_INFO": ['{"apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":false}}',
                             '{"apiVersion":"client.authentication.k8s.io/v1beta1"}', "{", '{"apiVersion":"x/v9"}', "[]"],
    "KCAUTH_DPOP": ["yes", "bogus", "refresh-only"],
    "KCAUTH_PASSPHRASE_FILE": ["/nonexistent", "relative"],
    "KCAUTH_CLIENT_SECRET": ["s"],
    "KCAUTH_CLIENT_ASSERTION": ["a"],
    # A forwarded session (kcauth ssh): the front always hands off, the full program asks the socket.
    "LC_KCAUTH_FORWARD": ["/nonexistent/kcauth-forward/agent.sock", "relative.sock", ""],
}
ARGUMENTS = [
    ["token"], ["token", "-o", "header"], ["token", "-o", "json"], ["token", "-o", "env"], ["token", "-o", "curl"],
    ["token", "-o", "exec-credential"], ["token", "--profile", "work"], ["token", "--profile=default", "-o", "raw"],
    ["token", "--profile", "bad name"], ["token", "-o", "yaml"], ["token", "--min-valid", "60"], ["token", "--profile", "missing"],
    ["token", "-o", "headers-json"], ["token", "--output=headers-json", "--profile", "work"],
    # kcauth prompt: always a line and exit 0, but for its own usage errors.
    ["prompt"], ["prompt", "--format", "{profile}|{state}|{expires_in}|{user}|{summary}"], ["prompt", "--profile", "work"],
    ["prompt", "--profile=missing"], ["prompt", "--format", "{nope}"], ["prompt", "--profile", "bad name"],
    ["prompt", "--format", "{{{state}}}", "--profile", "default"], ["prompt", "--colour"],
]


def cache_record(rng, profile, session, issuer=ISSUER):
    """A cache file: the contract's schema (as kcauth writes it), or something else."""
    expires = rng.choices(["2099-01-01T00:00:00Z", "2001-01-01T00:00:00Z", "2099-13-01T00:00:00Z", None], [85, 5, 5, 5])[0]
    fields = {
        "access_token": rng.choices(["eyJ.a-b_c.d", "it's", 'q"uote', "ünï"], [85, 5, 5, 5])[0],
        "token_type": "Bearer",
        "scope": rng.choices(["openid email", 'a "quoted" scope'], [90, 10])[0],
        "issuer": rng.choices([issuer, "https://other.example.com/realms/x"], [92, 8])[0],
        "client_id": rng.choices(["cli", "other"], [92, 8])[0],
        "storage": rng.choices(["keyring", "file"], [92, 8])[0],
    }
    if expires:
        fields["expires_at"] = expires
    if rng.random() < 0.95:
        fields["session_id"] = session
    # What `kcauth prompt` reads besides (absent in records of older writers), hostile at times.
    if rng.random() < 0.7:
        fields["user"] = rng.choices(["alice", "$(id)`x`%F{red}\u001b[31m", "Jos\u00e9"], [80, 10, 10])[0]
        fields["renewal"] = rng.choices(["refresh_token", "client_credentials", "none", "forever"], [60, 15, 15, 10])[0]
        if rng.random() < 0.3:
            fields["renewal_expires_at"] = rng.choice(["2099-01-01T00:00:00Z", "2001-01-01T00:00:00Z", "soon"])
    import json
    text = json.dumps(fields, ensure_ascii=False, separators=(",", ":"))
    return rng.choice([text] * 20 + ["", "{}", text + "x", text.replace('"Bearer"', "1")])


class World:
    def __init__(self, root, rng, index):
        self.root = root / f"case{index}"
        self.rng = rng
        self.home = self.root / "home"
        self.config_dir = self.root / "config" / "kcauth"
        self.runtime = self.root / "run"
        for d in (self.home, self.config_dir, self.runtime / "kcauth"):
            d.mkdir(parents=True)
            os.chmod(d, 0o700)
        self.env = {"HOME": str(self.home), "XDG_CONFIG_HOME": str(self.root / "config"), "XDG_RUNTIME_DIR": str(self.runtime),
                    "XDG_STATE_HOME": str(self.root / "state"), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                    # No keyring: whatever the cache does not answer ends in the store's error.
                    "DBUS_SESSION_BUS_ADDRESS": f"unix:path={self.root}/no-bus"}

    def config(self, profiles):
        rng = self.rng
        lines = [rng.choice(GLOBAL_LINES)] if rng.random() < 0.3 else []
        for name in profiles:
            lines += [f"[{name}]", f"issuer = {ISSUER}", "client_id = cli"]
            if rng.random() < 0.4:
                lines += rng.sample(PROFILE_LINES, rng.randint(1, 2))
        text = "\n".join(lines) + "\n"
        if rng.random() < 0.1:
            text = text.replace("\n", "\r\n")
        if rng.random() < 0.05:
            text = "\ufeff" + text
        path = self.config_dir / "config"
        state = rng.choices(["file", "absent", "fifo", "0666", "dir0777", "link", "dev"], [82, 3, 3, 3, 3, 3, 3])[0]
        if state == "absent":
            return state
        if state == "fifo":
            os.mkfifo(path, 0o600)
            return state
        if state == "dev":
            os.symlink("/dev/zero", path)
            return state
        target = path if state != "link" else self.root / "dotfiles-config"
        target.write_text(text, encoding="utf-8")
        os.chmod(target, 0o666 if state == "0666" else 0o600)
        if state == "link":
            os.symlink(target, path)
        if state == "dir0777":
            os.chmod(self.config_dir, 0o777)
        return state


@pytest.fixture
def marks():
    """The session marks live by uid (shared by every environment): keep what was there."""
    shared = shared_directory()
    saved = {}
    for name in ("default", "work", "missing"):
        for storage in ("keyring", "file"):
            p = mark_file(shared, name, storage, ISSUER, "cli")
            saved[p] = open(p, "rb").read() if os.path.exists(p) else None
    os.makedirs(shared, mode=0o700, exist_ok=True)
    yield shared
    for p, content in saved.items():
        if content is None:
            if os.path.exists(p):
                os.unlink(p)
        else:
            with open(p, "wb") as f:
                f.write(content)


def mark_file(shared, profile, storage, issuer, client_id):
    """SessionMark.file: `<profile>.<FNV-1a 64 of storage NUL issuer NUL client_id>.session`."""
    h = 0xcbf29ce484222325
    for b in storage.encode() + b"\0" + issuer.encode() + b"\0" + client_id.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return os.path.join(shared, f"{profile}.{h:016x}.session")


def shared_directory():
    """ContractPaths.sharedDirectory: /run/user/UID when it is ours, else the passwd home's."""
    uid = os.geteuid()
    run = f"/run/user/{uid}"
    try:
        st = os.lstat(run)
        if stat.S_ISDIR(st.st_mode) and st.st_uid == uid and st.st_mode & 0o077 == 0:
            return run + "/kcauth-locks"
    except FileNotFoundError:
        pass
    return pwd.getpwuid(uid).pw_dir.rstrip("/") + "/.local/state/kcauth/locks"


def run(executable, argv, env, argv0="kcauth", stdin=None, cwd=None):
    return subprocess.run([argv0, *argv], executable=executable, env=env, capture_output=True, timeout=20,
                          input=stdin, stdin=subprocess.DEVNULL if stdin is None else None, cwd=cwd)


def test_the_front_and_the_full_program_answer_alike(tmp_path, marks):
    rng = random.Random(SEED)
    served = handed = 0
    for index in range(CASES):
        world = World(tmp_path, rng, index)
        profiles = ["default"] + (["work"] if rng.random() < 0.5 else [])
        world.config(profiles)
        session = "s-%d" % index
        for name, storage in [(n, s) for n in ("default", "work", "missing") for s in ("keyring", "file")]:
            mark = rng.choices([f"current {session}", f"ended {session}", "current other", None], [85, 5, 5, 5])[0]
            path = mark_file(marks, name, storage, ISSUER, "cli")
            if mark is None:
                if os.path.exists(path):
                    os.unlink(path)
            else:
                with open(path, "w") as f:
                    f.write(mark)
                os.chmod(path, 0o600)
        if rng.random() < 0.1:   # the store was locked when kcauth last needed it (kcauth prompt)
            note = world.runtime / "kcauth" / rng.choice(["keyring.locked", "file.locked"])
            note.write_text("")
            os.chmod(note, 0o600 if rng.random() < 0.9 else 0o644)
        for name in profiles:
            if rng.random() < 0.95:
                cache = world.runtime / "kcauth" / f"{name}.token"
                cache.write_text(cache_record(rng, name, session), encoding="utf-8")
                os.chmod(cache, 0o600 if rng.random() < 0.95 else 0o644)
        env = dict(world.env)
        for name in rng.sample(sorted(ENVIRONMENT), rng.choice([0, 0, 0, 1, 1, 2])):
            env[name] = rng.choice(ENVIRONMENT[name])
        if rng.random() < 0.05:
            env.pop("XDG_RUNTIME_DIR")
        argv = rng.choice(ARGUMENTS)

        front = run(BINARY, argv, env)
        full = run(FULL_BINARY, argv, env)
        described = f"case {index}: argv={argv} env={ {k: v for k, v in env.items() if k.startswith(('KCAUTH', 'KUBE'))} }"
        # The two runs are a few milliseconds apart: `expires_in` (whole seconds to the expiry) may
        # tick over between them; everything else must be byte for byte the same.
        same = lambda out: re.sub(rb'"expires_in": \d+', b'"expires_in": N', out)
        if argv[0] == "prompt":   # and `kcauth prompt`'s time left (`26331d19h`, `42m`) likewise
            same = lambda out: re.sub(rb"\b\d+[smhd](\d+[mh])?\b", b"T", out)
        assert (front.returncode, same(front.stdout), front.stderr) == (full.returncode, same(full.stdout), full.stderr), described
        if front.returncode == 0:
            served += 1
        else:
            handed += 1
        shutil.rmtree(world.root, ignore_errors=True)
    # The generator reaches both outcomes: tokens printed and refusals.
    assert served > CASES // 10 and handed > CASES // 10, (served, handed)


# The helpers and `exec`: argv[0] and arguments, and what the tool writes to standard input.
HELPERS = [
    ("git-credential-kcauth", ["get"]), ("kcauth", ["git-credential", "get"]), ("git-credential-kcauth", ["get", "--profile", "work"]),
    ("git-credential-kcauth", ["--profile=default", "get"]), ("git-credential-kcauth", ["store"]),
    ("git-credential-kcauth", ["erase"]), ("git-credential-kcauth", ["frobnicate"]), ("git-credential-kcauth", []),
    ("git-credential-kcauth", ["get", "extra"]), ("git-credential-kcauth", ["get", "--profile", "bad name"]),
    ("git-credential-kcauth", ["get", "--profile", "missing"]), ("git-credential-kcauth", ["get", "--profile", "work", "--profile", "work"]),
    ("docker-credential-kcauth", ["get"]), ("kcauth", ["docker-credential", "get"]), ("docker-credential-kcauth", ["--profile", "work", "get"]),
    ("docker-credential-kcauth", ["list"]), ("docker-credential-kcauth", ["store"]), ("docker-credential-kcauth", ["erase"]),
    ("docker-credential-kcauth", ["frobnicate"]), ("docker-credential-kcauth", []), ("docker-credential-kcauth", ["get", "-x"]),
]
GIT_INPUTS = [
    "protocol=https\nhost=git.example.com\n\n", "capability[]=authtype\nprotocol=https\nhost=git.example.com\n\n",
    "protocol=https\nhost=git.example.com\nusername=me\n\n", "protocol=https\nhost=git.example.com\nusername=\n\n",
    "protocol=https\nhost=work.example.com\npath=a/b.git\n\n", "protocol=http\nhost=127.0.0.1:8443\n\n",
    "protocol=http\nhost=git.example.com\n\n", "protocol=https\nhost=elsewhere.example.com\n\n",
    "protocol=https\nhost=git.example.com\nno equals sign\n\n", "protocol=https\r\nhost=git.example.com\r\n\r\n",
    "protocol=https\nhost=git.example.com\nusername=caf\u00e9\n\n", "protocol=https\nhost=git.example.com\npassword=old\n\n",
    "", "\n", "protocol=https\nhost=git.example.com\n", "host=git.example.com\n\n", "protocol=https\nhost=GIT.example.com\n\n",
    "protocol=https\nhost=git.example.com\n\nprotocol=https\nhost=elsewhere.example.com\n\n",
]
DOCKER_INPUTS = [
    "https://registry.example.com:5000\n", "registry.example.com:5000", "https://registry.example.com:5000/v2/\n",
    "git.example.com\n", "http://127.0.0.1:8443\n", "http://registry.example.com:5000\n", "user@registry.example.com:5000\n",
    "  registry.example.com:5000  \n", "", "r\u00e9gistry.example.com\n", "HTTPS://registry.example.com:5000\n",
    "https://work.example.com\n", 'registry.example.com:5000"\n',
]
# What CMD is run with; `show` prints its arguments, environment and standard input, and exits 3.
EXEC_ARGUMENTS = [
    ["exec", "--", "show", "a b", "-x"], ["exec", "--env", "MY_TOKEN", "--", "show"], ["exec", "--env=A", "--env", "B", "--", "show"],
    ["exec", "--profile", "work", "--", "show"], ["exec", "--profile=default", "--env", "T", "--", "show", "--", "x"],
    ["exec", "show", "plain"], ["exec", "--env", "PATH", "--", "show"], ["exec", "--env", "T=id", "--", "show"],
    ["exec", "--env", "1BAD", "--", "show"], ["exec", "--min-valid", "60", "--", "show"], ["exec", "--", "/no/such/command"],
    ["exec", "--", "./show"], ["exec"], ["exec", "--profile", "missing", "--", "show"], ["exec", "--", ""],
    ["exec", "--env", "KCAUTH_TOKEN", "--env", "KCAUTH_TOKEN", "--", "show"],
]
EXEC_INPUTS = ["", "line one\nline two\n", "no newline", "\u00fcml\u00e4ut\n"]
# `.kcauth-profile` in the directory the command runs in: absent, naming a profile, naming none, untrusted.
DIRECTORY_PROFILES = [None, None, None, "work", "default", "missing", "bad name", ("work", 0o666)]

SHOW = """#!/bin/sh
printf 'argv:'
for a in "$@"; do printf ' [%s]' "$a"; done
printf '\\nenvironment:\\n'
env | LC_ALL=C sort
printf 'stdin:\\n'
cat
exit 3
"""

HANDED_OFF = re.compile(rb"^error: the full kcauth program is missing \(looked for [^\n]*\); reinstall kcauth\n$")


def lone_front(directory):
    """A copy of the front with no full program beside it or in ../libexec: it can only answer
    itself or say that the full program is missing."""
    directory.mkdir(parents=True)
    directory.chmod(0o755)
    front = directory / "kcauth"
    shutil.copy(BINARY, front)
    front.chmod(0o755)
    return front


# The session marks are kept by uid, shared with every other run on this machine (other
# checkouts run this file too): this test's issuer is its own, so its marks are.
HELPER_ISSUER = f"https://sso.example.com/realms/differential-{os.getpid()}"


def helper_config(world, rng, profiles, warm):
    """A configuration whose profiles list hosts (so the helpers have something to answer); in a
    cold world now and then with a line the full program refuses, or none at all."""
    path = world.config_dir / "config"
    lines = [rng.choice(GLOBAL_LINES)] if not warm and rng.random() < 0.2 else []
    hosts = {"default": "git.example.com registry.example.com:5000 127.0.0.1:8443", "work": "work.example.com git.example.com"}
    for name in profiles:
        lines += [f"[{name}]", f"issuer = {HELPER_ISSUER}", "client_id = cli"]
        if warm or rng.random() < 0.9:
            lines.append(f"hosts = {hosts[name]}")
        if rng.random() < 0.3:
            lines.append("username = alice" if warm else rng.choice(["username = caf\u00e9", "username =", "hosts = ftp://x"]))
        if not warm and rng.random() < 0.3:
            lines += rng.sample(PROFILE_LINES, 1)
    if not warm and rng.random() < 0.05:
        return  # no configuration file at all
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.chmod(path, 0o666 if not warm and rng.random() < 0.05 else 0o600)


def warm_record(session):
    import json
    return json.dumps({"access_token": "eyJ.a-b_c.d", "token_type": "Bearer", "scope": "openid email", "issuer": HELPER_ISSUER,
                       "client_id": "cli", "storage": "keyring", "expires_at": "2099-01-01T00:00:00Z", "session_id": session})


@pytest.fixture
def helper_marks():
    """This test's own session marks (by its issuer), removed at the end."""
    shared = shared_directory()
    os.makedirs(shared, mode=0o700, exist_ok=True)
    yield shared
    for name in ("default", "work", "missing"):
        for storage in ("keyring", "file"):
            path = mark_file(shared, name, storage, HELPER_ISSUER, "cli")
            if os.path.exists(path):
                os.unlink(path)


def test_the_helpers_and_exec_answer_alike_from_the_front_and_the_full_program(tmp_path, helper_marks):
    marks = helper_marks
    rng = random.Random(SEED + 1)
    lone = lone_front(tmp_path / "lone" / "bin")
    served = {"git-credential": 0, "docker-credential": 0, "exec": 0}
    for index in range(CASES):
        world = World(tmp_path, rng, index)
        # A warm world (every file as kcauth writes it, a current session, no stray variables)
        # reaches the front's own answers; a cold one probes everything around them.
        warm = rng.random() < 0.4
        profiles = ["default"] + (["work"] if rng.random() < 0.6 else [])
        helper_config(world, rng, profiles, warm)
        session = "s-%d" % index
        for name, storage in [(n, s) for n in ("default", "work", "missing") for s in ("keyring", "file")]:
            mark = f"current {session}" if warm else rng.choice([f"current {session}", f"ended {session}", None])
            path = mark_file(marks, name, storage, HELPER_ISSUER, "cli")
            if mark is None:
                if os.path.exists(path):
                    os.unlink(path)
            else:
                with open(path, "w") as f:
                    f.write(mark)
                os.chmod(path, 0o600)
        for name in profiles:
            if warm or rng.random() < 0.95:
                cache = world.runtime / "kcauth" / f"{name}.token"
                cache.write_text(warm_record(session) if warm else cache_record(rng, name, session, HELPER_ISSUER), encoding="utf-8")
                os.chmod(cache, 0o644 if not warm and rng.random() < 0.05 else 0o600)
        # The command runs in a project directory, which may name a profile.
        cwd = world.root / "project"
        cwd.mkdir()
        chosen = rng.choice([None, None] + profiles if warm else DIRECTORY_PROFILES)
        if chosen is not None:
            text, mode = chosen if isinstance(chosen, tuple) else (chosen, 0o600)
            (cwd / ".kcauth-profile").write_text(text + "\n")
            os.chmod(cwd / ".kcauth-profile", mode)
        bindir = world.root / "bin"
        bindir.mkdir()
        (bindir / "show").write_text(SHOW)
        os.chmod(bindir / "show", 0o755)
        shutil.copy(bindir / "show", cwd / "show")
        os.chmod(cwd / "show", 0o755)
        env = dict(world.env, PATH=f"{bindir}:/usr/bin:/bin")
        for name in rng.sample(sorted(ENVIRONMENT), 0 if warm else rng.choice([0, 1, 1, 2])):
            env[name] = rng.choice(ENVIRONMENT[name])

        # Half the time the first (warm-servable) form of each list, so that the front's own
        # answers are reached often; the rest of the lists probe everything around them.
        pick = lambda options: options[0] if rng.random() < 0.5 else rng.choice(options)
        kind = rng.choices(["git", "docker", "exec"], [35, 35, 30])[0]
        if kind != "exec":
            forms = [h for h in HELPERS if (kind in h[0]) or h[1][:1] == [f"{kind}-credential"]]
            argv0, argv = pick(forms)
            stdin = pick(DOCKER_INPUTS if kind == "docker" else GIT_INPUTS).encode()
            command = f"{kind}-credential"
        else:
            argv0, argv = "kcauth", pick(EXEC_ARGUMENTS)
            stdin = rng.choice(EXEC_INPUTS).encode()
            command = "exec"

        front = run(BINARY, argv, env, argv0=argv0, stdin=stdin, cwd=cwd)
        full = run(FULL_BINARY, argv, env, argv0=argv0, stdin=stdin, cwd=cwd)
        alone = run(lone, argv, env, argv0=argv0, stdin=stdin, cwd=cwd)
        described = (f"case {index}: {argv0} {argv} stdin={stdin!r} .kcauth-profile={chosen!r} "
                     f"env={ {k: v for k, v in env.items() if k.startswith(('KCAUTH', 'KUBE', 'LC_'))} }")
        assert (front.returncode, front.stdout, front.stderr) == (full.returncode, full.stdout, full.stderr), described
        # The lone front either handed off (and found no full program) or answered as the full program does.
        if alone.returncode == 1 and alone.stdout == b"" and HANDED_OFF.match(alone.stderr):
            pass
        else:
            assert (alone.returncode, alone.stdout, alone.stderr) == (full.returncode, full.stdout, full.stderr), described
            served[command] += 1
        shutil.rmtree(world.root, ignore_errors=True)
    # The generator reaches the front's own answers for each kind, not only hand-offs.
    assert all(count > CASES // 25 for count in served.values()), served
