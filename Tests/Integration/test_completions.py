"""Shell completion, driven through the real shells (shells.py): commands, every flag of each
command, the values of enumerated options, and profile names read at completion time.

The scripts are the ones the built binary prints (`kcauth completion SHELL`; a unit test keeps
the committed files in completions/ identical to them). The binary's directory comes first on
PATH, because the scripts run the `kcauth` on PATH to read profile names.
"""

import os
import re
import shutil
import subprocess

import pytest

from kcauth import BINARY
from shells import BASH_COMPLETION, SHELLS

PROFILES = ["work", "staging"]


@pytest.fixture
def env(tmp_path):
    """HOME and XDG_CONFIG_HOME in tmp_path, with a configuration file of two profiles, and
    the built kcauth first on PATH."""
    config = tmp_path / "config" / "kcauth" / "config"
    config.parent.mkdir(parents=True)
    config.write_text("".join(f"[{p}]\nissuer = https://sso.example.com/realms/{p}\nclient_id = cli\n\n" for p in PROFILES))
    home = tmp_path / "home"
    home.mkdir()
    environment = {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "PATH": f"{BINARY.parent}:{os.environ.get('PATH', '/usr/bin:/bin')}",
        "TERM": "xterm",
        "LANG": "C.UTF-8",
    }
    return environment


def help_commands(env):
    """The commands `kcauth --help` lists."""
    text = subprocess.run(["kcauth", "--help"], env=env, capture_output=True, text=True, timeout=30).stdout
    block = text.split("Commands:\n", 1)[1].split("\n\n", 1)[0]
    return sorted(line.split()[0] for line in block.split("\n") if line.startswith("  ") and not line.startswith("   "))


def help_flags(command, env):
    """The flags `kcauth COMMAND --help` lists: (long ones, short ones)."""
    text = subprocess.run(["kcauth", command, "--help"], env=env, capture_output=True, text=True, timeout=30).stdout
    block = text.split("Flags:\n", 1)[1].split("\n\n", 1)[0]
    long, short = [], []
    for match in re.finditer(r"^  (?:(-\w), |    )(--[\w-]+)", block, re.MULTILINE):
        long.append(match.group(2))
        if match.group(1):
            short.append(match.group(1))
    return sorted(long), sorted(short)


@pytest.fixture(params=list(SHELLS))
def complete(request, tmp_path, env):
    shell = request.param.split("-")[0]
    if shutil.which(shell) is None:
        pytest.fail(f"{shell} is not installed: run scripts/install-deps")
    if request.param == "bash" and not BASH_COMPLETION.exists():
        pytest.fail("bash-completion is not installed: run scripts/install-deps")
    return lambda line: SHELLS[request.param](line, tmp_path, env)


def test_commands(complete, env):
    assert complete("kcauth ") == help_commands(env)
    assert complete("kcauth to") == ["token"]
    assert complete("kcauth s") == ["setup-client", "ssh", "status"]


def test_hidden_commands_are_not_offered(complete):
    assert complete("kcauth __") == []


def test_top_level_flags(complete, env):
    assert complete("kcauth --") == ["--debug", "--help", "--profile", "--version"]
    # --debug takes no separate value: the command follows it.
    assert complete("kcauth --debug ") == help_commands(env)


def test_a_global_profile_before_the_command(complete, env):
    # `kcauth --profile work token`: the profile's value is a profile name, not the command.
    assert complete("kcauth --profile ") == sorted(PROFILES)
    assert complete("kcauth --profile w") == ["work"]
    assert complete("kcauth --profile work ") == help_commands(env)
    assert complete("kcauth --profile work to") == ["token"]
    assert complete("kcauth --profile work token --o") == ["--output"]
    assert complete("kcauth --profile work token -o ") == sorted(["raw", "header", "json", "env", "exec-credential", "curl", "headers-json"])
    assert complete("kcauth --profile=work token --min") == ["--min-valid"]


@pytest.mark.parametrize("command", ["login", "token", "refresh", "logout", "whoami", "status", "prompt", "profiles",
                                     "use", "exec", "ssh", "forward-agent", "kubeconfig", "git-credential", "docker-credential",
                                     "doctor", "setup-client", "completion", "help", "unlock", "lock", "passphrase"])
def test_every_flag_of_each_command_and_nothing_else(complete, env, command):
    long, _ = help_flags(command, env)
    assert complete(f"kcauth {command} --") == long


def test_every_command_in_help_is_tested(env):
    assert help_commands(env) == sorted(test_every_flag_of_each_command_and_nothing_else.pytestmark[0].args[1])


def test_a_flag_from_its_prefix(complete):
    assert complete("kcauth token --o") == ["--output"]
    assert complete("kcauth login --client-i") == ["--client-id"]


def test_values_of_enumerated_options(complete):
    formats = sorted(["raw", "header", "json", "env", "exec-credential", "curl", "headers-json"])
    assert complete("kcauth token -o ") == formats
    assert complete("kcauth token --output ") == formats
    assert complete("kcauth refresh --output e") == ["env", "exec-credential"]
    assert complete("kcauth token -o hea") == ["header", "headers-json"]
    assert complete("kcauth login --storage ") == ["encrypted", "file", "keyring", "memory"]
    assert complete("kcauth login --flow ") == ["auto", "browser", "device"]
    assert complete("kcauth whoami -o ") == ["json", "text"]
    assert complete("kcauth setup-client -o ") == ["json", "kcadm"]


def test_values_after_an_equals_sign(complete):
    # fish offers the whole word (`--output=raw`), bash and zsh the value.
    offered = [c.split("=", 1)[1] if c.startswith("--output=") else c for c in complete("kcauth token --output=")]
    assert offered == sorted(["raw", "header", "json", "env", "exec-credential", "curl", "headers-json"])
    offered = [c.split("=", 1)[1] if c.startswith("--storage=") else c for c in complete("kcauth login --storage=f")]
    assert offered == ["file"]


def test_file_names_for_the_ca_file(complete, tmp_path):
    (tmp_path / "ca").mkdir()
    (tmp_path / "ca" / "bundle.pem").write_text("")
    offered = complete(f"kcauth login --ca-file {tmp_path}/ca/bu")
    assert len(offered) == 1 and offered[0].endswith("bundle.pem")


def test_shells_of_the_completion_command(complete):
    assert complete("kcauth completion ") == ["bash", "fish", "zsh"]
    assert complete("kcauth completion z") == ["zsh"]


def test_profile_names_come_from_the_configuration_file(complete):
    assert complete("kcauth token --profile ") == sorted(PROFILES)
    assert complete("kcauth logout --profile w") == ["work"]
    assert complete("kcauth use ") == sorted(PROFILES)
    assert complete("kcauth use st") == ["staging"]


def test_commands_for_help(complete, env):
    assert complete("kcauth help ") == help_commands(env)
    assert complete("kcauth help lo") == ["lock", "login", "logout"]


def test_free_text_values_offer_nothing(complete):
    assert complete("kcauth login --issuer ") == []
    assert complete("kcauth token --min-valid ") == []


def test_an_argument_is_offered_once(complete):
    assert not set(complete("kcauth use work ")) & set(PROFILES)
