"""Numbers from the provider never crash kcauth.

`expires_in`, `refresh_expires_in`, the device code's `expires_in`/`interval` and the ID token's
`exp`/`iat`/`auth_time` arrive huge, negative, non-finite, as strings or as something else. kcauth
must never trap (a signal instead of an exit code, no message): a bad value is a provider error
(exit 1, one line naming the field), a huge one is clamped, a numeric string is accepted. On a
refresh the rotated refresh token is kept whatever follows, so with reuse protection the next
refresh still works.
"""

import json
import time

import pytest

from test_device import Background, login_args, scripted_user

# What a trap looks like to subprocess: killed by a signal (negative), or a shell's 128+N.
SIGNAL_EXITS = {132, 133, 134, 135, 136, 139}


def assert_no_trap(r):
    code = r.returncode if hasattr(r, "returncode") else r
    assert code >= 0 and code not in SIGNAL_EXITS, f"kcauth died from a signal: {r!r}"


def login(kcauth, provider):
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30")
    assert r.returncode == 0, r


def stored_state(keyring):
    r = keyring.secret_tool("lookup", "profile", "default")
    return json.loads(r.stdout) if r.returncode == 0 and r.stdout else None


# --- refresh answers ----------------------------------------------------------------------------

REFRESH_CASES = [
    # (overrides of the first refresh answer, expected exit, a word the error must name)
    ({"expires_in": 1e308}, 0, None),
    ({"refresh_expires_in": 1e308}, 0, None),
    ({"expires_in": "300"}, 0, None),
    ({"refresh_expires_in": "1800"}, 0, None),
    ({"expires_in": -1}, 1, "expires_in"),
    ({"refresh_expires_in": -5}, 1, "refresh_expires_in"),
    ({"expires_in": "nan"}, 1, "expires_in"),
    ({"expires_in": "1e999"}, 1, "expires_in"),
    ({"expires_in": {"seconds": 300}}, 1, "expires_in"),
    ({"refresh_expires_in": [1, 2]}, 1, "refresh_expires_in"),
]


@pytest.mark.parametrize("overrides,exit_code,field", REFRESH_CASES,
                         ids=[json.dumps(c[0]) for c in REFRESH_CASES])
def test_absurd_numbers_in_a_refresh_answer_never_trap_and_the_rotated_refresh_token_is_kept(
        start_provider, keyring, kcauth, overrides, exit_code, field):
    # Reuse protection: had the rotated refresh token been lost, the next refresh would replay the
    # old one and the provider would end the whole session (invalid_grant, exit 4).
    provider = start_provider(reuse_protection=True, token_overrides=[overrides])
    login(kcauth, provider)
    before = stored_state(keyring)

    r = kcauth("refresh")
    assert_no_trap(r)
    assert r.returncode == exit_code, r
    if exit_code:
        assert r.stdout == "" and r.stderr.count("\n") <= 2 and field in r.stderr, r
    after = stored_state(keyring)
    assert after is not None, "the session was not deleted"
    assert after["refresh_token"] != before["refresh_token"], "the rotated refresh token was stored"

    again = kcauth("refresh")  # an ordinary answer this time
    assert again.returncode == 0, again
    assert [e["status"] for e in provider.token_requests("refresh_token")] == [200, 200]
    assert kcauth("token").returncode == 0


def test_a_clamped_lifetime_is_usable_and_printed_sanely(start_provider, keyring, kcauth):
    provider = start_provider(token_overrides=[{"expires_in": 1e308, "refresh_expires_in": 1e308}])
    login(kcauth, provider)
    assert kcauth("refresh").returncode == 0
    doc = kcauth("token", "-o", "json")
    assert doc.returncode == 0, doc
    expires_in = json.loads(doc.stdout)["expires_in"]
    assert 0 < expires_in <= 3_155_760_000, "clamped to about 100 years"
    for command in (("whoami",), ("status",), ("whoami", "-o", "json"), ("status", "-o", "json")):
        r = kcauth(*command)
        assert_no_trap(r)
        assert r.returncode == 0, r


# --- device authorization answers ---------------------------------------------------------------

DEVICE_FAILURES = [
    {"interval": -1},
    {"interval": "nan"},
    {"interval": "Infinity"},
    {"interval": True},
    {"expires_in": -600},
    {"expires_in": 0},
    {"expires_in": "soon"},
    {"expires_in": None},
]


@pytest.mark.parametrize("overrides", DEVICE_FAILURES, ids=[json.dumps(o) for o in DEVICE_FAILURES])
def test_absurd_numbers_in_a_device_answer_exit_1_with_the_field_named(start_provider, keyring, kcauth, overrides):
    provider = start_provider(device_overrides=overrides)
    r = kcauth(*login_args(provider, "--device", "--timeout", "10"), timeout=30)
    assert_no_trap(r)
    assert r.returncode == 1, r
    assert r.stdout == "" and ("interval" in r.stderr or "expires_in" in r.stderr), r
    assert stored_state(keyring) is None


def test_a_huge_device_lifetime_is_clamped_and_a_numeric_string_interval_is_accepted(start_provider, keyring, kcauth):
    provider = start_provider(device_interval=1, device_overrides={"expires_in": 1e308, "interval": "1"})
    run = Background(kcauth, *login_args(provider, "--device"))
    scripted_user(run.link())
    code, stdout, stderr = run.finish()
    assert_no_trap(code)
    assert code == 0, stderr
    assert "The code expires in" in stderr
    assert stored_state(keyring) is not None


def test_a_device_interval_longer_than_the_code_lives_never_traps(start_provider, keyring, kcauth):
    provider = start_provider(device_overrides={"expires_in": 2, "interval": 1e308})
    r = kcauth(*login_args(provider, "--device"), timeout=60)
    assert_no_trap(r)
    assert r.returncode == 3 and r.seconds < 20, r  # the code expired before anyone approved
    assert stored_state(keyring) is None


# --- ID-token times (validly signed by the provider) ---------------------------------------------

def id_token_cases():
    now = int(time.time())
    return [
        ({"exp": 1e308}, 1, "exp"),
        ({"exp": -1}, 1, "exp"),
        ({"exp": "nan"}, 1, "exp"),
        ({"exp": "never"}, 1, "exp"),
        ({"iat": -1e308}, 1, "iat"),
        ({"iat": "nan"}, 1, "iat"),
        ({"iat": True}, 1, "iat"),
        ({"auth_time": 1e308}, 1, "auth_time"),
        ({"auth_time": "yesterday"}, 1, "auth_time"),
        # Numeric strings are accepted. (Not for `exp`: the provider's JWT library refuses to sign
        # a string there.)
        ({"iat": str(now), "auth_time": str(now - 5)}, 0, None),
    ]


def case_id(overrides):
    text = json.dumps(overrides)
    return "numeric-strings" if all(isinstance(v, str) and v.isdigit() for v in overrides.values()) else text


@pytest.mark.parametrize("case", range(len(id_token_cases())), ids=[case_id(c[0]) for c in id_token_cases()])
def test_absurd_times_in_a_signed_id_token_never_trap(start_provider, keyring, kcauth, case):
    overrides, exit_code, claim = id_token_cases()[case]
    provider = start_provider(id_token_overrides=overrides)
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30")
    assert_no_trap(r)
    assert r.returncode == exit_code, r
    if exit_code:
        assert claim in r.stderr and r.stdout == "", r
        assert stored_state(keyring) is None, "nothing is stored from a rejected login"
    else:
        assert kcauth("whoami").returncode == 0
