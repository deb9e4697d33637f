"""Before anything is timed: every template once, then the JSON-RPC framing cases the mix cannot hold
(answers with a null id, notifications, batches, blank lines, CRLF)."""

import json

from .cases import INVALID_PARAMS, INVALID_REQUEST, MIX, PARSE_ERROR, Case, check, ok
from .verify import WrongAnswer, check_answer, check_error, expect, parse

# Protocol requests use ids above the template ids so that a stray answer is easy to attribute.
FIRST_PROTOCOL_ID = 900
ALICE = check("alice", {"username": "alice"}, username=ok("alice"))


def notification(params):
    message = {"jsonrpc": "2.0", "method": "validate", "params": params}
    return json.dumps(message, separators=(",", ":")).encode()


def parse_error(server, request_id):
    server.send(b'{"jsonrpc":"2.0","id":%d,"method":"validate","params":{\n' % request_id)
    answer = parse(server.read_line())
    expect(answer.get("id", "<missing>") is None, f"parse error answered with id {answer.get('id')!r}")
    check_error(answer, PARSE_ERROR)


def wrong_version(server, request_id):
    server.send(b'{"jsonrpc":"1.0","id":%d,"method":"validate","params":{"username":"alice"}}\n' % request_id)
    answer = parse(server.read_line())
    # The id of an invalid request may be echoed or null: JSON-RPC 2.0 allows null when in doubt.
    expect(answer.get("id", "<missing>") in (request_id, None), f"id {answer.get('id')!r}")
    check_error(answer, INVALID_REQUEST)


def empty_batch(server, request_id):
    server.send(b"[]\n")
    check_error(parse(server.read_line()), INVALID_REQUEST)


def notification_unanswered(server, request_id):
    server.send(notification({"username": "alice"}) + b"\n" + ALICE.request(request_id))
    check_answer(parse(server.read_line()), ALICE, request_id)


def blank_lines_and_crlf(server, request_id):
    server.send(b"\n\r\n" + ALICE.request(request_id).replace(b"\n", b"\r\n"))
    check_answer(parse(server.read_line()), ALICE, request_id)


def batch(server, request_id):
    no_fields = Case("no fields", {}, error=INVALID_PARAMS)
    requests = [ALICE.request(request_id), no_fields.request(request_id + 1), notification({})]
    server.send(b"[" + b",".join(request.rstrip(b"\n") for request in requests) + b"]\n")
    answers = parse(server.read_line())
    expect(isinstance(answers, list) and len(answers) == 2, f"batch answered with {answers}")
    by_id = {answer.get("id"): answer for answer in answers if isinstance(answer, dict)}
    expect(set(by_id) == {request_id, request_id + 1}, f"batch answer ids {list(by_id)}")
    check_answer(by_id[request_id], ALICE, request_id)
    check_answer(by_id[request_id + 1], no_fields, request_id + 1)


def batch_of_notifications(server, request_id):
    batch_line = b"[" + notification({"username": "alice"}) + b"," + notification({}) + b"]\n"
    server.send(batch_line + ALICE.request(request_id))
    check_answer(parse(server.read_line()), ALICE, request_id)


PROTOCOL_CHECKS = [
    parse_error,
    wrong_version,
    empty_batch,
    notification_unanswered,
    blank_lines_and_crlf,
    batch,
    batch_of_notifications,
]


def conformance(server):
    """Runs every template and protocol check on `server`; returns [(check name, problem)]."""
    problems = []
    for request_id, case in enumerate(MIX, start=1):
        server.send(case.request(request_id))
        try:
            check_answer(parse(server.read_line()), case, request_id)
        except WrongAnswer as wrong:
            problems.append((case.name, str(wrong)))
    for offset, protocol_check in enumerate(PROTOCOL_CHECKS):
        try:
            protocol_check(server, FIRST_PROTOCOL_ID + 10 * offset)
        except WrongAnswer as wrong:
            problems.append((protocol_check.__name__.replace("_", " "), str(wrong)))
    return problems
