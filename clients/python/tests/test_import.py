"""What ``import auth_sidecar`` costs: the sync client must not load asyncio (the most expensive
import by far); only ``AsyncAuthSidecar`` does."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import json, sys
import auth_sidecar
before = "asyncio" in sys.modules
auth_sidecar.AuthSidecar
after_sync = "asyncio" in sys.modules
auth_sidecar.AsyncAuthSidecar
print(json.dumps([before, after_sync, "asyncio" in sys.modules]))
"""


def test_import_does_not_load_asyncio_until_the_async_client_is_used():
    # A fresh interpreter: this test process has long imported asyncio itself.
    run = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [False, False, True]


def test_every_exported_name_resolves():
    import auth_sidecar

    missing = [name for name in auth_sidecar.__all__ if not hasattr(auth_sidecar, name)]
    assert missing == [] and "AsyncAuthSidecar" in auth_sidecar.__all__
