"""A network blip does not end a device-flow login: the real test provider is stopped and started
again on the same port while the built binary polls; kcauth says once that the provider cannot be
reached and keeps trying, says once that it is back, and the sign-in the person finishes meanwhile
arrives. The provider keeps its database (and the device code's PKCE challenge) across the
restart, as a Keycloak with a database does; the first test shows that without kcauth."""

import base64
import hashlib
import time

import requests

from test_device import DEVICE_GRANT, Background, device_polls, login_args, scripted_user, stored_items, wait_for_log


def s256(verifier):
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


def test_the_provider_keeps_a_device_code_across_a_restart(start_provider):
    provider = start_provider(device_interval=1)
    verifier = "v" * 43
    answer = requests.post(provider.device_authorization_endpoint, timeout=5, data={
        "client_id": "kcauth", "scope": "openid", "code_challenge": s256(verifier), "code_challenge_method": "S256"}).json()
    form = {"grant_type": DEVICE_GRANT, "device_code": answer["device_code"], "client_id": "kcauth", "code_verifier": verifier}

    port = provider.port
    provider.stop_serving()
    assert not provider.is_running()
    try:
        requests.post(provider.token_endpoint, data=form, timeout=2)
        raise AssertionError("the provider still answers")
    except requests.ConnectionError:
        pass
    provider.serve_again()
    assert provider.port == port

    pending = requests.post(provider.token_endpoint, data=form, timeout=5)
    assert (pending.status_code, pending.json()["error"]) == (400, "authorization_pending"), pending.text
    scripted_user(answer["verification_uri_complete"])
    time.sleep(1.1)  # the interval, or the provider answers slow_down
    tokens = requests.post(provider.token_endpoint, data=form, timeout=5)
    assert tokens.status_code == 200 and tokens.json()["access_token"], tokens.text


def test_a_provider_restart_while_kcauth_polls_does_not_end_the_login(start_provider, keyring, kcauth):
    provider = start_provider(device_interval=1)
    run = Background(kcauth, *login_args(provider, "--device"))
    link = run.link()
    wait_for_log(provider, lambda e: e.get("error") == "authorization_pending")

    provider.stop_serving()
    run.wait_for(r"^The provider cannot be reached \(cannot connect to 127\.0\.0\.1:\d+: connection refused\); "
                 r"kcauth keeps trying until the code expires\.")
    time.sleep(2)  # kcauth retries meanwhile, with backoff
    assert run.process.poll() is None, f"kcauth gave up:\n{run.stderr}"

    provider.serve_again()
    scripted_user(link)  # the person finishes on the phone once the provider is back
    code, stdout, stderr = run.finish(timeout=90)

    assert code == 0, stderr
    assert f"Logged in to {provider.issuer} as alice (profile 'default')." in stderr
    assert stderr.count("The provider cannot be reached") == 1, stderr
    assert stderr.count("The provider answers again") == 1, stderr
    assert stderr.index("cannot be reached") < stderr.index("answers again") < stderr.index("Logged in")
    assert "error:" not in stderr
    # The same device code before and after: a poll was pending before the restart, the last one
    # after it got the tokens.
    polls = device_polls(provider)
    assert polls[0]["error"] == "authorization_pending" and polls[-1]["status"] == 200, polls
    assert len(stored_items(keyring)) == 1
    assert kcauth("token").returncode == 0


def test_the_providers_own_answer_still_ends_the_login_after_a_blip(start_provider, keyring, kcauth):
    provider = start_provider(device_interval=1)
    run = Background(kcauth, *login_args(provider, "--device"))
    link = run.link()
    wait_for_log(provider, lambda e: e.get("error") == "authorization_pending")
    provider.stop_serving()
    run.wait_for(r"^The provider cannot be reached")
    provider.serve_again()
    scripted_user(link, SCRIPTED_ACTION="deny")
    code, _, stderr = run.finish(timeout=90)
    assert code == 3, stderr
    assert "error: sign-in was denied at the provider" in stderr and stderr.count("error:") == 1
    assert stored_items(keyring) == []
