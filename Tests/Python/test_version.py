"""One version everywhere: VERSION is the source, and every copy of it must say the same (the binary reads
VERSION at build time; the schema, its embedded copy, both clients' metadata, the status answers of the golden
transcripts and the changelog carry copies). `scripts/set-version NEW` rewrites them all."""
import json
import os
import re
import subprocess
import tomllib

import pytest

from conftest import ROOT, SCHEMA_PATH, TRANSCRIPTS

VERSION = (ROOT / "VERSION").read_text(encoding="utf-8").strip()


def test_version_file_is_semantic():
    assert re.fullmatch(r"\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?", VERSION), VERSION


def test_schema_and_its_embedded_copy():
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert schema["info"]["version"] == VERSION
    status = next(method for method in schema["methods"] if method["name"] == "status")
    assert [example["result"]["value"]["version"] for example in status["examples"]] == [VERSION]
    embedded = (ROOT / "Sources" / "AuthDispatch" / "OpenRPCDocument.swift").read_text(encoding="utf-8")
    assert json.loads(embedded.split('#"""\n')[1].split('\n"""#')[0]) == schema


def test_python_client():
    pyproject = tomllib.loads((ROOT / "clients" / "python" / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["version"] == VERSION
    init = (ROOT / "clients" / "python" / "src" / "auth_sidecar" / "__init__.py").read_text(encoding="utf-8")
    assert re.findall(r'^__version__ = "(.*)"$', init, re.M) == [VERSION]


def test_node_client():
    package = json.loads((ROOT / "clients" / "node" / "package.json").read_text(encoding="utf-8"))
    assert package["version"] == VERSION


def test_golden_transcripts_status_answers():
    versions = set()
    for transcript in TRANSCRIPTS.glob("*.out.jsonl"):
        versions.update(re.findall(r'"result":\{"version":"([^"]*)"', transcript.read_text(encoding="utf-8")))
    assert versions == {VERSION}


def test_changelog_has_the_version():
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## \[{re.escape(VERSION)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", changelog, re.M)


@pytest.mark.skipif(not os.environ.get("AUTH_SIDECAR_BIN"), reason="AUTH_SIDECAR_BIN is not set")
def test_binary_says_it():
    run = subprocess.run([os.environ["AUTH_SIDECAR_BIN"], "--version"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0
    assert re.fullmatch(rf"auth-sidecar {re.escape(VERSION)} \((commit [0-9a-f]+(-dirty)?|commit not recorded)\)\n",
                        run.stdout), run.stdout
