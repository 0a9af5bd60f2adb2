"""Measures `kcauth token` (valid token, release build) side by side with `secret-tool lookup`
of an item of the same size in the same unlocked gnome-keyring, with hyperfine, and prints the
medians, their ratio and peak memory.

Method (notes/performance.md §8): hyperfine -N (no shell), 5 warm-ups, N runs, both commands in
one invocation so they share the machine's state; three rounds; the median of the per-round
medians is reported with the spread. Peak RSS from GNU time, median of 15 runs.
"""

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests" / "Integration"))

from keyring import KeyringSession  # noqa: E402
from provider import SCRIPTED_BROWSER, start_provider  # noqa: E402


def run(cmd, env, **kw):
    return subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, **kw)


def peak_rss_kib(cmd, env, runs=15):
    values = []
    for _ in range(runs):
        r = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], env=env, capture_output=True, text=True)
        values.append(int(r.stderr.strip().splitlines()[-1]))
    return statistics.median(values)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(REPO / ".build" / "release" / "kcauth"))
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for tool in ("hyperfine", "secret-tool", "/usr/bin/time"):
        if not shutil.which(tool):
            sys.exit(f"bench-token: {tool} is missing (apt-get install hyperfine libsecret-tools time)")
    binary = Path(args.binary)
    if not binary.exists():
        sys.exit(f"bench-token: {binary} not found; run `swift build -c release` first")

    work = Path(tempfile.mkdtemp(prefix="kcauth-bench-"))
    provider = keyring = None
    try:
        provider = start_provider()
        keyring = KeyringSession(work)
        (work / "home").mkdir()
        env = {**keyring.env, "HOME": str(work / "home"), "XDG_CONFIG_HOME": str(work / "config"),
               "BROWSER": str(SCRIPTED_BROWSER), "SCRIPTED_RESULT": str(work / "scripted.json")}
        run([str(binary), "login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30"], env)
        state = keyring.secret_tool("lookup", "profile", "default").stdout
        # The baseline item: the same secret size, in the same keyring, on the same bus.
        keyring.secret_tool("store", "--label", "bench", "bench", "baseline", input=state)

        commands = {
            "secret-tool lookup": "secret-tool lookup bench baseline",
            "kcauth token": f"{binary} token",
            "kcauth token (no runtime cache)": f"{binary} token",
        }
        medians = {name: [] for name in commands}
        for _ in range(args.rounds):
            for name, cache in (("kcauth token", "on"), ("kcauth token (no runtime cache)", "off")):
                out = work / "round.json"
                run(["hyperfine", "-N", "--warmup", "5", "--runs", str(args.runs), "--export-json", str(out),
                     commands["secret-tool lookup"], commands[name]], {**env, "KCAUTH_TOKEN_CACHE": cache})
                results = json.loads(out.read_text())["results"]
                if name == "kcauth token":
                    medians["secret-tool lookup"].append(results[0]["median"] * 1000)
                medians[name].append(results[1]["median"] * 1000)

        print(f"kcauth token hot path: valid token, release build, {args.rounds} rounds x {args.runs} runs (hyperfine -N)")
        print(f"secret size {len(state)} bytes; median of per-round medians [per-round medians]\n")
        base = statistics.median(medians["secret-tool lookup"])
        for name, values in medians.items():
            m = statistics.median(values)
            spread = ", ".join(f"{v:.2f}" for v in values)
            print(f"  {name:34} {m:7.2f} ms  [{spread}]  ratio {m / base:.2f}")
        print()
        for name, cmd, cache in (("secret-tool lookup", ["secret-tool", "lookup", "bench", "baseline"], "on"),
                                 ("kcauth token", [str(binary), "token"], "on"),
                                 ("kcauth token (no runtime cache)", [str(binary), "token"], "off")):
            print(f"  peak RSS {name:25} {peak_rss_kib(cmd, {**env, 'KCAUTH_TOKEN_CACHE': cache}) / 1024:6.1f} MiB")
        return 0
    finally:
        if keyring:
            keyring.stop()
        if provider:
            provider.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
