"""The documentation says what the binary does: checked against the built binary.

- README and docs/*.md link only to files and headings that exist;
- every `kcauth COMMAND` they show is a command, every `--flag` in a `kcauth …` line or in a
  command's flag table is one that command (or kcauth itself) accepts, and every flag table in
  docs/commands.md lists exactly the flags of `kcauth help COMMAND`;
- every KCAUTH_* variable they name is one the man page documents;
- README's exit-status table is the binary's (`man kcauth`, EXIT STATUS);
- README's test command is what CI runs;
- docs/security.md, "Where the locks, sockets and token files live", is where the binary really
  puts them (it signs in, refreshes, lends a socket and keeps a token file fresh, then looks),
  and every other place that names them (help, the man page, the other docs) says the same.
- docs/commands.md's "Already logged in" line, doctor's example (its `settings` and `helpers`
  lines, order, summary line and JSON keys) and `token -o json`'s keys are what the binary prints;
  docs/integrations.md's note that kubectl runs no exec plugin for an http cluster holds for the
  kubectl on this machine.
"""

import http.server
import json
import os
import re
import select
import shutil
import signal
import stat
import subprocess
import threading
import uuid
from pathlib import Path

import pytest

from kcauth import BINARY, remove_shared_files, shared_directory
from test_encrypted_store import user_keyring  # noqa: F401 (a fixture: a user keyring of the test's own)

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md"] + sorted((REPO / "docs").glob("*.md"))
MAN = (REPO / "man" / "kcauth.1").read_text()


def run(*args):
    return subprocess.run([str(BINARY), *args], capture_output=True, text=True, timeout=30)


def commands():
    text = run("help").stdout
    block = text.split("Commands:")[1].split("\n\n")[0]
    return [line.split()[0] for line in block.splitlines() if line.strip()]


COMMANDS = commands()


def flags_of(command):
    text = run("help", command).stdout
    # --help and --debug are every command's: the docs say so once, not in each table.
    return set(re.findall(r"^\s+(?:-\w, )?(--[a-z][a-z-]*)", text, re.M)) - {"--help", "--debug"}


FLAGS = {c: flags_of(c) for c in COMMANDS}
GLOBAL = {"--help", "--version", "--profile", "--debug"}


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def test_the_commands_are_known():
    assert {"login", "token", "refresh", "logout", "whoami", "status", "doctor", "exec"} <= set(COMMANDS)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_links_lead_somewhere(doc):
    for target in re.findall(r"\]\(([^)\s]+)\)", doc.read_text()):
        if re.match(r"^[a-z]+://", target):
            continue
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        assert file.exists(), f"{doc.name}: link to missing {target}"
        if anchor and file.suffix == ".md":
            headings = {slug(h) for h in re.findall(r"^#+ (.*)$", file.read_text(), re.M)}
            assert anchor in headings, f"{doc.name}: no heading #{anchor} in {file.name}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_command_line_shown_uses_real_commands_and_flags(doc):
    text = doc.read_text()
    for line in re.findall(r"(?:^|[`$(] ?)kcauth ((?:--profile \S+ )?[a-z][\w-]*[^`\n|]*)", text, re.M):
        words = line.split()
        if words[0] == "--profile":
            words = words[2:]
        command = words[0]
        if command not in COMMANDS:
            continue  # prose ("kcauth signs you in"), not a command line
        # Only the flags before `--` (exec's command) or a pipe belong to kcauth.
        own = []
        for w in words[1:]:
            if w in ("--", "|", "&&", "||", ";") or w.startswith(("|", ")")):
                break
            own.append(w)
        for flag in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", " ".join(own)):
            assert flag in FLAGS[command] | GLOBAL, f"{doc.name}: `kcauth {command}` has no {flag}: {line!r}"


def test_flag_tables_list_exactly_the_commands_flags():
    text = (REPO / "docs" / "commands.md").read_text()
    sections = re.split(r"^## ", text, flags=re.M)
    checked = 0
    for section in sections:
        m = re.match(r"`kcauth (\w[\w-]*)`", section)
        if not m or "| flag | meaning |" not in section:
            continue
        command = m.group(1)
        table = section.split("| flag | meaning |")[1].split("\n\n")[0]
        listed = set(re.findall(r"^\| `(--[a-z][a-z-]*)", table, re.M)) | set(re.findall(r"` / `(--[a-z][a-z-]*)", table))
        listed |= set(re.findall(r"^\| `--[a-z-]+ \S+ (--[a-z][a-z-]*)", table, re.M))
        listed |= set(re.findall(r"^\| `-\w`, `(--[a-z][a-z-]*)", table, re.M))
        assert listed == FLAGS[command], f"kcauth {command}: table {sorted(listed)} != help {sorted(FLAGS[command])}"
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_variable_named_is_documented_in_the_man_page(doc):
    # What `token -o env` prints is output, not a variable kcauth reads: the man page's
    # ENVIRONMENT lists only what kcauth reads (a unit test pins that).
    printed = {"KCAUTH_ID_TOKEN", "KCAUTH_EXPIRES_AT"}
    for name in set(re.findall(r"\b(KCAUTH_[A-Z_]+)\b", doc.read_text())) - printed:
        assert name in MAN, f"{doc.name} names {name}, which man/kcauth.1 does not document"


def test_readme_exit_codes_are_the_binarys():
    readme = (REPO / "README.md").read_text()
    table = dict(re.findall(r"^\| (\d+) \| ([^|]+) \|$", readme, re.M))
    section = MAN.split('.SH "EXIT STATUS"')[1].split(".SH ")[0]
    codes = set(re.findall(r"^\\fB(\d+)\\fR$", section, re.M))
    assert codes, "the man page lists exit codes"
    assert set(table) == codes, f"README {sorted(table)} vs man page {sorted(codes)}"


def test_readme_gives_the_test_command_ci_runs():
    readme = (REPO / "README.md").read_text()
    ci = (REPO / ".ci" / "run").read_text()
    assert "make test" in readme.split("## ")[0], "the test command is on README's first screen"
    assert re.search(r"^make test$", ci, re.M)


def man_section(name):
    heading = f'.SH "{name}"' if " " in name else f".SH {name}"
    return MAN.split(heading + "\n")[1].split("\n.SH ")[0]


def helper_links():
    """The names `make install` links to kcauth (Makefile HELPER_LINKS)."""
    makefile = (REPO / "Makefile").read_text()
    return re.search(r"^HELPER_LINKS = (.*)$", makefile, re.M).group(1).split()


@pytest.mark.parametrize("section", ["NAME", "SYNOPSIS", "FILES"])
def test_the_man_page_names_the_helper_programs_it_installs(section):
    # `man git-credential-kcauth` and whatis find the page only through NAME; SYNOPSIS and
    # FILES say how the installed names are run.
    text = man_section(section).replace("\\-", "-")
    for helper in helper_links():
        assert helper in text, f"man page {section} does not mention {helper}"


def sentences(text):
    flat = re.sub(r"\s+", " ", re.sub(r"^\.\S+ ?", "", text.replace("\\-", "-").replace("\\fB", "").replace("\\fR", ""), flags=re.M))
    return re.split(r"(?<=[.;])\s", flat)


@pytest.mark.parametrize("doc", DOCS + [REPO / "man" / "kcauth.1"], ids=lambda p: p.name)
def test_no_doc_says_a_token_goes_on_a_command_line(doc):
    # logout --browser starts the browser at a one-shot local address, so the ID token is never
    # in a process's arguments; a sentence saying otherwise is out of date.
    for sentence in sentences(doc.read_text()):
        if ("id_token_hint" in sentence or "ID token" in sentence) and "command line" in sentence:
            assert re.search(r"\b(not|never|no)\b.{0,30}command line", sentence), f"{doc.name}: {sentence!r}"


def help_texts():
    return {c: run("help", c).stdout for c in ("git-credential", "docker-credential")}


@pytest.mark.parametrize("source", ["help"] + [p.name for p in DOCS] + ["kcauth.1"])
def test_credential_helper_examples_are_scoped_to_one_url(source):
    # A helper for every URL hands its answer to any server git talks to: examples configure
    # `credential.<URL>.helper`, never the bare `credential.helper`.
    if source == "help":
        text = "\n".join(help_texts().values())
    elif source == "kcauth.1":
        text = MAN.replace("\\-", "-")
    else:
        text = (REPO / ("README.md" if source == "README.md" else f"docs/{source}")).read_text()
    assert not re.search(r"git config\s+(?:--\w+\s+)*credential\.helper\b", text), source


@pytest.mark.parametrize("doc", DOCS + [REPO / "man" / "kcauth.1"], ids=lambda p: p.name)
def test_no_doc_lets_a_helper_send_a_token_over_http_to_a_name(doc):
    # The helpers' loopback is numeric (127.0.0.0/8, ::1): a sentence about where a token goes
    # over http must not list localhost as "this machine" (an issuer is another rule).
    for sentence in sentences(doc.read_text()):
        if "token" in sentence and re.search(r"\bhttp\b", sentence) and "localhost" in sentence and "issuer" not in sentence:
            assert re.search(r"\b(not|never)\b[^.]*localhost", sentence), f"{doc.name}: {sentence!r}"


# --- Where the locks, sockets and token files live --------------------------------------------

WHERE = "Where the locks, sockets and token files live"
# How every place but the section itself names the shared directory (the section says so).
SHORT = "/run/user/UID/kcauth-locks, or ~/.local/state/kcauth/locks where /run/user/UID is not yours"


def where_section():
    text = (REPO / "docs" / "security.md").read_text()
    assert f"### {WHERE}\n" in text, "docs/security.md has the one description"
    return text.split(f"### {WHERE}\n")[1].split("\n#")[0]


def flat(text):
    """Text without Markdown code marks, roff font escapes and line breaks."""
    text = text.replace("\\-", "-").replace("\\fB", "").replace("\\fI", "").replace("\\fR", "").replace("`", "")
    return re.sub(r"\s+", " ", text)


def fnv(*parts):
    """FNV-1a 64 of the parts, a NUL between them, as 16 hex digits (the section's DIGEST and HASH)."""
    h = 0xcbf29ce484222325
    for b in b"\0".join(part.encode() for part in parts):
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def shared_rows():
    """The section's table: each name in the shared directory, and what the row says."""
    rows = re.findall(r"^\| `([^`]+)` \| (.*) \|$", where_section(), re.M)
    assert len(rows) >= 7, rows
    return dict(rows)


def name_pattern(name, **values):
    """A row's name as a regular expression: its placeholders replaced by `values` (exact) or
    by what they stand for."""
    pattern = re.escape(name.rstrip("/"))
    fill = {"STORE": "(keyring|file|encrypted)", "XXXXXX": "[A-Za-z0-9]{6}", "HASH": "[0-9a-f]{16}", "DIGEST": "[0-9a-f]{16}"}
    for placeholder, value in {**fill, **{k: re.escape(v) for k, v in values.items()}}.items():
        pattern = pattern.replace(placeholder, value)
    return re.compile(pattern)


def described(name, rows, **values):
    return [row for row in rows if name_pattern(row, **values).fullmatch(name)]


@pytest.fixture
def signed_in(kcauth, provider):
    """A profile of this run's (the shared directory is every test's) signed in with the file
    store; what the run left in the shared directory is removed after."""
    profile = "docs-" + uuid.uuid4().hex[:10]
    r = kcauth("login", "--profile", profile, "--issuer", provider.issuer, "--client-id", "kcauth", "--storage", "file",
               "--timeout", "30")
    assert r.returncode == 0, r
    yield profile
    remove_shared_files(profile)


def test_the_binary_keeps_its_locks_and_sockets_where_security_md_says(kcauth, provider, signed_in):
    profile, shared, rows = signed_in, shared_directory(), shared_rows()
    section = flat(where_section())
    assert SHORT in section, "the section gives the short form the other places use"
    digest = fnv("file", provider.issuer, "kcauth")   # DIGEST: store, issuer, client id
    values = {"PROFILE": profile, "DIGEST": digest, "STORE": "file", "HASH": fnv(str(kcauth.config_file))}

    assert kcauth("refresh", "--profile", profile).returncode == 0
    # A memory-only login of the profile leaves its note (the session stored before stays).
    r = kcauth("login", "--profile", profile, "--storage", "memory", "-o", "raw")
    assert r.returncode == 0, r

    # The laptop's forward socket: a fresh directory in the shared directory.
    agent = subprocess.Popen([str(BINARY), "forward-agent", "--profile", profile], env=kcauth.env,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([agent.stdout], [], [], 30)
        assert ready, "forward-agent printed its socket"
        socket = Path(agent.stdout.readline().strip())
        directory = socket.parent
        assert directory.parent == shared, socket
        row = described(directory.name, rows, **values)
        assert len(row) == 1 and row[0].endswith("/"), (directory.name, rows)
        assert socket.name == "agent.sock" and "`agent.sock`" in rows[row[0]]
        assert stat.S_ISSOCK(socket.stat().st_mode) and socket.stat().st_mode & 0o777 == 0o600
        assert directory.stat().st_mode & 0o777 == 0o700
        documented = set(re.findall(r"`([a-z.]+)`", rows[row[0]]))
        assert set(os.listdir(directory)) <= documented and "forward" in os.listdir(directory), os.listdir(directory)
    finally:
        agent.send_signal(signal.SIGTERM)
        agent.communicate(timeout=10)
    assert agent.returncode == 0 and not directory.exists(), "removed when the run ends"

    made = sorted(name for name in os.listdir(shared) if profile in name)
    for name in made:
        assert described(name, rows, **values), f"{name} in {shared} is not in docs/security.md's table"
    for row in ("PROFILE.DIGEST.refresh.lock", "STORE-PROFILE.lock", "PROFILE.DIGEST.signin.lock", "PROFILE.DIGEST.session",
                "PROFILE.HASH.memory"):
        assert row in rows and any(name_pattern(row, **values).fullmatch(name) for name in made), (row, made)
    assert (shared / f"{profile}.{digest}.session").read_text().startswith("current ")
    assert (shared / f"{profile}.{digest}.signin.lock").read_text().startswith("ended ")


def memory_backed(path):
    """On tmpfs or ramfs: the file system of the longest mount point above `path`."""
    real, best = os.path.realpath(path), ("", "")
    for line in Path("/proc/self/mounts").read_text().splitlines():
        point, kind = line.split()[1].replace("\\040", " "), line.split()[2]
        if (point == "/" or real == point or real.startswith(point + "/")) and len(point) >= len(best[0]):
            best = (point, kind)
    return best[1] in ("tmpfs", "ramfs")


def test_keep_fresh_keeps_its_token_file_where_security_md_says(kcauth, signed_in):
    section = flat(where_section())
    assert "token in a fresh 0700 directory kcauth-token-PID-XXXXXX in $XDG_RUNTIME_DIR, else in /run/user/UID" in section
    places = [kcauth.env.get("XDG_RUNTIME_DIR"), f"/run/user/{os.geteuid()}"]
    private = [p for p in places if p and os.path.isdir(p) and os.stat(p).st_uid == os.geteuid()
               and os.stat(p).st_mode & 0o077 == 0 and memory_backed(p)]
    place = private[0] if private else "/dev/shm"
    r = kcauth("exec", "--profile", signed_in, "--keep-fresh", "--", "sh", "-c",
               'echo "$KCAUTH_TOKEN_FILE"; stat -c %a "$(dirname "$KCAUTH_TOKEN_FILE")"')
    assert r.returncode == 0, r
    path, mode = r.stdout.split()
    assert re.fullmatch(re.escape(place) + r"/kcauth-token-\d+-[A-Za-z0-9]{6}/token", path), (path, place)
    assert mode == "700" and not os.path.exists(os.path.dirname(path)), "0700, and removed when COMMAND ends"


def where_texts():
    """Every text but the section that may say where the shared directory is: the docs (the
    section cut out of security.md), the man page, and help of every command."""
    texts = {doc.name: doc.read_text() for doc in DOCS}
    texts["security.md"] = texts["security.md"].replace(where_section(), "")
    texts["kcauth.1"] = MAN
    texts.update({f"help {c}": run("help", c).stdout for c in COMMANDS})
    return {name: flat(text) for name, text in texts.items()}


def test_every_other_place_names_the_shared_directory_the_same_way():
    said = 0
    for name, text in where_texts().items():
        for m in re.finditer(r"/run/user/UID/kcauth-locks", text):
            assert text[m.start():].startswith(SHORT), f"{name}: {text[max(0, m.start() - 80):m.end() + 120]!r}"
            said += 1
        # What earlier releases and other docs said, which the binary never did (or no longer does).
        # (The remote side of `kcauth ssh` is /tmp/kcauth-forward.*, which is right.)
        for stale in (r"/tmp/kcauth-(?!forward\.)", r"XDG_CACHE_HOME/kcauth", r"kcauth/PROFILE\.lock", r"keyring-<profile>\.lock",
                      r"signin-<profile>\.lock"):
            assert not re.search(stale, text), f"{name} says {stale}"
    assert said >= 5, "help, the man page, commands.md, integrations.md and performance.md say it"


def test_the_man_pages_files_name_what_the_section_names():
    files = flat(man_section("FILES"))
    assert SHORT in files
    for name in shared_rows():
        assert name in files, f"the man page's FILES does not name {name}"
    assert "$XDG_RUNTIME_DIR/kcauth-token-PID-XXXXXX/token" in files and "kcauth-token-PID-XXXXXX" in flat(where_section())


# --- statements of docs/commands.md and docs/integrations.md, held to the binary ----------------

COMMANDS_MD = (REPO / "docs" / "commands.md").read_text()


def one_line(text):
    return re.sub(r"\s+", " ", text)


def test_already_logged_in_is_documented_as_printed(provider, kcauth):
    args = ("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30")
    assert kcauth(*args).returncode == 0
    again = kcauth(*args)
    assert again.returncode == 0, again
    documented = re.search(r"`(Already logged in to ISSUER [^`]*)`", one_line(COMMANDS_MD)).group(1)
    pattern = (re.escape(documented).replace("ISSUER", re.escape(provider.issuer)).replace("TIME", r"\S+Z")
               .replace(re.escape("4m 59s"), r"\d+m \d+s"))
    assert re.fullmatch(pattern, again.stderr.strip()), (documented, again.stderr)


def doctor_section():
    return COMMANDS_MD.split("## `kcauth doctor`")[1].split("\n## ")[0]


def test_doctors_example_settings_helpers_and_summary_are_the_binarys(provider, kcauth):
    kcauth.config_file.parent.mkdir(parents=True, exist_ok=True)
    kcauth.config_file.write_text(f"[default]\nissuer = {provider.issuer}\nclient_id = cli\n"
                                  "hosts = git.example.com, registry.example.com:5000\n")
    section = doctor_section()
    example = re.search(r"^```\n((?:ok|FAIL|skip) .*?)```", section, re.M | re.S).group(1).splitlines()
    r = kcauth("doctor", "-o", "json")
    report = json.loads(r.stdout)
    checks = {c["title"]: c for c in report["checks"]}
    documented = {}
    for line in example[:-1]:
        status, rest = line[:6].strip(), line[6:]
        title, _, detail = rest.partition(": ")
        assert title in checks, f"docs/commands.md shows a doctor check '{title}' the binary does not have"
        documented[title] = detail
    # The same order as the binary's, and the checks this configuration makes word for word.
    assert [t for t in checks if t in documented] == list(documented)
    for title in ("settings", "git and docker helpers"):
        expected = documented[title].replace("https://sso.example.com/realms/demo", provider.issuer)
        assert checks[title]["detail"] == expected, (title, checks[title]["detail"], expected)
    # The summary line, and the keys of -o json.
    summary = re.fullmatch(r"(\d+) of (\d+) checks failed; fix them in the order shown\.", example[-1])
    assert summary and int(summary.group(2)) == len(example) - 1, example[-1]
    text = kcauth("doctor")
    assert text.returncode == 0 and text.stdout.splitlines()[-1] == "All checks passed.", text
    assert "`All checks passed.`" in section and "fix them in the order shown.`" in one_line(section)
    failing = kcauth("doctor", "--issuer", "http://127.0.0.1:9/realms/none")
    last = failing.stdout.splitlines()[-1]
    assert re.fullmatch(r"1 of \d+ checks failed; fix them in the order shown\.", last), last
    keys = re.search(r'`-o\s+json` prints `\{("[^`]*)\]\}`', section).group(1)
    top, _, inner = keys.partition(',"checks":[{')
    assert re.findall(r'"(\w+)"', top) + ["checks"] == list(report)
    assert re.findall(r'"(\w+)"', inner) == list(report["checks"][0])


def test_token_json_keys_are_documented_in_order(provider, kcauth):
    assert kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30").returncode == 0
    row = re.search(r"^\| `json` \| `\{([^}]*)\}`", COMMANDS_MD, re.M).group(1)
    printed = json.loads(kcauth("token", "-o", "json").stdout)
    assert re.findall(r'"(\w+)"', row) == list(printed)


def test_kubectl_runs_no_exec_plugin_for_an_http_cluster_as_documented(tmp_path):
    # docs/integrations.md's note for local testing, held to the kubectl on this machine.
    text = one_line((REPO / "docs" / "integrations.md").read_text())
    assert "kubectl runs exec plugins only for clusters whose `server` is `https://`" in text
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        pytest.skip("no kubectl on this machine")
    seen = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            seen.append(self.headers.get("Authorization"))
            body = b'{"kind":"APIVersions","versions":["v1"]}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        ran = tmp_path / "plugin-ran"
        plugin = tmp_path / "plugin"
        plugin.write_text(f"#!/bin/sh\ntouch {ran}\n"
                          "echo '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
                          "\"status\":{\"token\":\"t\"}}'\n")
        plugin.chmod(0o755)
        config = tmp_path / "kubeconfig"
        config.write_text(f"apiVersion: v1\nkind: Config\nclusters:\n- name: plain\n  cluster:\n"
                          f"    server: http://127.0.0.1:{server.server_port}\n"
                          "contexts:\n- name: c\n  context: {cluster: plain, user: u}\ncurrent-context: c\n"
                          f"users:\n- name: u\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n"
                          f"      command: {plugin}\n      interactiveMode: Never\n")
        r = subprocess.run([kubectl, "get", "--raw", "/api"], env={"KUBECONFIG": str(config), "HOME": str(tmp_path),
                                                                    "PATH": "/usr/bin:/bin"},
                           capture_output=True, text=True, timeout=60)
    finally:
        server.shutdown()
        server.server_close()
    assert r.returncode == 0, r
    assert seen and not ran.exists() and set(seen) == {None}, "kubectl sent no token and ran no plugin"


# --- the man page's statements, held to the binary -----------------------------------------------


def man_item(section, tag):
    """The text of a tagged paragraph (`.TP`, then `\\fBtag\\fR`) of a man page section."""
    body = man_section(section)
    return body.split(f".TP\n\\fB{tag}\\fR\n")[1].split("\n.TP\n")[0].split("\n.SH ")[0]


def literals(item):
    """The values a man page item sets in bold (`auto`), not its flags or variables."""
    words = re.findall(r"\\fB([^\\]+(?:\\-[^\\]+)*)\\fR", item)
    return [w.replace("\\-", "-") for w in words if not w.startswith("\\-") and not w.startswith("KCAUTH_")]


def config_check(kcauth, text):
    kcauth.config_file.parent.mkdir(parents=True, exist_ok=True)
    kcauth.config_file.write_text(text)
    r = kcauth("doctor", "-o", "json")
    return {c["id"]: c for c in json.loads(r.stdout)["checks"]}["config"]


@pytest.mark.parametrize("key", ["grant", "flow", "dpop", "par", "storage"])
def test_the_man_page_spells_each_value_as_the_parser_takes_it(kcauth, key):
    item = man_item("CONFIGURATION", key)
    values = [v for v in literals(item) if v not in ("login", "memory")]  # `login --dpop`; memory is never saved
    assert len(values) >= 2 or key == "grant", item
    for value in values:
        assert config_check(kcauth, f"[default]\n{key} = {value}\n")["status"] == "pass", (key, value)
    # The values as written and no others: the man page's first word, capitalised, is refused.
    capitalised = values[0][:1].upper() + values[0][1:]
    assert config_check(kcauth, f"[default]\n{key} = {capitalised}\n")["status"] == "fail", (key, capitalised)
    if key == "storage":
        assert {"keyring", "encrypted", "file"} <= set(values), item
        assert "memory" in literals(item), "memory is named, as a one-login choice"


def test_the_man_pages_profile_order_puts_kcauth_profile_where_the_binary_does(provider, kcauth, tmp_path):
    sentence = one_line(man_section("DESCRIPTION").replace("\\fB", "").replace("\\fR", "").replace("\\-", "-"))
    order = re.search(r"one profile: (.*?), else `?default`?\.", sentence.replace("`", "")).group(1)
    assert order.split(", else ") == ["--profile NAME", "KCAUTH_PROFILE",
                                      "the name in the nearest .kcauth-profile file (in the working directory or a parent of it; see FILES)",
                                      "the configuration file's default_profile (set with kcauth use)"], order
    kcauth.config_file.parent.mkdir(parents=True, exist_ok=True)
    kcauth.config_file.write_text("default_profile = home\n[home]\n[work]\n[env]\n[flag]\n")
    project = tmp_path / "project" / "sub"
    project.mkdir(parents=True)
    (tmp_path / "project" / ".kcauth-profile").write_text("work\n")

    def selected(*args, env=None):
        r = subprocess.run([str(BINARY), "status", "-o", "json", *args], cwd=project, env={**kcauth.env, **(env or {})},
                           capture_output=True, text=True, timeout=30)
        return json.loads(r.stdout)["selected_profile"]

    assert selected() == "work", ".kcauth-profile before default_profile"
    assert selected(env={"KCAUTH_PROFILE": "env"}) == "env", "KCAUTH_PROFILE before .kcauth-profile"
    assert selected("--profile", "flag", env={"KCAUTH_PROFILE": "env"}) == "flag"
    assert "\\fB.kcauth\\-profile\\fR" in man_section("FILES")


def test_the_encrypted_stores_files_are_where_the_man_page_says(provider, tmp_path, scripted_browser_env, user_keyring):
    from keyring import no_bus_env
    from test_encrypted_store import PrivateKcauth, passphrase_file

    files = man_section("FILES")
    tag = re.search(r"^\\fB(\$XDG_STATE_HOME/kcauth/store\.key)\\fR, \\fB(\$XDG_STATE_HOME/kcauth/PROFILE\.sealed)\\fR", files, re.M)
    assert tag, "FILES names the encrypted store's files"
    kc = PrivateKcauth(tmp_path, no_bus_env(tmp_path), dict(scripted_browser_env), enter=user_keyring)
    state = tmp_path / "state"
    kc.env["XDG_STATE_HOME"] = str(state)
    phrase = passphrase_file(tmp_path / "passphrase", "correct horse battery staple")
    r = kc("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", "--profile", "work",
           "--storage", "encrypted", "--passphrase-file", str(phrase))
    assert r.returncode == 0, r
    for documented in tag.groups():
        path = Path(documented.replace("$XDG_STATE_HOME", str(state)).replace("PROFILE", "work"))
        assert path.is_file() and path.stat().st_mode & 0o777 == 0o600, path
