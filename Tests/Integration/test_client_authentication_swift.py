"""kcauth's Swift client authentication (KCAuthCore + KCAuthCrypto + libcurl) against the real
test provider, before any CLI command uses it: runs the Swift suite
ProviderClientAuthenticationTests with the provider's issuer, then checks the provider's side.

Needs the test bundle built (`swift build --build-tests`, as `make test` does before this).
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent.parent
SCRATCH = os.environ.get("KCAUTH_SCRATCH", ".build")


def test_swift_signed_assertions_and_secrets_are_accepted_by_the_provider(provider):
    if shutil.which("swift") is None or not (REPO / SCRATCH / "debug" / "kcauthPackageTests.xctest").exists():
        pytest.skip("the Swift test bundle is not built (swift build --build-tests)")
    completed = subprocess.run(
        ["swift", "test", "--skip-build", "--scratch-path", SCRATCH, "--filter", "ProviderClientAuthenticationTests"],
        cwd=REPO, env={**os.environ, "KCAUTH_TEST_ISSUER": provider.issuer},
        capture_output=True, text=True, timeout=300)
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, output[-4000:]
    assert "Test run with 4 tests in 1 suite passed" in output, output[-4000:]
    assert "skipped" not in output, output[-4000:]  # the summary line reads the same for skipped tests

    requests_ = provider.token_requests("client_credentials")
    statuses = [r["status"] for r in requests_]
    # 2 secrets + 3 algorithms x 2 fresh assertions accepted; a wrong secret and a wrong key refused.
    assert statuses.count(200) == 8, requests_
    assert [r.get("error") for r in requests_ if r["status"] != 200] == ["invalid_client"] * 2, requests_
