"""Measures the `kcauth token` hot path (valid token, warm runtime cache, release build) side by side
with its peers, with hyperfine, and prints medians, ratios and peak memory (docs/performance.md).

Peers, all in one private D-Bus session with an unlocked gnome-keyring:
  oidc-token ACCOUNT     indigo-dc's oidc-agent (C): the token is held by a running oidc-agent and
                         fetched over a Unix socket. The account is created with `oidc-gen` through
                         the device flow (RFC 8628) against the local test provider, approved by the
                         scripted user.
  secret-tool lookup     libsecret -> D-Bus -> gnome-keyring, an item of the size of kcauth's session
  gh auth token          Debian's gh, a token in hosts.yml under a temporary GH_CONFIG_DIR
  /bin/true              the process-spawn floor

kcauth is measured as installed: stripped copies of the static front (`kcauth`) and the full program
(`kcauth-full`, beside it in the build) laid out as bin/kcauth and libexec/kcauth/kcauth-full in the
temp dir (--unstripped: the build's own files). `kcauth --version` is the hand-off's cost: the front
declines and execs the full program.

kcauth rows: `token` (-o raw), `-o header`, `-o json`, `-o env`, `-o exec-credential`,
`-o headers-json`, and `kcauth prompt` (default format, and every field): the same files read, so
the same cost or less is the goal. Flatness:
a second invocation per round times `kcauth token` with a one-profile configuration against
`kcauth token --profile p57` with 100 profiles (the file is swapped by a per-command hyperfine
--prepare, which is not timed).

Integrations: a third invocation per round times what kubectl, git and docker run, and `kcauth
exec`, with oidc-token and `kcauth token` again as the references of that invocation:
  kubectl                KUBERNETES_EXEC_INFO={"apiVersion":"client.authentication.k8s.io/v1",...}
                         kcauth token -o exec-credential
  git helper get         git-credential-kcauth get, stdin `protocol=https`, `host=HOST` (the default
                         profile's `hosts` lists HOST)
  docker helper get      docker-credential-kcauth get, stdin `https://HOST`
  kcauth exec            kcauth exec -- /bin/true
The helper names are symlinks to the front, as `make install` makes them. These rows need stdin or
one variable of their own, so every row of this invocation, the references too, is `sh -c 'exec
...'` under hyperfine -N: each pays the same start of sh (dash), which is not subtracted (hyperfine's
shell mode subtracts an estimate, which came out larger than oidc-token itself on this loaded
machine); the `/bin/true (sh)` row is that floor. Ratios are to the oidc-token of the same
invocation. Whatever the binaries do is measured: the front may serve a row itself or exec
kcauth-full.

Method (shared notes/performance.md §8): hyperfine -N (no shell), 5 warm-ups, N runs, every command
in one invocation so that all share the machine's state; R rounds, the order of the commands
rotated each round; the median of the per-round medians is reported with the spread. Ratios are
to oidc-token. Peak RSS from GNU time (`%M`), median of 15 runs. The machine is shared and loaded,
so instruction counts (valgrind --tool=callgrind, children followed, summed over the exec) are
printed too: they do not depend on the load (--no-callgrind skips them).

Everything started here (provider, D-Bus session with gnome-keyring, oidc-agent, oidc-gen) is
stopped by PID and the temp dir removed on exit, also on Ctrl-C or SIGTERM.
"""

import argparse
import json
import os
import platform
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests" / "Integration"))

from keyring import KeyringSession  # noqa: E402
from provider import SCRIPTED_BROWSER, scripted_user_command, start_provider  # noqa: E402

TOOLS = ("hyperfine", "secret-tool", "/usr/bin/time", "oidc-agent", "oidc-gen", "oidc-token", "gh")
PROFILES = 100
OIDC_ACCOUNT = "bench"
HELPER_HOST = "git.example.test"
EXEC_INFO = '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":false}}'


def run(cmd, env, **kw):
    return subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, **kw)


def peak_rss_kib(cmd, env, runs=15, stdin=None):
    values = []
    for _ in range(runs):
        r = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], env=env, capture_output=True, text=True, input=stdin)
        values.append(int(r.stderr.strip().splitlines()[-1]))
    return statistics.median(values)


def instructions(argv, env, work, stdin=None):
    """Instructions executed (callgrind Ir), summed over the process and whatever it execs."""
    out = work / "callgrind"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    r = subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes", f"--callgrind-out-file={out}/cg.%p", *argv],
                       env=env, capture_output=True, text=True, input=stdin)
    if r.returncode != 0:
        tail = " | ".join(line for line in r.stderr.strip().splitlines()[-3:])
        print(f"bench-token: no instruction count for {' '.join(argv)}: exit {r.returncode} under callgrind: {tail}",
              file=sys.stderr)
        return None
    total = 0
    for f in out.iterdir():
        m = re.search(r"^(?:summary|totals): (\d+)", f.read_text(errors="replace"), re.M)
        total += int(m.group(1)) if m else 0
    return total


def installed_layout(binary, work, strip):
    """bin/kcauth and libexec/kcauth/kcauth-full under `work`, stripped (as make install and the .deb
    ship them), or the build's own files with --unstripped."""
    full = binary.parent / "kcauth-full"
    if not full.exists():
        sys.exit(f"bench-token: {full} not found; `make release` builds it beside {binary.name}")
    if not strip:
        return binary
    (work / "bin").mkdir()
    (work / "libexec" / "kcauth").mkdir(parents=True)
    front, copy = work / "bin" / "kcauth", work / "libexec" / "kcauth" / "kcauth-full"
    for source, target in ((binary, front), (full, copy)):
        subprocess.run(["strip", "-o", str(target), str(source)], check=True)
        target.chmod(0o755)
    for d in (work / "bin", work / "libexec", work / "libexec" / "kcauth"):
        d.chmod(0o755)
    return front


def check(name, argv, env, stdin=None, output=True):
    """Every command must work before it is timed (hyperfine -N would time a failure too)."""
    r = subprocess.run(argv, env=env, capture_output=True, text=True, input=stdin)
    if r.returncode != 0 or (output and argv[0] != "/bin/true" and not r.stdout.strip()):
        raise RuntimeError(f"{name} failed ({r.returncode}): {r.stderr.strip()}")


class Integration:
    """A row of the integrations invocation: argv, its own variables and stdin, and the
    `exec ...` line hyperfine's shell runs (the stdin from a file written once)."""

    def __init__(self, work, key, argv, variables=None, stdin=None, output=True):
        self.argv, self.variables, self.stdin, self.output = argv, variables or {}, stdin, output
        words = [f"{k}={shlex.quote(v)}" for k, v in self.variables.items()] + ["exec"] + [shlex.quote(a) for a in argv]
        if stdin is not None:
            path = work / f"{key}.stdin"
            path.write_text(stdin)
            words += ["<", shlex.quote(str(path))]
        # One argument for hyperfine -N (which splits on shell words): sh -c '<line>'.
        self.shell = "sh -c " + shlex.quote(" ".join(words))

    def env(self, env):
        return {**env, **self.variables}


def hyperfine(work, runs, entries, env, medians):
    """One hyperfine invocation over (name, argv, prepare) entries; appends each median (ms).
    argv: a list of words, or one command line as a string."""
    out = work / "round.json"
    cmd = ["hyperfine", "-N", "--warmup", "5", "--runs", str(runs), "--export-json", str(out), "--style", "none"]
    for _, _, prepare in entries:
        if prepare:
            cmd += ["--prepare", prepare]
    for name, argv, _ in entries:
        cmd += ["-n", name, argv if isinstance(argv, str) else " ".join(argv)]
    run(cmd, env)
    for result in json.loads(out.read_text())["results"]:
        medians[result["command"]].append(result["median"] * 1000)


def machine():
    cpu = "unknown CPU"
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    mem = next((line.split()[1] for line in open("/proc/meminfo") if line.startswith("MemTotal")), "0")
    distro = next((line.split("=", 1)[1].strip().strip('"') for line in open("/etc/os-release")
                   if line.startswith("PRETTY_NAME=")), "Linux")
    return f"{distro}, kernel {platform.release()}, {cpu}, {os.cpu_count()} cores, {int(mem) // 1048576} GiB"


class OIDCAgent:
    """A private oidc-agent (socket in the work dir) with one account made by oidc-gen's device flow."""

    def __init__(self, work, env):
        self.pid = None
        self.gen = None
        self.env = {**env, "OIDC_CONFIG_DIR": str(work / "oidc-agent"), "OIDC_ENCRYPTION_PW": "bench-password"}
        out = run(["oidc-agent", f"--socket-path={work / 'oidc.sock'}", "--no-autoload", "--no-webserver",
                   "--no-scheme", "--json"], self.env).stdout
        info = json.loads(out)
        self.pid = int(info["dpid"])
        self.env["OIDC_SOCK"] = info["socket"]
        self.env["OIDCD_PID"] = str(self.pid)

    def generate(self, issuer):
        # A public client: oidc-gen needs the secret option, and an empty one sends none that matters.
        self.gen = subprocess.Popen(
            ["oidc-gen", OIDC_ACCOUNT, "--flow=device", f"--iss={issuer}", "--client-id=kcauth", "--client-secret=",
             "--scope=openid profile email", "--pw-env", "--no-url-call", "--confirm-default", "--prompt=none"],
            env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines = []
        reader = threading.Thread(target=lambda: lines.extend(self.gen.stdout), daemon=True)
        reader.start()
        deadline, approved = time.monotonic() + 60, False
        while self.gen.poll() is None and time.monotonic() < deadline:
            text = "".join(lines)
            url, code = re.search(r"^(https?://\S+/device)\s*$", text, re.M), re.search(r"enter the code: (\S+)", text)
            if url and code and not approved:
                # The person at the other device: the scripted user types the code and approves.
                run(scripted_user_command("device", url.group(1)), {**self.env, "SCRIPTED_USER_CODE": code.group(1)},
                    timeout=60)
                approved = True
            time.sleep(0.1)
        if self.gen.poll() is None:
            self.gen.kill()
        self.gen.wait()
        reader.join(timeout=5)
        if self.gen.returncode != 0:
            text = "\n".join(line for line in "".join(lines).splitlines() if "\x1b" not in line)
            raise RuntimeError(f"oidc-gen failed ({self.gen.returncode}):\n{text}")
        run(["oidc-token", OIDC_ACCOUNT], self.env)

    def stop(self):
        if self.gen and self.gen.poll() is None:
            self.gen.kill()
            self.gen.wait()
        if self.pid:
            try:
                os.kill(self.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            self.pid = None


def write_configs(config_dir, issuer):
    """One-profile and 100-profile configuration files. The 100 profiles p1..p100 follow the
    default profile; p57, in the middle, is the one signed in and asked for."""
    current = (config_dir / "config").read_text()
    # The credential helpers answer for HELPER_HOST with the default profile.
    current = re.sub(r"^\[default\]\n", f"[default]\nhosts = {HELPER_HOST}\n", current, count=1, flags=re.M)
    sections = {m.group(1): m.group(0) for m in re.finditer(r"^\[([^\]]+)\][^\[]*", current, re.M)}
    head = current[:current.index("[")]
    filler = "[p{}]\nissuer = " + issuer + "\nclient_id = kcauth\nscope = openid profile email\n\n"
    many_text = head + sections["default"] + "".join(
        sections["p57"] if i == 57 else filler.format(i) for i in range(1, PROFILES + 1))
    one, many = config_dir / "config.one", config_dir / "config.many"
    one.write_text(head + sections["default"])
    many.write_text(many_text)
    return one, many


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(REPO / ".build" / "release" / "kcauth"))
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--unstripped", action="store_true", help="time the build's files, not stripped copies")
    parser.add_argument("--no-callgrind", action="store_true", help="skip the instruction counts")
    args = parser.parse_args()
    missing = [t for t in TOOLS if not shutil.which(t)]
    if missing:
        sys.exit(f"bench-token: {', '.join(missing)} missing (scripts/install-deps installs them)")
    binary = Path(args.binary)
    if not binary.exists():
        sys.exit(f"bench-token: {binary} not found; run `make release` first")

    # SIGTERM/SIGHUP unwind through `finally` like Ctrl-C, so everything is stopped and removed.
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda *_: sys.exit(130))
    work = Path(tempfile.mkdtemp(prefix="kcauth-bench-"))
    provider = keyring = agent = None
    try:
        built = binary
        binary = installed_layout(binary, work, strip=not args.unstripped)
        provider = start_provider(access_token_lifetime=3600, device_pkce=False, device_interval=1)
        keyring = KeyringSession(work)
        (work / "home").mkdir()
        config_dir = work / "config" / "kcauth"
        env = {**keyring.env, "HOME": str(work / "home"), "XDG_CONFIG_HOME": str(work / "config"),
               "BROWSER": str(SCRIPTED_BROWSER), "SCRIPTED_RESULT": str(work / "scripted.json"),
               "SCRIPTED_PYTHON": sys.executable}
        env.pop("KCAUTH_PROFILE", None)
        env.pop("KCAUTH_TOKEN_CACHE", None)
        for profile in ("default", "p57"):
            (work / "scripted.json").unlink(missing_ok=True)
            run([str(binary), "login", "--profile", profile, "--issuer", provider.issuer, "--client-id", "kcauth",
                 "--timeout", "30"], env)
        one, many = write_configs(config_dir, provider.issuer)
        state = keyring.secret_tool("lookup", "profile", "default").stdout
        # The baseline item: the same secret size, in the same keyring, on the same bus.
        keyring.secret_tool("store", "--label", "bench", "bench", "baseline", input=state)

        agent = OIDCAgent(work, env)
        agent.generate(provider.issuer)
        gh_dir = work / "gh"
        gh_dir.mkdir()
        (gh_dir / "hosts.yml").write_text("github.com:\n    oauth_token: gho_" + "b" * 36 +
                                          "\n    user: bench\n    git_protocol: https\n")
        env = {**agent.env, "GH_CONFIG_DIR": str(gh_dir), "GH_NO_UPDATE_NOTIFIER": "1", "GH_PROMPT_DISABLED": "1"}
        for name in ("GH_TOKEN", "GITHUB_TOKEN", "GH_HOST", "GH_ENTERPRISE_TOKEN"):
            env.pop(name, None)

        k = str(binary)
        many_name = f"kcauth token --profile p57 ({PROFILES} profiles)"
        commands = {
            "/bin/true": ["/bin/true"],
            "oidc-token": ["oidc-token", OIDC_ACCOUNT],
            "kcauth token": [k, "token"],
            "kcauth token -o header": [k, "token", "-o", "header"],
            "kcauth token -o json": [k, "token", "-o", "json"],
            "kcauth token -o env": [k, "token", "-o", "env"],
            "kcauth token -o exec-credential": [k, "token", "-o", "exec-credential"],
            "kcauth token -o headers-json": [k, "token", "-o", "headers-json"],
            "kcauth prompt": [k, "prompt"],
            "kcauth prompt --format (every field)": [k, "prompt", "--format", "{profile}|{state}|{expires_in}|{user}|{summary}"],
            "kcauth --version (front, exec full)": [k, "--version"],
            "secret-tool lookup": ["secret-tool", "lookup", "bench", "baseline"],
            "gh auth token": ["gh", "auth", "token"],
        }
        # The integrations: git and docker find their helpers by name, symlinks to the front.
        links = work / "bin" if not args.unstripped else work / "links"
        links.mkdir(exist_ok=True)
        for helper in ("git-credential-kcauth", "docker-credential-kcauth"):
            (links / helper).symlink_to(binary)
        references = {"/bin/true (sh)": ["/bin/true"], "oidc-token (sh)": ["oidc-token", OIDC_ACCOUNT],
                      "kcauth token (sh)": [k, "token"]}
        integrations = {name: Integration(work, f"ref{i}", argv) for i, (name, argv) in enumerate(references.items())}
        integrations.update({
            "kubectl: kcauth token -o exec-credential": Integration(
                work, "kubectl", [k, "token", "-o", "exec-credential"], {"KUBERNETES_EXEC_INFO": EXEC_INFO}),
            "git-credential-kcauth get": Integration(
                work, "git", [str(links / "git-credential-kcauth"), "get"], stdin=f"protocol=https\nhost={HELPER_HOST}\n\n"),
            "docker-credential-kcauth get": Integration(
                work, "docker", [str(links / "docker-credential-kcauth"), "get"], stdin=f"https://{HELPER_HOST}\n"),
            "kcauth exec -- /bin/true": Integration(work, "exec", [k, "exec", "--", "/bin/true"], output=False),
        })
        config = config_dir / "config"
        # The flatness pair: the same binary with the one-profile and the 100-profile configuration,
        # swapped by hyperfine --prepare (not timed; kept out of the main table because the extra
        # shell and cp before each run disturb the caches).
        pair = {"kcauth token (1 profile)": ([k, "token"], f"cp {one} {config}"),
                many_name: ([k, "token", "--profile", "p57"], f"cp {many} {config}")}
        shutil.copyfile(many, config)
        check(many_name, pair[many_name][0], env)
        shutil.copyfile(one, config)
        for name, argv in commands.items():
            check(name, argv, env)
        for name, row in integrations.items():
            check(name, row.argv, row.env(env), stdin=row.stdin, output=row.output)
        names = list(commands) + list(pair)
        medians = {name: [] for name in names + list(integrations)}
        for round_ in range(args.rounds):
            shift = round_ % len(commands)
            order = list(commands)[shift:] + list(commands)[:shift]
            hyperfine(work, args.runs, [(name, commands[name], None) for name in order], env, medians)
            pair_order = list(pair) if round_ % 2 == 0 else list(pair)[::-1]
            hyperfine(work, args.runs, [(name, *pair[name]) for name in pair_order], env, medians)
            shutil.copyfile(one, config)
            shift = round_ % len(integrations)
            order = list(integrations)[shift:] + list(integrations)[:shift]
            hyperfine(work, args.runs, [(name, integrations[name].shell, None) for name in order], env, medians)

        rss = {}
        for name, argv in commands.items():
            rss[name] = peak_rss_kib(argv, env) / 1024
        shutil.copyfile(many, config)
        rss[many_name] = peak_rss_kib(pair[many_name][0], env) / 1024
        shutil.copyfile(one, config)
        rss["kcauth token (1 profile)"] = rss["kcauth token"]
        for name, row in integrations.items():
            rss[name] = peak_rss_kib(row.argv, row.env(env), stdin=row.stdin) / 1024

        base = statistics.median(medians["oidc-token"])
        base_rss = rss["secret-tool lookup"]
        print(f"kcauth token hot path vs peers: {args.rounds} rounds x {args.runs} runs (hyperfine -N), "
              f"median of per-round medians [per-round medians]")
        print(f"machine: {machine()}")
        full = binary.parent / "kcauth-full" if args.unstripped else work / "libexec" / "kcauth" / "kcauth-full"
        print(f"kcauth session secret {len(state)} bytes; {built} ({'unstripped' if args.unstripped else 'stripped copies'}: "
              f"front {binary.stat().st_size // 1024} KiB, kcauth-full {full.stat().st_size // 1024} KiB)\n")
        print(f"  {'command':44} {'median':>9}  {'vs oidc-token':>13}  {'peak RSS':>9}  {'vs secret-tool':>14}  per round")
        rows = []
        for name in names:
            m = statistics.median(medians[name])
            spread = ", ".join(f"{v:.2f}" for v in medians[name])
            print(f"  {name:44} {m:6.2f} ms  {m / base:12.2f}x  {rss[name]:5.1f} MiB  {rss[name] / base_rss:13.2f}x  [{spread}]")
            rows.append({"command": name, "median_ms": m, "rounds_ms": medians[name], "ratio_oidc_token": m / base,
                         "peak_rss_mib": rss[name]})
        base_integrations = statistics.median(medians["oidc-token (sh)"])
        print(f"\n  integrations (one hyperfine -N invocation, every row sh -c 'exec ...': the start of sh included in each;"
              f" ratios to its own oidc-token row)")
        for name, row in integrations.items():
            m = statistics.median(medians[name])
            spread = ", ".join(f"{v:.2f}" for v in medians[name])
            print(f"  {name:44} {m:6.2f} ms  {m / base_integrations:12.2f}x  {rss[name]:5.1f} MiB  "
                  f"{rss[name] / base_rss:13.2f}x  [{spread}]")
            rows.append({"command": name, "invocation": "integrations", "median_ms": m, "rounds_ms": medians[name],
                         "ratio_oidc_token": m / base_integrations, "peak_rss_mib": rss[name]})
        one_profile = statistics.median(medians["kcauth token (1 profile)"])
        many_profiles = statistics.median(medians[many_name])
        print(f"\n  {PROFILES} profiles / one profile (measured as a pair, with --prepare): {many_profiles / one_profile:.2f}x")
        counts = {}
        if not args.no_callgrind:
            for name in ("/bin/true", "oidc-token", "kcauth token", "kcauth token -o json", "kcauth token -o headers-json",
                         "kcauth prompt", "kcauth prompt --format (every field)", "kcauth --version (front, exec full)",
                         "secret-tool lookup"):
                counts[name] = instructions(commands[name], env, work)
            shutil.copyfile(many, config)
            counts[many_name] = instructions(pair[many_name][0], env, work)
            shutil.copyfile(one, config)
            # Only the kubectl row: under valgrind --trace-children an exec'ed program gets its file
            # name as argv[0], so kcauth-full no longer sees the helper names, and `exec`'s command
            # would be counted in place of kcauth (one pid, one output file).
            for name in ("kubectl: kcauth token -o exec-credential",):
                row = integrations[name]
                counts[name] = instructions(row.argv, row.env(env), work, stdin=row.stdin)
            print(f"\n  instructions (callgrind, children followed): " +
                  ", ".join(f"{name} {n / 1e6:.2f} M" if n is not None else f"{name} (failed under callgrind)"
                            for name, n in counts.items()))
        if args.json:
            Path(args.json).write_text(json.dumps({"machine": machine(), "rows": rows, "instructions": counts}, indent=2))
        return 0
    finally:
        if agent:
            agent.stop()
        if keyring:
            keyring.stop()
        if provider:
            provider.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
