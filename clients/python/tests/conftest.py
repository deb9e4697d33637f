"""Fixtures: the real auth-sidecar binary (from AUTH_SIDECAR_BIN) and a fresh state dir per test."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Iterator, List

import pytest

from _support import FAST_KDF, TEST_CLOCK, TEST_ENV
from auth_sidecar import AuthSidecar


@pytest.fixture(scope="session")
def binary() -> str:
    path = os.environ.get("AUTH_SIDECAR_BIN")
    if not path:
        pytest.skip(
            "AUTH_SIDECAR_BIN is not set: build the sidecar "
            "(swift build --product auth-sidecar) and point AUTH_SIDECAR_BIN at the binary"
        )
    if not os.access(path, os.X_OK):
        pytest.fail(f"AUTH_SIDECAR_BIN={path!r} is not an executable file")
    return path


@pytest.fixture
def state_dir(tmp_path: Path) -> Path:
    return tmp_path / "state"


@pytest.fixture
def make_sync(binary: str, state_dir: Path) -> Iterator[Callable[..., AuthSidecar]]:
    """Builds started sync clients (closed at the end of the test). Test mode with fast hashing
    unless ``fast=False``; ``clock=True`` adds the fixed test clock."""
    clients: List[AuthSidecar] = []

    def make(*, fast: bool = True, clock: bool = False, args: Any = (), **options: Any) -> AuthSidecar:
        options.setdefault("state_dir", state_dir)
        options.setdefault("env", TEST_ENV)
        options.setdefault("timeout", 30)
        extra: List[str] = (FAST_KDF if fast else []) + (TEST_CLOCK if clock else []) + list(args)
        client = AuthSidecar(binary, args=extra, **options)
        clients.append(client)
        return client.start()

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def sidecar(make_sync: Callable[..., AuthSidecar]) -> AuthSidecar:
    return make_sync()

