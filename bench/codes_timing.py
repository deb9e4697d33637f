#!/usr/bin/env python3
"""Known vs unknown accounts: does `sendCode` or `resetPassword` take measurably longer for an account that
exists? It must not — the time would tell an attacker which accounts exist, whatever the answer says.

    python3 bench/codes_timing.py --sidecar .build/release/auth-sidecar        # 200 sends, 40 resets per side
    python3 bench/codes_timing.py --sidecar PATH --sends 400 --resets 80

One sidecar, the production password hashing, a `local` profile whose codes go to a delivery command that
reads its stdin and exits (`/bin/sh -c 'cat > /dev/null'`), with the cooldown off and the daily cap at its
maximum so every request does the whole work. Requests alternate known / unknown, each written after the
previous answer was read (machine drift hits both sides alike). A reset uses a wrong code, so both sides
answer `invalid_credentials` after the same hashing of the new password. Prints the medians and their ratio
(unknown / known; the bar is within 10 %) and exits 1 when an answer had another shape or the ratio is off.
Python 3.11 standard library only.
"""

import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time

PASSWORD = "correct horse battery staple"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sidecar", required=True, help="the auth-sidecar binary to measure")
    parser.add_argument("--sends", type=int, default=200)
    parser.add_argument("--resets", type=int, default=40)
    args = parser.parse_args()
    root = tempfile.mkdtemp(prefix="auth-codes-bench-")
    try:
        return run(os.path.abspath(args.sidecar), root, args.sends, args.resets)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def run(binary: str, root: str, sends: int, resets: int) -> int:
    config = os.path.join(root, "config.json")
    with open(config, "w") as f:
        json.dump({"profiles": {"default": {
            "provider": "local", "codes": {"resendCooldownSeconds": 0, "maxPerDay": 1000},
            "local": {"codeDelivery": {"command": ["/bin/sh", "-c", "cat > /dev/null"]}}}}}, f)
    env = {k: v for k, v in os.environ.items() if not k.startswith("AUTH_SIDECAR_")}
    env.update(AUTH_SIDECAR_STATE_DIR=os.path.join(root, "state"), XDG_CONFIG_HOME=os.path.join(root, "cfg"))
    subprocess.run([binary, "--config", config, "users", "add", "alice", "--email", "alice@example.com"],
                   input=(PASSWORD + "\n").encode(), env=env, check=True, capture_output=True, timeout=120)
    sidecar = subprocess.Popen([binary, "--config", config], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=env)
    next_id = [0]

    def timed(method: str, params: dict) -> tuple:
        next_id[0] += 1
        line = json.dumps({"jsonrpc": "2.0", "id": next_id[0], "method": method, "params": params}) + "\n"
        start = time.perf_counter()
        sidecar.stdin.write(line.encode())
        sidecar.stdin.flush()
        answer = json.loads(sidecar.stdout.readline())
        return (time.perf_counter() - start) * 1000, answer

    def shape(answer: dict) -> tuple:
        if "result" in answer:
            return ("result", tuple(sorted(answer["result"])))
        data = answer["error"]["data"]
        return ("error", data["kind"], data.get("reason"))

    ok = True
    rows = []
    cases = [
        ("sendCode", sends, lambda who: {"account": who, "purpose": "resetPassword"}),
        ("resetPassword", resets, lambda who: {"account": who, "code": "000000", "newPassword": "a new horse staple"}),
    ]
    for method, count, params in cases:
        times = {"known": [], "unknown": []}
        shapes = set()
        timed(method, params("alice@example.com"))  # warm-up: the store's key, the delivery path, the KDF
        for _ in range(count):
            for side, who in (("known", "alice@example.com"), ("unknown", "nobody@example.com")):
                elapsed, answer = timed(method, params(who))
                times[side].append(elapsed)
                shapes.add(shape(answer))
        known, unknown = statistics.median(times["known"]), statistics.median(times["unknown"])
        ratio = unknown / known
        rows.append((method, count, known, unknown, ratio, len(shapes) == 1))
        ok = ok and len(shapes) == 1 and abs(ratio - 1) <= 0.10
    sidecar.stdin.close()
    sidecar.wait(timeout=30)
    print("| method | samples per side | known median (ms) | unknown median (ms) | unknown / known | one answer shape |")
    print("|---|---|---|---|---|---|")
    for method, count, known, unknown, ratio, same in rows:
        print(f"| {method} | {count} | {known:.2f} | {unknown:.2f} | {ratio:.3f} | {'yes' if same else 'NO'} |")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
