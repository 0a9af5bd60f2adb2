"""The Debian package from scripts/build-deb: lintian, its metadata, its files, and that the binary
in it runs without the Swift toolchain.

Building it needs a release build (a minute or more on 2 cores) and the chroot needs root, so
these tests run under `make package-test` (KCAUTH_PACKAGE_TEST=1), and in `make test` only as root
(as in CI); elsewhere `make test` skips them. KCAUTH_DEB=path checks
an already built package instead; KCAUTH_SCRATCH is the SwiftPM scratch path of the release build.

Installing into a real clean Debian 12 would need a container or chroot; the nearest check here is
to extract the package and run its binary in a mount namespace in which /opt/swift (the toolchain)
is empty, with a bare environment, and to check with ldd that every library comes from /lib or
/usr/lib. scripts/deb-chroot-test does the full `apt-get install ./kcauth_*.deb` in a debootstrapped
Debian 12 (KCAUTH_CHROOT_TEST=1 runs it from here).
"""

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SWIFT_TOOLCHAIN = "/opt/swift"

pytestmark = pytest.mark.skipif(
    not (os.environ.get("KCAUTH_PACKAGE_TEST") or os.environ.get("KCAUTH_DEB")),
    reason="builds a release binary: run `make package-test` (KCAUTH_PACKAGE_TEST=1)",
)

# The package, file by file: path -> mode as dpkg-deb -c shows it.
EXPECTED_FILES = {
    "./usr/bin/kcauth": "-rwxr-xr-x",
    "./usr/libexec/kcauth/kcauth-full": "-rwxr-xr-x",
    "./usr/bin/git-credential-kcauth -> kcauth": "lrwxrwxrwx",
    "./usr/bin/docker-credential-kcauth -> kcauth": "lrwxrwxrwx",
    "./usr/share/man/man1/kcauth.1.gz": "-rw-r--r--",
    "./usr/share/man/man1/git-credential-kcauth.1.gz -> kcauth.1.gz": "lrwxrwxrwx",
    "./usr/share/man/man1/docker-credential-kcauth.1.gz -> kcauth.1.gz": "lrwxrwxrwx",
    "./usr/share/bash-completion/completions/kcauth": "-rw-r--r--",
    "./usr/share/zsh/vendor-completions/_kcauth": "-rw-r--r--",
    "./usr/share/fish/vendor_completions.d/kcauth.fish": "-rw-r--r--",
    "./usr/share/doc/kcauth/copyright": "-rw-r--r--",
    "./usr/share/doc/kcauth/changelog.Debian.gz": "-rw-r--r--",
    "./usr/share/lintian/overrides/kcauth": "-rw-r--r--",
}
# libcurl and libsecret are loaded with dlopen (not NEEDED): build-deb adds them from the sonames the
# binary names. GLib comes with libsecret-1-0.
REQUIRED_DEPENDS = ["libc6", "libsecret-1-0", "libssl3", "libcurl4", "libqrencode4", "zlib1g"]


def run(*args, **kwargs):
    kwargs.setdefault("capture_output", True)
    kwargs.setdefault("text", True)
    kwargs.setdefault("timeout", 120)
    return subprocess.run([str(a) for a in args], **kwargs)


def report(text):
    """Shown in the test output even when the test passes."""
    sys.stderr.write(text if text.endswith("\n") else text + "\n")


@pytest.fixture(scope="module")
def deb(tmp_path_factory):
    if os.environ.get("KCAUTH_DEB"):
        return Path(os.environ["KCAUTH_DEB"]).resolve()
    out = tmp_path_factory.mktemp("dist")
    scratch = os.environ.get("KCAUTH_SCRATCH", ".build")
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    start = time.monotonic()
    r = run(REPO / "scripts/build-deb", "--out", out, "--scratch-path", scratch, cwd=REPO, env=env, timeout=1800)
    assert r.returncode == 0, r.stderr[-4000:]
    built = Path(r.stdout.strip().splitlines()[-1])
    built = built if built.is_absolute() else REPO / built
    report(f"build-deb took {time.monotonic() - start:.0f} s: {built.name}, {built.stat().st_size} bytes")
    for line in r.stderr.splitlines():
        if line.startswith(("build-deb: Depends", "build-deb: usr/bin", "dpkg-shlibdeps: warning")):
            report(line)
    return built


@pytest.fixture(scope="module")
def extracted(deb, tmp_path_factory):
    root = tmp_path_factory.mktemp("root")
    r = run("dpkg-deb", "-x", deb, root)
    assert r.returncode == 0, r.stderr
    return root


@pytest.fixture(scope="module")
def fields(deb):
    r = run("dpkg-deb", "-f", deb)
    assert r.returncode == 0, r.stderr
    parsed, key = {}, None
    for line in r.stdout.splitlines():
        if line.startswith(" ") and key:
            parsed[key] += "\n" + line
        else:
            key, _, value = line.partition(":")
            parsed[key] = value.strip()
    return parsed


def source_version():
    text = (REPO / "Sources/KCAuthCLI/KCAuthMain.swift").read_text()
    return re.search(r'static let version = "([^"]+)"', text).group(1)


def test_lintian_reports_no_errors_and_no_warnings(deb):
    if not shutil.which("lintian"):
        pytest.fail("lintian is not installed (scripts/install-deps installs it)")
    r = run("lintian", "--info", "--display-info", "--pedantic", "--fail-on", "error,warning", deb, timeout=300)
    report("lintian:\n" + (r.stdout or "(no tags)\n") + r.stderr)
    assert r.returncode == 0, r.stdout + r.stderr
    assert not re.search(r"^[EW]: ", r.stdout, re.M)


def test_control_fields(deb, fields):
    arch = run("dpkg", "--print-architecture").stdout.strip()
    assert fields["Package"] == "kcauth"
    assert fields["Version"] == f"{source_version()}-1"
    assert fields["Architecture"] == arch
    assert deb.name == f"kcauth_{source_version()}-1_{arch}.deb"
    assert re.fullmatch(r".+ <[^@ ]+@[^@ ]+>", fields["Maintainer"])
    assert int(fields["Installed-Size"]) > 1000
    assert fields["Description"].startswith("sign in to Keycloak")
    depends = [d.strip() for d in fields["Depends"].split(",")]
    names = [d.split()[0] for d in depends]
    report(f"Depends: {fields['Depends']}")
    for want in REQUIRED_DEPENDS:
        assert want in names, f"Depends lacks {want}: {fields['Depends']}"
    assert all(re.fullmatch(r"[a-z0-9.+-]+( \(>= [^)]+\))?", d) for d in depends), depends
    assert not [n for n in names if "swift" in n or "foundation" in n]


def test_files_and_modes(deb):
    r = run("dpkg-deb", "-c", deb)
    assert r.returncode == 0, r.stderr
    files, dirs = {}, []
    for line in r.stdout.splitlines():
        perms, owner, _size, _date, _time, path = line.split(None, 5)
        assert owner == "root/root", line
        if perms.startswith("d"):
            dirs.append((perms, path))
        else:
            files[path] = perms
    assert files == EXPECTED_FILES
    assert all(perms == "drwxr-xr-x" for perms, _ in dirs), dirs


def test_documents_in_the_package_are_the_tree_s(extracted):
    import gzip

    man = extracted / "usr/share/man/man1/kcauth.1.gz"
    assert gzip.decompress(man.read_bytes()) == (REPO / "man/kcauth.1").read_bytes()
    assert man.read_bytes()[4:8] == b"\0\0\0\0", "gzip -n: no timestamp in the header"
    for source, target in [("completions/kcauth.bash", "usr/share/bash-completion/completions/kcauth"),
                           ("completions/_kcauth", "usr/share/zsh/vendor-completions/_kcauth"),
                           ("completions/kcauth.fish", "usr/share/fish/vendor_completions.d/kcauth.fish")]:
        assert (extracted / target).read_bytes() == (REPO / source).read_bytes(), target
    copyright = (extracted / "usr/share/doc/kcauth/copyright").read_text()
    assert copyright.startswith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/")
    assert "License: Apache-2.0" in copyright and "/usr/share/common-licenses/Apache-2.0" in copyright
    changelog = gzip.decompress((extracted / "usr/share/doc/kcauth/changelog.Debian.gz").read_bytes()).decode()
    assert changelog.startswith(f"kcauth ({source_version()}-1) ")


# The static front (/usr/bin/kcauth) and the full program it execs (docs/performance.md §4).
FRONT, FULL = "usr/bin/kcauth", "usr/libexec/kcauth/kcauth-full"


@pytest.mark.parametrize("path", [FRONT, FULL])
def test_both_programs_are_stripped(extracted, path):
    sections = run("readelf", "-S", "-W", extracted / path).stdout
    assert ".symtab" not in sections and ".debug_info" not in sections, path


def test_the_front_is_static(extracted):
    front = extracted / FRONT
    headers = run("readelf", "-l", "-d", "-W", front).stdout
    report(f"{FRONT}: {front.stat().st_size} bytes, static")
    assert "INTERP" not in headers and "(NEEDED)" not in headers, headers


def test_the_full_program_carries_no_toolchain_path(extracted):
    binary = extracted / FULL
    dynamic = run("objdump", "-p", binary).stdout
    needed = re.findall(r"^\s*NEEDED\s+(\S+)", dynamic, re.M)
    report(f"{FULL}: {binary.stat().st_size} bytes; NEEDED {' '.join(needed)}")
    assert "libc.so.6" in needed, needed
    assert not [n for n in needed if re.match(r"lib(swift|_?Foundation|dispatch|BlocksRuntime)", n)], needed
    for path in re.findall(r"^\s*(?:RUNPATH|RPATH)\s+(\S+)", dynamic, re.M):
        assert path == "$ORIGIN", f"library search path {path}"


def test_every_library_resolves_from_the_system(extracted):
    binary = extracted / FULL
    r = run("ldd", binary, env={"PATH": "/usr/bin:/bin"})
    assert r.returncode == 0, r.stderr
    report(f"ldd {FULL}:\n" + r.stdout)
    assert "not found" not in r.stdout
    for line in r.stdout.splitlines():
        m = re.match(r"\s*(\S+) => (\S+)", line)
        if m:
            assert m.group(2).startswith(("/lib/", "/usr/lib/", "/lib64/")), line
        assert SWIFT_TOOLCHAIN not in line and "libswift" not in line, line


def test_the_binary_runs_with_the_swift_toolchain_hidden(extracted):
    # The front, which finds ../libexec/kcauth/kcauth-full and execs it (--version is the full program's).
    binary = extracted / FRONT
    env = {"PATH": "/usr/bin:/bin", "HOME": str(extracted), "LANG": "C.UTF-8"}
    want = f"kcauth {source_version()}\n"
    r = run(binary, "--version", env=env)
    assert (r.returncode, r.stdout) == (0, want), r.stderr
    if not Path(SWIFT_TOOLCHAIN).is_dir():
        return
    # An empty tmpfs over the toolchain, in a private mount namespace: as on a machine without it.
    hidden = run("unshare", "--mount", "--", "sh", "-c",
                 f'mount -t tmpfs none {SWIFT_TOOLCHAIN} && ls -A {SWIFT_TOOLCHAIN} | wc -l '
                 f'&& "$0" --version && "$0" help >/dev/null && echo help-ok', binary, env=env)
    if hidden.returncode != 0 and "mount" in hidden.stderr and "permission" in hidden.stderr.lower():
        pytest.skip(f"no mount namespace here: {hidden.stderr.strip()}")
    assert hidden.returncode == 0, hidden.stderr
    assert hidden.stdout == f"0\n{want}help-ok\n"


def test_the_dlopened_libraries_load_from_the_system(extracted, tmp_path):
    """libsecret and libcurl are not NEEDED but loaded with dlopen on first use: a run that needs both
    (a keyring check on a bus that is not there, a login against a closed loopback port) loads them
    from /lib or /usr/lib. Run through the front: LD_DEBUG reaches the full program with the environment."""
    binary = extracted / FRONT
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LD_DEBUG": "libs"}
    doctor = run(binary, "doctor", env={**env, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"})
    login = run(binary, "login", "--issuer", "http://127.0.0.1:9/", "--client-id", "x", "--no-browser",
                "--storage", "memory", env=env)
    inits = re.findall(r"calling init: (\S+)", doctor.stderr + login.stderr)
    for soname in ("libsecret-1.so.0", "libcurl.so.4"):
        paths = [p for p in inits if p.endswith("/" + soname)]
        assert paths, f"kcauth never loaded {soname}"
        assert all(p.startswith(("/lib/", "/usr/lib/")) for p in paths), paths
    assert not [p for p in inits if SWIFT_TOOLCHAIN in p]


@pytest.mark.skipif(not os.environ.get("KCAUTH_CHROOT_TEST") or os.geteuid() != 0,
                    reason="KCAUTH_CHROOT_TEST=1 and root: debootstrap, chroot, the Debian mirror")
def test_apt_installs_it_on_a_clean_debian_12(deb):
    r = run(REPO / "scripts/deb-chroot-test", deb, timeout=900)
    report(r.stdout[-3000:] + r.stderr[-3000:])
    assert r.returncode == 0
    assert f"kcauth {source_version()}" in r.stdout
