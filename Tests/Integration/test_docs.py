"""The documentation says what the binary does: checked against the built binary.

- README and docs/*.md link only to files and headings that exist;
- every `kcauth COMMAND` they show is a command, every `--flag` in a `kcauth …` line or in a
  command's flag table is one that command (or kcauth itself) accepts, and every flag table in
  docs/commands.md lists exactly the flags of `kcauth help COMMAND`;
- every KCAUTH_* variable they name is one the man page documents;
- README's exit-status table is the binary's (`man kcauth`, EXIT STATUS);
- README's test command is what CI runs.
"""

import re
import subprocess
from pathlib import Path

import pytest

from kcauth import BINARY

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
