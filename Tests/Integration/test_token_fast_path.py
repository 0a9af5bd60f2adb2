"""The warm-cache `kcauth token` (Sources/KCAuthFastPath) against the real binary, provider and
keyring: it touches neither the network nor the keyring (nor loads their libraries), prints
exactly what the full program prints, and leaves every other case to the full program.

`KCAUTH_TOKEN_CACHE=on` makes the fast path step aside (it serves only when the variable is unset)
while the full program still uses the same cache: that is the comparison run."""

import json
import re

import pytest

FORMATS = ("raw", "header", "json", "env", "exec-credential", "headers-json")
LAZY_LIBRARIES = ("libsecret-1.so.0", "libcurl.so.4", "libcrypto.so.3", "libqrencode.so.4")
NO_BUS = {"DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/kcauth-test-bus"}


def login(kcauth, provider):
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30")
    assert r.returncode == 0, r


def stored_access_token(keyring):
    return json.loads(keyring.secret_tool("lookup", "profile", "default").stdout)["access_token"]


def loaded_libraries(stderr):
    return {soname for soname in LAZY_LIBRARIES if re.search(rf"calling init: \S*/{re.escape(soname)}\b", stderr)}


def test_a_warm_token_needs_no_network_no_keyring_and_loads_neither(provider, keyring, kcauth):
    login(kcauth, provider)
    token = stored_access_token(keyring)
    assert kcauth("token").stdout == token + "\n"   # the runtime cache is warm from here on
    before = len(provider.request_log())
    # No bus at all: a single keyring read would fail with exit 5.
    r = kcauth("token", env={**NO_BUS, "LD_DEBUG": "libs"})
    assert (r.returncode, r.stdout) == (0, token + "\n"), r
    assert loaded_libraries(r.stderr) == set(), r.stderr[-2000:]
    assert len(provider.request_log()) == before


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_fast_path_prints_what_the_full_program_prints(provider, keyring, kcauth, fmt):
    login(kcauth, provider)
    assert kcauth("token").returncode == 0
    fast = kcauth("token", "-o", fmt, env=NO_BUS)
    full = kcauth("token", "-o", fmt, env={**NO_BUS, "KCAUTH_TOKEN_CACHE": "on"})
    assert fast.returncode == full.returncode == 0, (fast, full)
    assert fast.stderr == full.stderr == ""
    if fmt == "json":
        a, b = json.loads(fast.stdout), json.loads(full.stdout)
        # expires_in counts down between the two runs; everything else is identical.
        assert isinstance(a.pop("expires_in"), int) and isinstance(b.pop("expires_in"), int)
        assert a == b and list(a) == list(b)
    else:
        assert fast.stdout == full.stdout


def test_cases_the_fast_path_does_not_serve_still_behave_as_before(provider, keyring, kcauth):
    login(kcauth, provider)
    assert kcauth("token").returncode == 0
    # The cache turned off: the keyring is read, and without a bus that is exit 5.
    r = kcauth("token", env={**NO_BUS, "KCAUTH_TOKEN_CACHE": "off"})
    assert r.returncode == 5 and r.stdout == "", r
    # --id-token never comes from the cache; --min-valid beyond the token's life refreshes.
    r = kcauth("token", "--id-token", env=NO_BUS)
    assert r.returncode == 5, r
    before = len(provider.token_requests("refresh_token"))
    r = kcauth("token", "--min-valid", "86400")
    assert r.returncode == 0 and r.stdout.count(".") == 2, r
    assert len(provider.token_requests("refresh_token")) == before + 1
    # A usage error is still the full parser's.
    r = kcauth("token", "-o", "yaml")
    assert r.returncode == 2 and r.stdout == "" and "yaml" in r.stderr, r
