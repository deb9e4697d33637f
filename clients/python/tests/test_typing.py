"""User code under ``mypy --strict``: the typed usage file and the README's examples check clean
against the package's sources, and mistakes in user code are caught (the types are not ``Any``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import List

from test_readme import python_blocks

TESTS = Path(__file__).resolve().parent
SOURCES = TESTS.parent / "src"

MISTAKES = """
from auth_sidecar import AuthSidecar, ValidationFailed

def mistakes(sidecar: AuthSidecar, error: ValidationFailed) -> None:
    count: int = sidecar.validate(username="x")["fields"]["username"]
    sidecar.login(acount="alice", password="pw")
    error.fields.get("password")["errors"]
"""


def mypy_strict(tmp_path: Path, files: List[Path]) -> subprocess.CompletedProcess[str]:
    # The package's sources, not an installed copy: MYPYPATH comes before site-packages.
    env = dict(os.environ, MYPYPATH=str(SOURCES))
    command = [sys.executable, "-m", "mypy", "--strict", "--no-color-output", "--cache-dir", str(tmp_path / "cache")]
    return subprocess.run(command + [str(f) for f in files], env=env, capture_output=True, text=True,
                          timeout=600, cwd=tmp_path)


def test_usage_file_and_readme_examples_pass_mypy_strict(tmp_path):
    examples = []
    for index, block in enumerate(python_blocks()[:3]):  # the fourth needs a test's tmp_path
        example = tmp_path / f"readme_example_{index}.py"
        example.write_text(block)
        examples.append(example)
    run = mypy_strict(tmp_path, [TESTS / "typing_usage.py", *examples])
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success: no issues found in 4 source files" in run.stdout


def test_mypy_strict_catches_mistakes_in_user_code(tmp_path):
    mistakes = tmp_path / "mistakes.py"
    mistakes.write_text(MISTAKES)
    run = mypy_strict(tmp_path, [mistakes])
    assert run.returncode == 1, run.stdout + run.stderr
    assert 'mistakes.py:5: error: Incompatible types in assignment' in run.stdout and 'type "int"' in run.stdout
    assert 'Unexpected keyword argument "acount"' in run.stdout
    assert 'Value of type "FieldReport | None" is not indexable' in run.stdout
    assert "Found 3 errors in 1 file" in run.stdout, run.stdout
