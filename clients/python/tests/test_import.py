"""What ``import auth_sidecar`` costs: the sync client must not load asyncio (the most expensive
import by far; only ``AsyncAuthSidecar`` does), nor typing (only type checkers need it), nor what
only a running client needs."""

from __future__ import annotations

import json
import subprocess
import sys

#: Loaded when a client is made or started, or when AsyncAuthSidecar is named; never by the import.
#: json (with the re module it pulls in) is most of what is left: it waits for the first client.
DEFERRED = ["asyncio", "typing", "subprocess", "shutil", "logging", "concurrent.futures", "json", "re"]

PROBE = """
import sys
deferred = %r
import auth_sidecar
from auth_sidecar import AuthSidecar
loaded = [name for name in deferred if name in sys.modules]
auth_sidecar.AsyncAuthSidecar
import json
print(json.dumps([loaded, "asyncio" in sys.modules]))
""" % DEFERRED


def test_import_does_not_load_asyncio_until_the_async_client_is_named():
    # A fresh interpreter: this test process has long imported all of these itself.
    run = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [[], True]


def test_every_exported_name_resolves():
    import auth_sidecar

    missing = [name for name in auth_sidecar.__all__ if not hasattr(auth_sidecar, name)]
    assert missing == [] and "AsyncAuthSidecar" in auth_sidecar.__all__ and "LoginResult" in auth_sidecar.__all__
