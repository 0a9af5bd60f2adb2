"""Cold read from the unlocked encrypted store against `secret-tool lookup`: the encrypted
store must not be slower than the keyring it replaces.

One private D-Bus session with an unlocked gnome-keyring holds an item of the size of a kcauth
session (what `secret-tool lookup` reads); a profile on `--storage encrypted` signed in against the
local test provider, its store unlocked into the kernel keyring. Measured with hyperfine -N:

  kcauth token (cache off)  KCAUTH_TOKEN_CACHE=off: the front hands off to kcauth-full, which finds
                            the data key in the kernel keyring, reads and opens the sealed session
                            (AES-256-GCM), and prints the still-valid access token; no network
  secret-tool lookup        libsecret -> D-Bus -> gnome-keyring
  /bin/true                 the process-spawn floor

Everything started here is stopped by PID, the kernel key revoked, the temp dir removed.
Usage: scripts/bench-encrypted-store [--runs N] (KCAUTH_BIN: the kcauth to measure).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests" / "Integration"))

from kcauth import BINARY, Kcauth  # noqa: E402
from keyring import KeyringSession  # noqa: E402
from provider import ScriptedBrowserEnv, start_provider  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-encrypted-") as tmp:
        tmp = Path(tmp)
        provider = start_provider()
        try:
            with KeyringSession(tmp) as keyring:
                kc = Kcauth(tmp, keyring.env, dict(ScriptedBrowserEnv(tmp / "result.json")))
                passphrase = tmp / "passphrase"
                passphrase.write_text("benchmark passphrase\n")
                passphrase.chmod(0o600)
                login = kc("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--storage", "encrypted",
                           "--passphrase-file", str(passphrase))
                assert login.returncode == 0, login
                assert kc("unlock", "--for", "10m", "--passphrase-file", str(passphrase)).returncode == 0
                size = len((kc.state_dir / "default.sealed").read_text())
                keyring.secret_tool("store", "--label", "bench", "profile", "bench", input="x" * size)
                env = {**kc.env, "KCAUTH_TOKEN_CACHE": "off"}
                assert kc("token", env={"KCAUTH_TOKEN_CACHE": "off"}).returncode == 0
                out = tmp / "hyperfine.json"
                subprocess.run(["hyperfine", "-N", "--warmup", "5", "--runs", str(args.runs), "--export-json", str(out),
                                "-n", "kcauth token (cache off, encrypted)", f"{BINARY} token",
                                "-n", "secret-tool lookup", "secret-tool lookup profile bench",
                                "-n", "/bin/true", "/bin/true"],
                               env=env, check=True, stdout=subprocess.DEVNULL)
                results = {r["command"]: r["median"] for r in json.loads(out.read_text())["results"]}
                base = results["secret-tool lookup"]
                for name, median in results.items():
                    print(f"{name:40} {median * 1000:7.2f} ms  {median / base:5.2f}x secret-tool")
                kc("lock")
        finally:
            provider.stop()


if __name__ == "__main__":
    main()
