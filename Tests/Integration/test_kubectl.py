"""kcauth as kubectl's exec credential plugin, with the real kubectl: the machine's (1.32: v1
and v1beta1, says whether the session is interactive) and Debian's 1.20 (v1beta1 only),
against an HTTPS stub API server that accepts only an ID token the provider signed."""

import json
import os
import shutil
import stat
import subprocess
import time
from pathlib import Path

import pytest

from helpers import helper_bin, login
from kcauth import BINARY, REPO
from stubservers import KubeAPIStub, TokenCheck
from tlsserver import PrivateCA

OLD_KUBECTL = REPO / ".cache" / "kubectl-1.20" / "usr" / "bin" / "kubectl"


def old_kubectl():
    if not OLD_KUBECTL.exists():
        subprocess.run([str(REPO / "scripts" / "fetch-old-kubectl")], check=True, timeout=300)
    return str(OLD_KUBECTL)


def new_kubectl():
    path = shutil.which("kubectl")
    if path is None:
        pytest.skip("no kubectl >= 1.22 on this machine (Debian packages only 1.20)")
    return path


@pytest.fixture
def api(tmp_path, provider):
    ca = PrivateCA(tmp_path / "tls")
    with KubeAPIStub(ca, TokenCheck(provider)) as server:
        server.ca = ca
        yield server


def kubeconfig(tmp_path, api):
    """A kubeconfig as kubectl writes it, with the stub cluster and someone else's user."""
    path = tmp_path / "kubeconfig"
    path.write_text(f"""apiVersion: v1
clusters:
- cluster:
    certificate-authority: {api.ca.ca_pem}
    server: https://127.0.0.1:{api.port}
  name: stub
contexts: []
current-context: ""
kind: Config
preferences: {{}}
users:
- name: someone-else
  user:
    token: not-ours
""")
    path.chmod(0o600)
    return path


def namespaces(result):
    return [item["metadata"]["name"] for item in json.loads(result.stdout)["items"]]


def kubectl(binary, kcauth, tmp_path, config, *args, stdin=subprocess.DEVNULL):
    _, path = helper_bin(tmp_path)
    env = {**kcauth.env, "PATH": path, "KUBECONFIG": str(config), "HOME": str(kcauth.home)}
    return subprocess.run([binary, "--context", "stub-default", *args], env=env, stdin=stdin,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("version", ["v1", "v1beta1"])
def test_kubectl_1_32_gets_an_id_token_in_the_version_of_the_kubeconfig(tmp_path, provider, keyring, kcauth, api, version):
    login(kcauth, provider)
    config = kubeconfig(tmp_path, api)
    before = config.read_text()
    r = kcauth("kubeconfig", "--cluster", "stub", "--api-version", version, "--merge", str(config))
    assert r.returncode == 0 and r.stdout == "", r
    assert (tmp_path / "kubeconfig.bak").read_text() == before
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    assert "name: someone-else" in config.read_text(), "other users are kept"

    got = kubectl(new_kubectl(), kcauth, tmp_path, config, "get", "--raw", "/api/v1/namespaces")
    assert got.returncode == 0, (got, api.requests)
    assert namespaces(got) == ["team-alice"]
    assert api.requests[-1][1] == "alice"
    raw = kubectl(new_kubectl(), kcauth, tmp_path, config, "get", "--raw", "/api")
    assert raw.returncode == 0 and '"APIVersions"' in raw.stdout, raw


def test_kubectl_1_20_speaks_only_v1beta1_and_gets_it(tmp_path, provider, keyring, kcauth, api):
    login(kcauth, provider)
    config = kubeconfig(tmp_path, api)
    assert kcauth("kubeconfig", "--cluster", "stub", "--api-version", "v1beta1", "--merge", str(config)).returncode == 0
    got = kubectl(old_kubectl(), kcauth, tmp_path, config, "get", "--raw", "/api/v1/namespaces")
    assert got.returncode == 0, (got, api.requests)
    assert namespaces(got) == ["team-alice"]

    # The access token in v1beta1, with the runtime cache warm: the fast path of `kcauth token`
    # must not answer kubectl in v1.
    assert kcauth("kubeconfig", "--cluster", "stub", "--api-version", "v1beta1", "--access-token", "--merge", str(config)).returncode == 0
    assert kcauth("token").returncode == 0
    warm = kubectl(old_kubectl(), kcauth, tmp_path, config, "get", "--raw", "/api/v1/namespaces")
    assert warm.returncode == 0, warm
    assert namespaces(warm) == ["team-alice"]

    # Merging again replaces the entry instead of adding a second one.
    assert kcauth("kubeconfig", "--cluster", "stub", "--api-version", "v1", "--merge", str(config)).returncode == 0
    assert config.read_text().count("name: kcauth-default") == 1
    assert config.read_text().count("name: stub-default") == 1
    old = kubectl(old_kubectl(), kcauth, tmp_path, config, "get", "--raw", "/api/v1/namespaces")
    assert old.returncode != 0, "kubectl 1.20 does not know v1: the reason v1beta1 exists"


def test_no_session_and_no_terminal_exits_4_with_the_hint_through_kubectl(tmp_path, provider, keyring, kcauth, api):
    config = kubeconfig(tmp_path, api)
    assert kcauth("kubeconfig", "--cluster", "stub", "--merge", str(config)).returncode == 0
    r = kubectl(new_kubectl(), kcauth, tmp_path, config, "get", "--raw", "/api/v1/namespaces")
    assert r.returncode != 0
    assert "error: not logged in (profile 'default'" in r.stderr and "; run `kcauth login`" in r.stderr, r
    assert "failed with exit code 4" in r.stderr
    assert api.requests == [], "no request went out without a token"


def test_no_session_on_a_terminal_signs_in_first_with_messages_on_stderr(tmp_path, provider, keyring, kcauth, api):
    # The profile is configured (a previous login, then logout); only the session is missing.
    kcauth.config_file.parent.mkdir(parents=True)
    kcauth.config_file.write_text(f"[default]\nissuer = {provider.issuer}\nclient_id = kcauth\n")
    config = kubeconfig(tmp_path, api)
    assert kcauth("kubeconfig", "--cluster", "stub", "--merge", str(config)).returncode == 0

    primary, secondary = os.openpty()  # kubectl says `interactive: true` only with a terminal on stdin
    try:
        r = kubectl(new_kubectl(), kcauth, tmp_path, config, "get", "--raw", "/api/v1/namespaces", stdin=secondary)
    finally:
        os.close(secondary)
        os.close(primary)
    assert r.returncode == 0, r
    assert namespaces(r) == ["team-alice"]
    assert "signing in" in r.stderr and "Logged in to" in r.stderr
    assert kcauth("token").returncode == 0, "the session is stored for the next call"


def test_exec_credential_answers_the_version_kubectl_asks_for(provider, keyring, kcauth):
    login(kcauth, provider)
    for asked in ("client.authentication.k8s.io/v1beta1", "client.authentication.k8s.io/v1"):
        info = json.dumps({"kind": "ExecCredential", "apiVersion": asked, "spec": {"interactive": False}})
        r = kcauth("token", "-o", "exec-credential", env={"KUBERNETES_EXEC_INFO": info})
        assert r.returncode == 0 and json.loads(r.stdout)["apiVersion"] == asked
    bad = kcauth("token", "-o", "exec-credential", env={"KUBERNETES_EXEC_INFO": '{"apiVersion":"client.authentication.k8s.io/v2"}'})
    assert bad.returncode == 2 and bad.stdout == "" and "v2" in bad.stderr
    junk = kcauth("token", "-o", "exec-credential", env={"KUBERNETES_EXEC_INFO": "{not json"})
    assert junk.returncode == 2 and "is not a JSON object" in junk.stderr


def config_view(config, *args):
    """What kubectl itself reads from the file."""
    r = subprocess.run([new_kubectl(), "config", "view", "-o", "json", *args], env={"PATH": os.environ["PATH"], "KUBECONFIG": str(config)},
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r
    return json.loads(r.stdout)


def test_a_symlinked_kubeconfig_is_written_through_the_link(tmp_path, kcauth, api):
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    target = kubeconfig(tmp_path, api).rename(dotfiles / "kubeconfig")
    link = tmp_path / "kube-config"
    link.symlink_to(target)

    r = kcauth("kubeconfig", "--cluster", "stub", "--merge", str(link))
    assert r.returncode == 0, r
    assert link.is_symlink() and link.resolve() == target, "the link is kept"
    assert "name: kcauth-default" in target.read_text() and "name: someone-else" in target.read_text()
    assert {u["name"] for u in config_view(link)["users"]} == {"someone-else", "kcauth-default"}
    assert not Path(str(link) + ".lock").exists()


def test_eight_concurrent_merges_keep_all_eight_entries(tmp_path, kcauth, api):
    config = kubeconfig(tmp_path, api)
    procs = [subprocess.Popen([str(BINARY), "kubeconfig", "--profile", f"p{i}", "--cluster", "stub", "--merge", str(config)],
                              env=kcauth.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(8)]
    results = [(p.wait(timeout=60), p.stderr.read()) for p in procs]
    assert all(code == 0 for code, _ in results), results
    view = config_view(config)
    assert {u["name"] for u in view["users"]} == {"someone-else"} | {f"kcauth-p{i}" for i in range(8)}
    assert {c["name"] for c in view["contexts"]} == {f"stub-p{i}" for i in range(8)}
    assert not Path(str(config) + ".lock").exists()


def test_the_merge_waits_for_kubectls_lock_file(tmp_path, kcauth, api):
    # client-go locks FILE by creating FILE.lock exclusively and removes it when done.
    config = kubeconfig(tmp_path, api)
    lock = Path(str(config) + ".lock")
    lock.write_text("")
    merge = subprocess.Popen([str(BINARY), "kubeconfig", "--merge", str(config)], env=kcauth.env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1)
    assert merge.poll() is None, "waits while another writer holds the lock"
    assert "kcauth-default" not in config.read_text()
    lock.unlink()
    assert merge.wait(timeout=30) == 0, merge.stderr.read()
    assert "name: kcauth-default" in config.read_text()
    assert not lock.exists()


def test_a_json_kubeconfig_stays_json_that_kubectl_reads(tmp_path, kcauth, api):
    config = tmp_path / "kubeconfig.json"
    config.write_text(json.dumps({
        "apiVersion": "v1", "kind": "Config", "current-context": "",
        "clusters": [{"name": "stub", "cluster": {"server": f"https://127.0.0.1:{api.port}",
                                                  "certificate-authority": str(api.ca.ca_pem)}}],
        "users": [{"name": "someone-else", "user": {"token": "not-ours"}}],
    }, indent=2))
    for _ in range(2):  # the second merge replaces the entries
        r = kcauth("kubeconfig", "--cluster", "stub", "--merge", str(config))
        assert r.returncode == 0, r
    doc = json.loads(config.read_text())
    assert [u["name"] for u in doc["users"]] == ["someone-else", "kcauth-default"]
    assert doc["users"][1]["user"]["exec"]["args"] == ["token", "--profile", "default", "--id-token", "-o", "exec-credential"]
    assert [c["name"] for c in doc["contexts"]] == ["stub-default"]
    view = config_view(config)
    assert {u["name"] for u in view["users"]} == {"someone-else", "kcauth-default"}
    assert view["clusters"][0]["cluster"]["server"] == f"https://127.0.0.1:{api.port}"


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "link-to-dev-zero", "huge"])
def test_what_is_not_a_kubeconfig_file_is_refused_promptly(tmp_path, kcauth, kind):
    path = tmp_path / "kube-config"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path = Path("/dev/zero")
    elif kind == "link-to-dev-zero":
        path.symlink_to("/dev/zero")
    else:
        with open(path, "wb") as f:
            f.truncate(64 << 20)  # sparse: larger than any kubeconfig
    start = time.monotonic()
    r = kcauth("kubeconfig", "--merge", str(path), timeout=20)
    assert time.monotonic() - start < 10
    assert r.returncode == 1 and r.stdout == "" and r.stderr.count("\n") == 1, r
    assert r.stderr.startswith("error: ") and str(path) in r.stderr
    assert not Path(str(path) + ".lock").exists()


def test_a_cluster_the_kubeconfig_lacks_is_an_error_naming_its_clusters(tmp_path, kcauth, api):
    config = kubeconfig(tmp_path, api)
    before = config.read_bytes()

    r = kcauth("kubeconfig", "--cluster", "prod", "--merge", str(config))

    assert r.returncode == 2 and r.stdout == "", r
    assert r.stderr == (f"error: there is no cluster 'prod' in {config}: its clusters are 'stub'; add it first "
                        "(`kubectl config set-cluster NAME --server URL`), or leave out --cluster to merge the user alone\n"), r
    assert config.read_bytes() == before and not Path(str(config) + ".bak").exists(), "the file is left as it was"
    assert kcauth("kubeconfig", "--cluster", "stub", "--merge", str(config)).returncode == 0
