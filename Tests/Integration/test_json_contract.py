"""The JSON contract (docs/json.md): every `-o json` document, produced by the built binary
against the real test provider and keyring, has exactly the keys its table documents, with the
documented types, and starts with `version`.

The tables in docs/json.md are the schema: this test parses them, so the documentation cannot
drift from the binary without failing here."""

import json
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs" / "json.md"
TYPES = {"string": str, "number": (int, float), "boolean": bool, "array": list, "object": dict, "null": type(None)}


def schemas():
    """{heading: {key: (python types)}} for every table in docs/json.md."""
    result, heading = {}, None
    for line in DOCS.read_text().splitlines():
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        m = re.match(r"^\| `([a-z_]+)` \| ([a-z]+(?: \\\| [a-z]+)*) \|", line)
        if m and heading:
            names = [t.strip() for t in m.group(2).replace("\\|", "|").split("|") if t.strip()]
            result.setdefault(heading, {})[m.group(1)] = tuple(TYPES[n] for n in names)
    return result


SCHEMAS = schemas()


def check(document, heading, rename=None):
    schema = dict(SCHEMAS[heading])
    if rename:
        for old, new in rename.items():
            schema[new] = schema.pop(old)
    assert list(document)[0] == "version" or "version" not in schema, "version comes first"
    assert set(document) == set(schema), f"{heading}: keys differ from docs/json.md"
    for key, value in document.items():
        # bool is an int in Python: a number must not be a boolean, and the reverse.
        ok = isinstance(value, schema[key]) and not (isinstance(value, bool) and bool not in schema[key])
        assert ok, f"{heading}: {key} = {value!r} is not {schema[key]}"


def login(kcauth, provider, *extra):
    r = kcauth("login", "--issuer", provider.issuer, "--client-id", "kcauth", "--timeout", "30", *extra)
    assert r.returncode == 0, r
    return r


def test_every_documented_table_is_parsed():
    assert set(SCHEMAS) >= {"kcauth token -o json", "kcauth whoami -o json", "kcauth status -o json",
                            "kcauth status -o json: profiles[]", "kcauth profiles -o json",
                            "kcauth profiles -o json: profiles[]", "kcauth doctor -o json", "kcauth doctor -o json: checks[]"}
    # A table of a nested object ("…: profiles[]", "…: client_assertion") is part of its document.
    assert all(SCHEMAS[h].get("version") == (TYPES["number"],) for h in SCHEMAS if ": " not in h), "every document has a version"


def test_token_refresh_and_login_outputs_follow_the_token_table(provider, kcauth):
    check(json.loads(login(kcauth, provider, "-o", "json").stdout), "kcauth token -o json")
    check(json.loads(kcauth("token", "-o", "json").stdout), "kcauth token -o json")
    check(json.loads(kcauth("token", "--id-token", "-o", "json").stdout), "kcauth token -o json",
          rename={"access_token": "id_token"})
    check(json.loads(kcauth("refresh", "-o", "json").stdout), "kcauth token -o json")


def test_headers_json_is_one_object_of_string_headers_on_one_line(provider, kcauth):
    """docs/json.md, "kcauth token -o headers-json": the headers helpers' contract, no version."""
    login(kcauth, provider)
    for args in (["token"], ["token", "--id-token"], ["refresh"]):
        out = kcauth(*args, "-o", "headers-json").stdout
        assert out.count("\n") == 1 and out.endswith("}\n"), out
        document = json.loads(out)
        assert list(document) == ["Authorization"] and document["Authorization"].startswith("Bearer ey"), document


def test_memory_login_json_follows_the_token_table(provider, kcauth):
    r = login(kcauth, provider, "--storage", "memory", "-o", "json")
    check(json.loads(r.stdout), "kcauth token -o json")


def test_whoami_status_profiles_and_doctor_follow_their_tables(provider, kcauth):
    login(kcauth, provider)
    check(json.loads(kcauth("whoami", "-o", "json").stdout), "kcauth whoami -o json")
    check(json.loads(kcauth("whoami", "--userinfo", "-o", "json").stdout), "kcauth whoami -o json")

    status = json.loads(kcauth("status", "-o", "json").stdout)
    check(status, "kcauth status -o json")
    for entry in status["profiles"]:
        check(entry, "kcauth status -o json: profiles[]")

    profiles = json.loads(kcauth("profiles", "-o", "json").stdout)
    check(profiles, "kcauth profiles -o json")
    for entry in profiles["profiles"]:
        check(entry, "kcauth profiles -o json: profiles[]")
        assert all(isinstance(v, str) for v in entry["settings"].values())

    doctor = json.loads(kcauth("doctor", "-o", "json", timeout=60).stdout)
    check(doctor, "kcauth doctor -o json")
    ids = set()
    for entry in doctor["checks"]:
        check(entry, "kcauth doctor -o json: checks[]")
        assert entry["status"] in ("pass", "fail", "skip")
        ids.add(entry["id"])
    documented = re.findall(r"`([a-z-]+)`", DOCS.read_text().split("| `id` |")[1].splitlines()[0])
    assert ids <= set(documented), f"undocumented doctor check ids: {ids - set(documented)}"


@pytest.mark.parametrize("command", [["status"], ["whoami"]])
def test_a_failing_command_still_prints_a_valid_document_or_nothing(kcauth, command):
    r = kcauth(*command, "-o", "json")
    assert r.returncode == 4
    if command == ["status"]:
        document = json.loads(r.stdout)
        check(document, "kcauth status -o json")
    else:
        assert r.stdout == ""
