"""The documentation says what the binary does (issue 14): checked against the built binary.

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
    return set(re.findall(r"^\s+(?:-\w, )?(--[a-z][a-z-]*)", text, re.M)) - {"--help"}


FLAGS = {c: flags_of(c) for c in COMMANDS}
GLOBAL = {"--help", "--version", "--profile"}


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
