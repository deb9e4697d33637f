"""A private, real Secret Service for the keyring tests: gnome-keyring-daemon on a D-Bus session bus of its own
(dbus-run-session), with HOME and the XDG directories inside the test's directory, so the machine's own keyring is
never touched. Test-side manipulation (read the item, lock the collection, delete the item, own the service's name
and never answer) goes over D-Bus with jeepney."""
import os
import pathlib
import shutil
import signal
import subprocess
import time

import pytest
from jeepney import DBusAddress, new_method_call
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection

HANG_GUARD = 60
SERVICE = DBusAddress("/org/freedesktop/secrets", bus_name="org.freedesktop.secrets",
                      interface="org.freedesktop.Secret.Service")
LOGIN = "/org/freedesktop/secrets/collection/login"


def require_tools():
    """Skips when dbus-run-session or gnome-keyring-daemon is missing — except in CI (CI=true), where scripts/test
    installs them, so their absence is a failure rather than a quietly skipped test."""
    missing = [tool for tool in ("dbus-run-session", "gnome-keyring-daemon") if shutil.which(tool) is None]
    if missing:
        message = f"{', '.join(missing)} not installed (scripts/test installs dbus and gnome-keyring)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


class SessionBus:
    """dbus-run-session running `sleep`, its address written to a file; with `keyring` also gnome-keyring-daemon,
    unlocked with a password for the test. Stopped (the whole process group) on close."""

    def __init__(self, root: pathlib.Path, keyring=True):
        require_tools()
        self.root = root
        self.home = root / "home"
        runtime = root / "run"
        for directory in (self.home, runtime):
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        address_file = root / "bus-address"
        start = "echo -n test-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null;" \
            if keyring else ""
        # The address is published only once the keyring daemon runs: a call before that would start a second
        # daemon through D-Bus activation, one without the test's login collection.
        script = f'{start} echo "$DBUS_SESSION_BUS_ADDRESS" > "{address_file}.tmp" && mv "{address_file}.tmp" ' \
                 f'"{address_file}"; exec sleep {HANG_GUARD * 10}'
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DBUS_", "AUTH_SIDECAR_", "XDG_"))}
        env.update(HOME=str(self.home), XDG_RUNTIME_DIR=str(runtime), XDG_DATA_HOME=str(self.home / "data"),
                   XDG_CONFIG_HOME=str(self.home / "config"), XDG_CACHE_HOME=str(self.home / "cache"))
        self.process = subprocess.Popen(["dbus-run-session", "--", "sh", "-c", script], env=env,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            self._connect(address_file, keyring)
        except BaseException:
            self.close()
            raise

    def _connect(self, address_file, keyring):
        self.connection = None
        deadline = time.monotonic() + HANG_GUARD
        while not address_file.exists():
            assert time.monotonic() < deadline, "dbus-run-session did not start"
            time.sleep(0.05)
        self.address = address_file.read_text().strip()
        self.connection = open_dbus_connection(self.address)
        if keyring:
            while self.call("ReadAlias", "s", ("default",))[0] != LOGIN:
                assert time.monotonic() < deadline, "gnome-keyring-daemon did not create its login collection"
                time.sleep(0.05)

    def call(self, method, signature=None, body=(), address=SERVICE):
        reply = self.connection.send_and_get_reply(new_method_call(address, method, signature, body),
                                                   timeout=HANG_GUARD)
        return reply.body

    def items(self, state_directory):
        """(unlocked, locked) object paths of the store key items of `state_directory`."""
        return self.call("SearchItems", "a{ss}",
                         ({"application": "auth-sidecar", "state-directory": str(state_directory)},))

    def secret(self, state_directory) -> bytes:
        """The item's secret as stored (the key's 64 hex digits), through a plain-text transfer session."""
        unlocked, _ = self.items(state_directory)
        assert len(unlocked) == 1, unlocked
        _, session = self.call("OpenSession", "sv", ("plain", ("s", "")))
        secrets = self.call("GetSecrets", "aoo", (unlocked, session))[0]
        return bytes(secrets[unlocked[0]][2])

    def lock(self):
        self.call("Lock", "ao", ([LOGIN],))

    def delete(self, state_directory):
        unlocked, locked = self.items(state_directory)
        for item in unlocked + locked:
            self.call("Delete", address=DBusAddress(item, bus_name="org.freedesktop.secrets",
                                                    interface="org.freedesktop.Secret.Item"))

    def close(self):
        if self.connection:
            self.connection.close()
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=HANG_GUARD)


class SilentService:
    """Owns org.freedesktop.secrets on `address` and never answers a call: a Secret Service that hangs."""

    def __init__(self, address):
        self.connection = open_dbus_connection(address)
        reply = self.connection.send_and_get_reply(message_bus.RequestName("org.freedesktop.secrets"))
        assert reply.body[0] == 1, "could not own org.freedesktop.secrets"

    def close(self):
        self.connection.close()
