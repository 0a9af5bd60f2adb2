"""Authorization request parameters, end to end: what `kcauth login` puts in
the authorization request (the provider's request log shows it), which of them the profile
keeps, and the ID token checks that `max_age` and an essential `acr` call for (OpenID Connect
Core §3.1.2.1, §3.1.3.7)."""

import json
import time

import pytest

from kcauth import stored_items


def login(kcauth, provider, *extra, env=None):
    return kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", *extra, env=env)


def auth_params(provider):
    """The parameters of each authorization request, in order (the login form's own GETs of the
    same endpoint carry the same query)."""
    return [e["auth_params"] for e in provider.request_log() if "auth_params" in e]


def test_every_parameter_reaches_the_provider_and_only_the_sticky_ones_are_remembered(provider, kcauth, keyring):
    r = login(kcauth, provider, "--idp-hint", "github", "--login-hint", "alice@example.test", "--prompt", "login",
              "--max-age", "600", "--acr-values", "urn:mace:incommon:iap:silver", "--ui-locales", "de en",
              "--param", "audience=api", "--param", "kc_action=UPDATE_PASSWORD")
    assert r.returncode == 0, r
    first = auth_params(provider)[0]
    assert first["kc_idp_hint"] == "github" and first["login_hint"] == "alice@example.test"
    assert first["prompt"] == "login" and first["max_age"] == "600"
    assert first["acr_values"] == "urn:mace:incommon:iap:silver" and first["ui_locales"] == "de en"
    assert first["audience"] == "api" and first["kc_action"] == "UPDATE_PASSWORD"
    assert first["client_id"] == "kcauth" and first["code_challenge_method"] == "S256"

    config = kcauth.config_file.read_text()
    assert "idp_hint = github" in config and "acr_values = urn:mace:incommon:iap:silver" in config
    assert "ui_locales = de en" in config
    for one_off in ("login_hint", "prompt", "max_age", "audience", "kc_action"):
        assert one_off not in config, config

    # The next login sends the sticky ones again, and nothing of the one-off ones.
    again = kcauth("login", "--force", "--timeout", "30")
    assert again.returncode == 0, again
    second = auth_params(provider)[-1]
    assert second["kc_idp_hint"] == "github" and second["ui_locales"] == "de en"
    assert not {"login_hint", "prompt", "max_age", "audience", "kc_action"} & set(second)

    # An empty value forgets a sticky one.
    cleared = kcauth("login", "--force", "--idp-hint", "", "--timeout", "30")
    assert cleared.returncode == 0, cleared
    assert "kc_idp_hint" not in auth_params(provider)[-1] and "idp_hint" not in kcauth.config_file.read_text()


@pytest.mark.parametrize("args,message", [
    (("--prompt", "sometimes"), "--prompt takes login, consent, select_account or none"),
    (("--prompt", "none login"), "--prompt takes login, consent, select_account or none (none only alone)"),
    (("--max-age", "-5"), "--max-age takes a whole number of seconds"),
    (("--max-age", "1e3"), "--max-age takes a whole number of seconds"),
    (("--param", "novalue"), "--param takes NAME=VALUE"),
    (("--param", "state=x"), "--param cannot set 'state': kcauth sets it itself"),
    (("--param", "redirect_uri=http://evil"), "--param cannot set 'redirect_uri'"),
    (("--param", "a b=c"), "--param: 'a b' is not a parameter name"),
])
def test_bad_parameters_are_usage_errors_before_anything_happens(provider, kcauth, keyring, args, message):
    r = login(kcauth, provider, *args)
    assert r.returncode == 2, r
    assert r.stderr.startswith("error: " + message), r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    before = len(provider.request_log())  # the fixture's own readiness check
    assert login(kcauth, provider, *args).returncode == 2
    assert len(provider.request_log()) == before, "not even discovery"
    assert not kcauth.config_file.exists()


def test_max_age_accepts_a_recent_sign_in(provider, kcauth, keyring):
    r = login(kcauth, provider, "--max-age", "300")
    assert r.returncode == 0, r


def test_max_age_refuses_an_id_token_about_an_older_sign_in(start_provider, kcauth, keyring):
    provider = start_provider(id_token_overrides={"auth_time": int(time.time()) - 3600})
    r = login(kcauth, provider, "--max-age", "300")
    assert r.returncode == 1, r
    assert "the ID token was rejected: the sign-in it describes is 36" in r.stderr and "more than --max-age 300" in r.stderr
    assert stored_items(keyring) == [], "nothing stored"
    # Without max_age the same provider's tokens are fine: auth_time is only checked when asked.
    assert login(kcauth, provider).returncode == 0


ESSENTIAL_GOLD = json.dumps({"id_token": {"acr": {"essential": True, "values": ["gold"]}}})


def test_an_essential_acr_must_be_in_the_id_token(start_provider, kcauth, keyring):
    silver = start_provider(id_token_overrides={"acr": "silver"})
    r = login(kcauth, silver, "--param", "claims=" + ESSENTIAL_GOLD)
    assert r.returncode == 1, r
    assert "the ID token was rejected: its acr 'silver' is not one of the requested gold" in r.stderr
    assert stored_items(keyring) == []

    gold = start_provider(id_token_overrides={"acr": "gold"})
    ok = login(kcauth, gold, "--param", "claims=" + ESSENTIAL_GOLD)
    assert ok.returncode == 0, ok
    assert json.loads(auth_params(gold)[0]["claims"]) == json.loads(ESSENTIAL_GOLD)


def test_a_voluntary_acr_values_is_a_wish_not_checked(start_provider, kcauth, keyring):
    provider = start_provider(id_token_overrides={"acr": "1"})
    r = login(kcauth, provider, "--acr-values", "gold")
    assert r.returncode == 0, r
