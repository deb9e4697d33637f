"""Checks answers against the verdicts of benchlib.cases."""

import json
import re
from collections import Counter

from .cases import FIELD_ORDER


class WrongAnswer(Exception):
    """An answer that differs from what the rules imply (or is not a JSON-RPC answer at all)."""


def parse(line):
    try:
        return json.loads(line)
    except ValueError as error:
        raise WrongAnswer(f"not JSON ({error}): {line[:120]!r}") from None


def expect(condition, problem):
    if not condition:
        raise WrongAnswer(problem)


def check_envelope(answer, request_id):
    expect(isinstance(answer, dict), f"not an object: {str(answer)[:120]}")
    expect(answer.get("jsonrpc") == "2.0", 'no "jsonrpc":"2.0"')
    actual_id = answer.get("id", "<missing>")
    # `True == 1` in Python, so compare types as well.
    expect(
        type(actual_id) is type(request_id) and actual_id == request_id,
        f"id {actual_id!r}, expected {request_id!r}",
    )


def check_error(answer, code):
    """An error answer with `code` and the shape {code, message, data: {kind}}."""
    error = answer.get("error")
    expect("result" not in answer and isinstance(error, dict), f"expected error {code}, got {answer}")
    expect(error.get("code") == code, f"error code {error.get('code')}, expected {code}")
    expect(isinstance(error.get("message"), str) and error["message"], "error without a message")
    data = error.get("data")
    expect(isinstance(data, dict) and isinstance(data.get("kind"), str), "error without data.kind")


def check_field(name, field, verdict):
    expect(isinstance(field, dict), f"{name}: not an object")
    errors = field.get("errors")
    expect(isinstance(errors, list) and all(isinstance(e, dict) for e in errors), f"{name}: bad errors")
    codes = [error.get("code") for error in errors]
    expect(codes == list(verdict.codes), f"{name}: codes {codes}, expected {list(verdict.codes)}")
    expect(field.get("valid") is (not verdict.codes), f"{name}: valid is {field.get('valid')}")
    expect(
        all(isinstance(error.get("message"), str) and error["message"] for error in errors),
        f"{name}: an error without a message",
    )
    if name == "password":
        expect("value" not in field, "password: the answer carries a value")
    else:
        expect(isinstance(field.get("value"), str), f"{name}: no value")
    if verdict.value is not None:
        expect(field["value"] == verdict.value, f"{name}: value {field['value']!r}, expected {verdict.value!r}")
    expect(field.get("kind") == verdict.kind, f"{name}: kind {field.get('kind')!r}, expected {verdict.kind!r}")


def check_result(answer, case):
    result = answer.get("result")
    expect("error" not in answer and isinstance(result, dict), f"expected a result, got {answer}")
    expect(result.get("valid") is case.valid, f"valid is {result.get('valid')}, expected {case.valid}")
    fields = result.get("fields")
    expect(isinstance(fields, dict), "no fields object")
    expected_names = [name for name in FIELD_ORDER if name in case.fields]
    expect(list(fields) == expected_names, f"fields {list(fields)}, expected {expected_names}")
    for name in expected_names:
        check_field(name, fields[name], case.fields[name])


def check_answer(answer, case, request_id):
    """Raises WrongAnswer at the first difference from the answer `case` must get."""
    check_envelope(answer, request_id)
    if case.error is not None:
        check_error(answer, case.error)
    else:
        check_result(answer, case)


# Answers are compact JSON, so the id of a numbered request appears as `"id":123`.
ID_PATTERN = re.compile(rb'"id":(\d+)(?=[,}])')


class StreamChecker:
    """Checks a stream of answers to requests numbered 1..n, fast.

    An answer that is byte for byte one already checked for the same template, apart from its id, is
    not parsed again: a few hundred distinct answers stand for a million.
    """

    def __init__(self, cases, case_of_id):
        self.cases = cases
        self.case_of_id = case_of_id  # case_of_id[request_id] = index into cases (index 0 unused)
        self.answered = bytearray(len(case_of_id))
        self.problems = Counter()  # (case name, problem) -> count
        self._verdicts = {}  # (case index, answer with its id cut out) -> problem or None

    def check_line(self, line):
        match = ID_PATTERN.search(line)
        request_id = int(match[1]) if match else 0
        if not 0 < request_id < len(self.case_of_id):
            return self._note("?", self._problem_of_unknown(line))
        if self.answered[request_id]:
            return self._note(self.cases[self.case_of_id[request_id]].name, f"id {request_id} answered twice")
        self.answered[request_id] = 1
        index = self.case_of_id[request_id]
        key = (index, line[: match.start(1)] + line[match.end(1) :])
        if key not in self._verdicts:
            self._verdicts[key] = self._problem(line, self.cases[index], request_id)
        if self._verdicts[key]:
            self._note(self.cases[index].name, self._verdicts[key])

    def check_all_answered(self, last_id=None):
        """Notes the requests 1..last_id (default: all) that got no answer."""
        last_id = len(self.answered) - 1 if last_id is None else last_id
        missing = self.answered.count(0, 1, last_id + 1)
        if missing:
            self._note("?", f"{missing} requests never answered")

    @staticmethod
    def _problem(line, case, request_id):
        try:
            check_answer(parse(line), case, request_id)
            return None
        except WrongAnswer as wrong:
            return str(wrong)

    @staticmethod
    def _problem_of_unknown(line):
        return f"an answer with no known id: {line[:160]!r}"

    def _note(self, case_name, problem):
        self.problems[(case_name, problem)] += 1
