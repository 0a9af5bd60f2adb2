"""The configuration file against real conditions (hostile input is refused, never trusted), with
the built binary: files that are not files (a device, a FIFO), huge files, Windows line endings and
a BOM, dotfile managers' symlinks, directories other users can write to, and values that try to
inject lines.

Every refusal is one line on stderr naming the file, exit 1 (a configuration error), in bounded
time, and the file is left exactly as it was."""

import os
import stat

import pytest

OWNER_TESTS = pytest.mark.skipif(os.geteuid() != 0, reason="chown to another user needs root")


def login(kcauth, provider, *extra):
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", *extra)
    assert r.returncode == 0, r
    return r


def write_config(kcauth, data: bytes):
    kcauth.config_file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    kcauth.config_file.write_bytes(data)


def assert_refused(r, path, reason):
    assert r.returncode == 1, r
    assert str(path) in r.stderr and reason in r.stderr, r
    assert r.stdout == "", r


# --- reading: only small regular files ------------------------------------------------------------


def test_a_device_as_config_is_refused_not_read_forever(kcauth):
    kcauth.config_file.parent.mkdir(parents=True, mode=0o700)
    kcauth.config_file.symlink_to("/dev/zero")

    r = kcauth("profiles", timeout=10)

    assert_refused(r, kcauth.config_file, "not a regular file")
    assert r.seconds < 5


def test_a_fifo_as_config_does_not_hang(kcauth):
    kcauth.config_file.parent.mkdir(parents=True, mode=0o700)
    os.mkfifo(kcauth.config_file, 0o600)

    r = kcauth("status", timeout=10)  # nobody ever writes to the FIFO: a blocking open would hang

    assert_refused(r, kcauth.config_file, "not a regular file")
    assert stat.S_ISFIFO(os.lstat(kcauth.config_file).st_mode), "left as it was"


def test_a_config_larger_than_one_mebibyte_is_refused(kcauth):
    data = b"[default]\nclient_id = kcauth\n" + b"# padding padding padding padding padding padding\n" * 25000
    assert len(data) > 1024 * 1024
    write_config(kcauth, data)

    r = kcauth("profiles", timeout=10)

    assert_refused(r, kcauth.config_file, "larger than")
    assert kcauth.config_file.read_bytes() == data


def test_a_config_that_is_not_utf8_is_refused_and_kept(kcauth):
    data = b"[default]\nclient_id = k\xffcauth\n"
    write_config(kcauth, data)

    r = kcauth("use", "default")

    assert_refused(r, kcauth.config_file, "UTF-8")
    assert kcauth.config_file.read_bytes() == data


def test_control_characters_in_the_file_are_refused_with_the_line(kcauth):
    data = b"[default]\nissuer = https://sso.example.com\nclient_id = kc\x1b[2Jauth\n"
    write_config(kcauth, data)

    r = kcauth("profiles")

    assert_refused(r, f"{kcauth.config_file}:3", "control character")
    assert "\x1b" not in r.stderr, "the escape sequence is not echoed to the terminal"
    assert kcauth.config_file.read_bytes() == data


# --- CRLF and BOM --------------------------------------------------------------------------------


def test_crlf_and_a_bom_are_accepted_and_kept_on_rewrite(provider, kcauth):
    text = f"# edited on Windows\r\n[default]\r\nissuer = {provider.issuer}\r\nclient_id = kcauth\r\n\r\n[work]\r\nclient_id = w\r\n"
    write_config(kcauth, b"\xef\xbb\xbf" + text.encode())

    listing = kcauth("profiles")
    assert listing.returncode == 0, listing
    assert provider.issuer + "\r" not in listing.stdout and provider.issuer in listing.stdout, listing

    r = kcauth("use", "work")
    assert r.returncode == 0, r
    data = kcauth.config_file.read_bytes()
    assert data.startswith(b"\xef\xbb\xbfdefault_profile = work\r\n# edited on Windows\r\n"), data
    assert data.count(b"\n") == data.count(b"\r\n"), "every line keeps its CRLF"
    assert kcauth("profiles", "--names").stdout == "default\nwork\n"


# --- writing: through symlinks, never injected ---------------------------------------------------


def test_a_symlinked_config_stays_a_symlink_after_use_and_login(provider, kcauth, tmp_path):
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir(mode=0o700)
    target = dotfiles / "kcauth.conf"
    target.write_text("# managed by my dotfiles\n[work]\nscope = openid\n")
    kcauth.config_file.parent.mkdir(parents=True, mode=0o700)
    kcauth.config_file.symlink_to(target)

    r = kcauth("use", "work")
    assert r.returncode == 0, r
    login(kcauth, provider)

    assert kcauth.config_file.is_symlink() and os.readlink(kcauth.config_file) == str(target)
    text = target.read_text()
    assert text.startswith("default_profile = work\n# managed by my dotfiles\n[work]\nscope = openid\n"), text
    assert f"issuer = {provider.issuer}" in text
    assert sorted(p.name for p in dotfiles.iterdir()) == ["kcauth.conf"], "no temporary file left behind"


def test_a_dangling_config_symlink_is_refused_on_write(kcauth, tmp_path):
    kcauth.config_file.parent.mkdir(parents=True, mode=0o700)
    kcauth.config_file.symlink_to(tmp_path / "nowhere" / "config")

    r = kcauth("use", "default")

    assert r.returncode == 1 and "symbolic link" in r.stderr and str(kcauth.config_file) in r.stderr, r
    assert kcauth.config_file.is_symlink() and not (tmp_path / "nowhere").exists()


def test_a_newline_in_a_value_never_reaches_the_file(provider, keyring, kcauth, tmp_path):
    login(kcauth, provider)
    before = kcauth.config_file.read_bytes()
    injected = f"{tmp_path}/ca.pem\n[evil]\nissuer = https://evil.example"

    r = kcauth("login", "--ca-file", injected, "--timeout", "30")
    assert r.returncode in (1, 2) and "control character" in r.stderr, r
    r = kcauth("login", "--timeout", "30", env={"KCAUTH_CA_FILE": injected})
    assert r.returncode in (1, 2) and "control character" in r.stderr, r

    assert kcauth.config_file.read_bytes() == before
    assert kcauth("profiles", "--names").stdout == "default\n"


# --- the directory and the file must be the user's ----------------------------------------------


def test_a_config_directory_others_can_write_to_is_refused(provider, kcauth):
    login(kcauth, provider)
    before = kcauth.config_file.read_bytes()
    os.chmod(kcauth.config_file.parent, 0o777)

    for args in (("profiles",), ("use", "default")):
        r = kcauth(*args)
        assert_refused(r, kcauth.config_file.parent, "writable by group or others")
        assert "chmod" in r.stderr
    assert kcauth.config_file.read_bytes() == before

    os.chmod(kcauth.config_file.parent, 0o755)  # readable by others is fine: nothing secret in it
    assert kcauth("profiles").returncode == 0


def test_a_config_file_others_can_write_to_is_refused(provider, kcauth):
    login(kcauth, provider)
    os.chmod(kcauth.config_file, 0o666)

    assert_refused(kcauth("profiles"), kcauth.config_file, "writable by group or others")


@OWNER_TESTS
def test_a_config_directory_of_another_user_is_refused(provider, kcauth):
    login(kcauth, provider)
    os.chown(kcauth.config_file.parent, 65534, 65534)

    assert_refused(kcauth("profiles"), kcauth.config_file.parent, "owned by uid 65534")


# --- no silent misconfiguration: keys kcauth does not read, lines in messages -------------------


def test_an_unknown_key_is_one_warning_line_on_use_and_the_front_says_it_too(provider, kcauth):
    login(kcauth, provider)
    assert kcauth("token").stderr == "", "a clean file: not a word"
    with kcauth.config_file.open("a") as f:
        f.write("\n[work]\nissuer = https://sso.example.com/realms/work\nclientid = cli\nhost = git.example.com\n")
    line = len(kcauth.config_file.read_text().splitlines()) - 1
    warning = (f"warning: {kcauth.config_file}:{line}: profile [work]: unknown key 'clientid' (did you mean 'client_id'?), "
               "ignored (and 1 more: `kcauth doctor` lists them)\n")

    # The warm token of another profile: the front hands the command to the full program, which says it.
    r = kcauth("token")
    assert r.returncode == 0 and r.stdout.count(".") == 2 and r.stderr == warning, r
    for args in (("profiles",), ("status",), ("whoami",)):
        r = kcauth(*args)
        assert r.stderr.startswith(warning), (args, r)
    assert kcauth("profiles", "--names").stdout == "default\nwork\n", "the key is ignored, the profile is not"


def test_a_profiles_key_before_the_first_section_is_said_where_it_belongs(kcauth):
    write_config(kcauth, b"issuer = https://sso.example.com/realms/demo\n[default]\nclient_id = kcauth\n")

    r = kcauth("profiles", "--names")

    assert r.returncode == 0 and r.stdout == "default\n", r
    assert r.stderr == (f"warning: {kcauth.config_file}:1: 'issuer' is a profile's key, ignored before the first "
                        "section: move it under a [profile] line\n")


def test_a_value_the_profile_refuses_names_its_line(kcauth):
    write_config(kcauth, b"# work\n[default]\nissuer = https://sso.example.com/realms/demo\n\nport = eighty\n")

    r = kcauth("token")

    assert_refused(r, f"{kcauth.config_file}:5: profile [default]: port 'eighty' is not a number", "")
