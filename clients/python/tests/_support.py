"""Constants and helpers shared by the tests (the fixtures live in conftest.py)."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any, Dict

from auth_sidecar import AsyncAuthSidecar

REPO_ROOT = Path(__file__).resolve().parents[3]
SCHEMA = REPO_ROOT / "schema" / "openrpc.json"

#: Fast password hashing, a fixed clock: only with AUTH_SIDECAR_TEST_MODE=1.
TEST_ENV = {"AUTH_SIDECAR_TEST_MODE": "1", "AUTH_SIDECAR_KEY": None, "AUTH_SIDECAR_CONFIG": None}
FAST_KDF = ["--test-kdf-iterations", "1000"]
TEST_CLOCK = ["--test-clock", "2027-01-01T00:00:00Z"]

PASSWORD = "correct horse battery staple"


def async_options(binary: str, state_dir: Path, *, fast: bool = True, clock: bool = False,
                  args: Any = (), **options: Any) -> Dict[str, Any]:
    options.setdefault("state_dir", state_dir)
    options.setdefault("env", TEST_ENV)
    options.setdefault("timeout", 30)
    options["args"] = (FAST_KDF if fast else []) + (TEST_CLOCK if clock else []) + list(args)
    options["binary"] = binary
    return options


def make_async(binary: str, state_dir: Path, **kw: Any) -> AsyncAuthSidecar:
    return AsyncAuthSidecar(**async_options(binary, state_dir, **kw))


def write_script(path: Path, text: str) -> Path:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path
