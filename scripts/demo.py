"""kcauth demo: start the local test provider on 127.0.0.1 and a private, unlocked gnome-keyring,
run a real `kcauth login` (the scripted user plays the browser, or your own browser with
--real-browser), then `kcauth token`, and show that the token verifies against the provider's keys.

Nothing of yours is touched: configuration and keyring live in a temporary directory that is
removed at the end, with every process this script started.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests" / "Integration"))

from keyring import KeyringSession  # noqa: E402
from provider import SCRIPTED_BROWSER, start_provider  # noqa: E402

import requests  # noqa: E402
from jwcrypto import jwk, jwt  # noqa: E402


def say(text):
    print(f"\033[1m==> {text}\033[0m" if sys.stdout.isatty() else f"==> {text}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--real-browser", action="store_true",
                        help="open your own browser (needs a desktop); sign in as alice / wonderland")
    parser.add_argument("--binary", default=str(REPO / ".build" / "debug" / "kcauth"))
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="kcauth-demo-"))
    provider = keyring = None
    try:
        say("Starting the local test provider (django-oauth-toolkit shaped like a Keycloak realm)")
        provider = start_provider()
        print(f"    issuer {provider.issuer}  (user alice / wonderland, public client 'kcauth')")

        say("Starting a private D-Bus session with an unlocked gnome-keyring")
        keyring = KeyringSession(work)

        env = {**keyring.env, "HOME": str(work / "home"), "XDG_CONFIG_HOME": str(work / "config")}
        (work / "home").mkdir()
        if args.real_browser:
            for name in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER"):
                if name in os.environ:
                    env[name] = os.environ[name]
            env.pop("SCRIPTED_RESULT", None)
        else:
            env["BROWSER"] = str(SCRIPTED_BROWSER)
            # Over SSH or in CI kcauth would choose the device flow, which the scripted $BROWSER
            # never sees: the demo shows the browser flow.
            for name in ("CI", "SSH_CONNECTION", "SSH_TTY", "KCAUTH_FLOW"):
                env.pop(name, None)

        cmd = [args.binary, "login", "--issuer", provider.issuer, "--client-id", "kcauth"]
        say("$ " + " ".join(["kcauth", *cmd[1:]]))
        login = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL)
        if login.returncode != 0:
            say(f"kcauth login failed with exit status {login.returncode}")
            return login.returncode

        say("$ kcauth token")
        token = subprocess.run([args.binary, "token"], env=env, capture_output=True, text=True)
        if token.returncode != 0:
            sys.stderr.write(token.stderr)
            return token.returncode
        value = token.stdout.strip()
        print(f"    {value[:48]}…  ({len(value)} characters)")

        keys = jwk.JWKSet.from_json(requests.get(provider.jwks_uri, timeout=5).text)
        claims = json.loads(jwt.JWT(jwt=value, key=keys).claims)
        say("The token verifies against the provider's JWKS; its claims:")
        for name in ("iss", "azp", "preferred_username", "scope", "exp"):
            print(f"    {name:20} {claims.get(name)}")

        say("$ secret-tool search profile default   (the item in the keyring)")
        items = keyring.secret_tool("search", "profile", "default")
        for line in items.stdout.splitlines() + items.stderr.splitlines():
            if line.startswith(("label", "schema", "attribute")):
                print("    " + line)
        say("Done. Everything the demo started is being stopped and removed.")
        return 0
    finally:
        if keyring:
            keyring.stop()
        if provider:
            provider.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
