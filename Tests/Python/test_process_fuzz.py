"""A process-level fuzzer through the real binary: mutated requests, garbage, batches, both framings, with a
fixed seed and a bounded number of messages. Every tracked request is answered exactly once, every output line
is JSON, the process exits 0 on its own."""
import json
import random

import pytest
from sidecar_process import answers, request, run, workdir
from conftest import TRANSCRIPTS

SEED = 20261201
METHODS = ["validate", "rpc.discover", "status", "getUser", "register", "login", "logout", "refreshToken",
           "nope", "$/cancelRequest"]
TEXTS = ["alice", "", "A" * 300, "名字", "a@b.co", "+86 138 0013 8000", "\u0000x", "\ud7ff", "correct horse"]


def params(rng):
    out = {}
    for key in rng.sample(["username", "password", "account", "email", "phone", "purpose", "profile", "locale",
                           "force", "refresh", "id", "bogus"], rng.randint(0, 4)):
        out[key] = rng.choice(TEXTS + [1, None, True, [], {"a": 1}, 1e308])
    return out


def garbage(rng, seeds):
    """A line that is not a tracked request: a transcript line with bytes flipped, cut, or repeated."""
    line = bytearray(rng.choice(seeds))
    for _ in range(rng.randint(1, 6)):
        action = rng.randrange(4)
        at = rng.randrange(len(line) + 1)
        if action == 0 and line:
            line[min(at, len(line) - 1)] = rng.randrange(256)
        elif action == 1:
            del line[at:]
        elif action == 2:
            line[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        else:
            line += line[: rng.randint(0, len(line))]
    # Never a newline inside (it would split the line) and never an integer id we track.
    return bytes(line).replace(b"\n", b" ").replace(b'"id":', b'"id":"g",')


def messages(rng, count):
    seeds = [line for path in sorted(TRANSCRIPTS.glob("*.in.jsonl"))
             for line in path.read_bytes().split(b"\n") if line.strip()]
    tracked, units = set(), []
    next_id = 1
    while next_id <= count:
        shape = rng.random()
        if shape < 0.25:
            units.append(garbage(rng, seeds))
            continue
        if shape < 0.35:
            size = rng.randint(1, 12)
            batch = []
            for _ in range(size):
                batch.append({"jsonrpc": "2.0", "id": next_id, "method": rng.choice(METHODS), "params": params(rng)})
                tracked.add(next_id)
                next_id += 1
            units.append(json.dumps(batch).encode())
            continue
        if shape < 0.4:
            units.append(json.dumps({"jsonrpc": "2.0", "method": rng.choice(METHODS), "params": params(rng)}).encode())
            continue
        units.append(request(next_id, rng.choice(METHODS), **params(rng)).encode())
        tracked.add(next_id)
        next_id += 1
    return units, tracked


def check(status, stdout, stderr, tracked):
    assert status == 0, stderr[-2000:]
    seen = {}
    for answer in answers(stdout):
        if isinstance(answer.get("id"), int) and not isinstance(answer.get("id"), bool):
            seen[answer["id"]] = seen.get(answer["id"], 0) + 1
    assert {i for i in tracked if seen.get(i) != 1} == set(), "tracked ids not answered exactly once"
    assert "fatal" not in stderr.lower()


@pytest.mark.parametrize("round_", range(3))
def test_mutated_ndjson(workdir, round_):
    rng = random.Random(SEED + round_)
    units, tracked = messages(rng, 400)
    status, stdout, stderr = run(workdir / "state", b"\n".join(units) + b"\n")
    check(status, stdout, stderr, tracked)


@pytest.mark.parametrize("round_", range(2))
def test_mutated_lsp(workdir, round_):
    rng = random.Random(SEED + 100 + round_)
    units, tracked = messages(rng, 200)
    framed = bytearray()
    for unit in units:
        if rng.random() < 0.05:  # a broken header: only that message may be lost
            framed += b"Content-Length: %d\r\n" % len(unit) + unit
            tracked -= {obj.get("id") for obj in _objects(unit)}
        else:
            framed += b"Content-Length: %d\r\n\r\n" % len(unit) + unit
    status, stdout, stderr = run(workdir / "state", bytes(framed), "--framing", "lsp")
    bodies = []
    rest = stdout
    while rest:
        header, _, rest = rest.partition(b"\r\n\r\n")
        length = int(header.split(b":")[1])
        bodies.append(rest[:length])
        rest = rest[length:]
    check(status, b"\n".join(bodies), stderr, tracked)


def _objects(unit):
    try:
        value = json.loads(unit)
    except ValueError:
        return []
    return [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, dict)]
