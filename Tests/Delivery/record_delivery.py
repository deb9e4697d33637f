#!/usr/bin/env python3
"""A code delivery command for tests: appends what it received to the JSON-lines file named by its one argument.

Each line holds the message read from stdin and, read from /proc/self, the command line and environment the
sidecar started it with, so a test can prove the code travelled on stdin only. Exits 3 without recording when
the message's `to` starts with "fail" (a gateway refusing), so tests can drive a failed delivery.
"""
import json
import sys


def main() -> int:
    message = json.loads(sys.stdin.read())
    if str(message.get("to", "")).startswith("fail"):
        return 3
    with open("/proc/self/cmdline", "rb") as f:
        cmdline = f.read().decode("utf-8", "replace")
    with open("/proc/self/environ", "rb") as f:
        environ = f.read().decode("utf-8", "replace")
    with open(sys.argv[1], "a", encoding="utf-8") as out:
        out.write(json.dumps({"message": message, "cmdline": cmdline, "environ": environ}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
