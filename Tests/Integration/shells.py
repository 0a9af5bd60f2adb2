"""Completing a command line in the real shells, for test_completions.py: bash (with
bash-completion, and without it), zsh (compinit in an interactive shell on a pseudo-terminal)
and fish (`complete -C`). Each function returns the sorted candidates the shell offers.

The scripts are the ones the built binary prints (`kcauth completion SHELL`), installed the way
packages install them where the shell allows. Every process started here is stopped by its PID.
"""

import os
import pty
import select
import signal
import subprocess
import time
from pathlib import Path

BASH_COMPLETION = Path("/usr/share/bash-completion/bash_completion")


def script(shell, tmp_path, env):
    """The completion script the binary prints for `shell`, saved under the name that shell's
    loader expects."""
    name = {"bash": "kcauth", "zsh": "_kcauth", "fish": "kcauth.fish"}[shell]
    directory = tmp_path / f"user-{shell}" / "completions"
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    done = subprocess.run(["kcauth", "completion", shell], env=env, capture_output=True, text=True, timeout=30, check=True)
    path.write_text(done.stdout)
    return path


def bash_words(line):
    """COMP_WORDS as bash makes them: split on spaces, and `=` is a word of its own
    (COMP_WORDBREAKS); a trailing space starts an empty word."""
    words = []
    for word in line.split(" "):
        parts = word.split("=")
        for i, part in enumerate(parts):
            if i:
                words.append("=")
            if part or i == 0:
                words.append(part)
    return words


def complete_bash(line, tmp_path, env, with_bash_completion=True):
    """With bash-completion, the script is loaded the way an installed one is: on demand, from
    a `completions` directory (here $BASH_COMPLETION_USER_DIR's); without it, by `source`."""
    path = script("bash", tmp_path, env)
    if with_bash_completion:
        loader = f"source {BASH_COMPLETION}\n_completion_loader kcauth\n"
    else:
        loader = f"source {path}\n"
    program = loader + """
spec=$(complete -p kcauth) || exit 3
function=${spec#*-F }; function=${function%% *}
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
COMP_LINE=$LINE; COMP_POINT=${#COMP_LINE}
"$function" kcauth "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\\n' "${COMPREPLY[@]}"
"""
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", program, "bash", *bash_words(line)],
                          env={**env, "LINE": line, "BASH_COMPLETION_USER_DIR": str(path.parent.parent)},
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return sorted(w for w in done.stdout.split("\n") if w)


def complete_fish(line, tmp_path, env):
    """The script is autoloaded from a directory of $fish_complete_path, as an installed one is."""
    path = script("fish", tmp_path, env)
    quoted = line.replace("\\", "\\\\").replace("'", "\\'")
    program = f"set -p fish_complete_path {path.parent}; complete -C '{quoted}'"
    done = subprocess.run(["fish", "--no-config", "-c", program],
                          env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return sorted(entry.split("\t")[0] for entry in done.stdout.split("\n") if entry)


ZSHRC = r"""
fpath=({directory} $fpath)
autoload -Uz compinit && compinit -u -d {dump}
{source}
PROMPT='READY> '
LISTMAX=100000
# Capture what completion offers: every compadd that adds matches writes them to CAPTURE.
# -O, -A and -D only fill arrays for the completion functions' own use: passed through.
compadd() {{
  if (( ${{@[(I)-[OAD]]}} )); then
    builtin compadd "$@"
    return
  fi
  local -a __captured
  builtin compadd -A __captured "$@"
  (( $#__captured )) && print -rl -- $__captured >> {capture}
  builtin compadd "$@"
}}
_capture_done() {{ print -r -- '--done--' >> {capture}; }}
comppostfuncs=(_capture_done)
"""


def complete_zsh(line, tmp_path, env, sourced=False):
    """Types LINE and a Tab into an interactive zsh on a pseudo-terminal and returns what the
    completion system offered. The script is autoloaded from $fpath as `_kcauth` (as an
    installed one is), or, with `sourced`, loaded with `source` after compinit."""
    path = script("zsh", tmp_path, env)
    directory = path.parent
    if sourced:
        path = path.rename(tmp_path / "kcauth.zsh")
    zdotdir = tmp_path / "zdotdir"
    zdotdir.mkdir(exist_ok=True)
    capture = tmp_path / "zsh-capture"
    capture.unlink(missing_ok=True)
    (zdotdir / ".zshrc").write_text(ZSHRC.format(directory=directory, dump=tmp_path / "zcompdump", capture=capture,
                                                   source=f"source {path}" if sourced else ""))
    controller, terminal = pty.openpty()
    shell = subprocess.Popen(["zsh", "-i"], stdin=terminal, stdout=terminal, stderr=terminal, close_fds=True,
                             env={**env, "ZDOTDIR": str(zdotdir)}, start_new_session=True)
    os.close(terminal)
    try:
        screen = b""

        def read_until(done, seconds):
            nonlocal screen
            deadline = time.monotonic() + seconds
            while not done() and time.monotonic() < deadline:
                ready, _, _ = select.select([controller], [], [], 0.1)
                if ready:
                    try:
                        screen += os.read(controller, 65536)
                    except OSError:
                        break
            return done()

        assert read_until(lambda: b"READY> " in screen, 20), f"zsh did not start: {screen!r}"
        os.write(controller, line.encode() + b"\t")
        finished = read_until(lambda: capture.exists() and "--done--" in capture.read_text(), 20)
        assert finished, f"zsh did not complete {line!r}: {screen!r}"
        lines = capture.read_text().split("\n")
        return sorted(set(w for w in lines if w and w != "--done--"))
    finally:
        os.killpg(shell.pid, signal.SIGKILL)
        shell.wait(timeout=10)
        os.close(controller)


SHELLS = {
    "bash": complete_bash,
    "bash-without-bash-completion": lambda line, tmp_path, env: complete_bash(line, tmp_path, env, with_bash_completion=False),
    "zsh": complete_zsh,
    "zsh-sourced": lambda line, tmp_path, env: complete_zsh(line, tmp_path, env, sourced=True),
    "fish": complete_fish,
}
