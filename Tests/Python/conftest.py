"""Shared fixtures: the OpenRPC document, validators built from it, and the transcripts."""
import json
import pathlib

import jsonschema
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMA_PATH = ROOT / "schema" / "openrpc.json"
TRANSCRIPTS = ROOT / "Tests" / "AuthSidecarEndToEndTests" / "Transcripts"


def load_document():
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def validator_for(document, schema):
    """A validator for `schema` whose `#/components/...` references resolve in `document`."""
    wrapped = {"allOf": [schema], "components": document["components"]}
    jsonschema.Draft202012Validator.check_schema(wrapped)
    return jsonschema.Draft202012Validator(wrapped)


def split_lsp(data: bytes):
    """Bodies of an LSP-framed byte stream (well-formed frames only, as our output is)."""
    bodies = []
    while data:
        header, _, rest = data.partition(b"\r\n\r\n")
        length = None
        for line in header.split(b"\r\n"):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        if length is None:
            data = rest
            continue
        bodies.append(rest[:length])
        data = rest[length:]
    return bodies


def messages_in(path: pathlib.Path):
    data = path.read_bytes()
    chunks = split_lsp(data) if path.suffix == ".lsp" else data.split(b"\n")
    out = []
    for chunk in chunks:
        if not chunk.strip():
            continue
        try:
            value = json.loads(chunk)
        except (ValueError, RecursionError):  # inputs include deliberately broken and 100,000-deep lines
            continue
        out.extend(value if isinstance(value, list) else [value])
    return out


@pytest.fixture(scope="session")
def document():
    return load_document()
