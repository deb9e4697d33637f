"""The fixed table of request templates and the answers docs/validation-rules.md implies for them.

Every request the runner sends comes from this table, so every answer can be checked: the verdicts
below are worked out by hand from the rules, not taken from any implementation. Messages are not
compared (each implementation words them its own way); codes, validity, order, `value` and `kind` are.

Passwords that must be `too_common` are ones every common-password list has; the valid ones are in
none, so the verdicts hold whatever list an implementation embeds.
"""

import json
from dataclasses import dataclass, field

FIELD_ORDER = ("account", "username", "email", "phone", "password")

# JSON-RPC error codes.
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602


@dataclass(frozen=True)
class Verdict:
    """The expected answer for one field."""

    codes: tuple = ()  # error codes, in rule order; empty when the field is valid
    value: str | None = None  # normalized value, checked when the field is valid (never for password)
    kind: str | None = None  # `account` only: email, phone or username


@dataclass(frozen=True)
class Case:
    """One request template: params (or a raw line) and the answer it must get."""

    name: str
    params: object = None
    method: str = "validate"
    fields: dict = field(default_factory=dict)  # field name -> Verdict, for a `result`
    error: int | None = None  # expected error code instead of a result

    @property
    def valid(self):
        return all(not verdict.codes for verdict in self.fields.values())

    def request(self, request_id):
        message = {"jsonrpc": "2.0", "id": request_id, "method": self.method}
        if self.params is not None:
            message["params"] = self.params
        return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def ok(value=None, kind=None):
    return Verdict((), value, kind)


def bad(*codes, kind=None):
    return Verdict(tuple(codes), None, kind)


def check(name, params, **fields):
    """A `validate` case; the verdict keywords name the fields that were sent."""
    return Case(name, params, fields=fields)


def fails(name, error, params=None, method="validate"):
    return Case(name, params, method=method, error=error)


LOGIN = {"purpose": "login"}
GOOD_PASSWORD = "Tr4nslucent-0wl!"

USERNAME_CASES = [
    check("username ok", {"username": "alice_01"}, username=ok("alice_01")),
    check("username trimmed", {"username": " \tBob-the-builder \n"}, username=ok("Bob-the-builder")),
    check("username trimmed NBSP", {"username": "\u00a0carol\u3000"}, username=ok("carol")),
    check("username 3 chars", {"username": "abc"}, username=ok("abc")),
    check("username 30 chars", {"username": "u" * 30}, username=ok("u" * 30)),
    check("username too short", {"username": "al"}, username=bad("too_short")),
    check("username too long", {"username": "u" * 31}, username=bad("too_long")),
    check("username bad chars", {"username": "bad name!"}, username=bad("invalid_characters")),
    check("username 2 code points", {"username": "é!"}, username=bad("too_short", "invalid_characters")),
    check("username non-ASCII letter", {"username": "josé_1"}, username=bad("invalid_characters")),
    check("username empty", {"username": ""}, username=bad("required")),
    check("username blank", {"username": "   "}, username=bad("required")),
]

EMAIL_CASES = [
    check("email ok", {"email": "alice@example.com"}, email=ok("alice@example.com")),
    check(
        "email domain lower-cased",
        {"email": " Alice.Smith+tag@Mail.Example.COM "},
        email=ok("Alice.Smith+tag@mail.example.com"),
    ),
    check("email local %_-", {"email": "a_b%c-d@x-y.io"}, email=ok("a_b%c-d@x-y.io")),
    check("email no @", {"email": "alice.example.com"}, email=bad("invalid_format")),
    check("email two @", {"email": "a@b@example.com"}, email=bad("invalid_format")),
    check("email doubled dot", {"email": "a..b@example.com"}, email=bad("invalid_format")),
    check("email leading dot", {"email": ".a@example.com"}, email=bad("invalid_format")),
    check("email trailing dot", {"email": "a.@example.com"}, email=bad("invalid_format")),
    check("email local 65", {"email": "l" * 65 + "@example.com"}, email=bad("invalid_format")),
    check("email label -", {"email": "a@-example.com"}, email=bad("invalid_format")),
    check("email empty label", {"email": "a@example..com"}, email=bad("invalid_format")),
    check("email no tld", {"email": "a@example"}, email=bad("invalid_format")),
    check("email tld 1", {"email": "a@example.c"}, email=bad("invalid_format")),
    check("email tld digit", {"email": "a@example.c0m"}, email=bad("invalid_format")),
    check("email space", {"email": "a b@example.com"}, email=bad("invalid_format")),
    check("email too long", {"email": "a@" + "b." * 130 + "com"}, email=bad("too_long")),
    check("email empty", {"email": ""}, email=bad("required")),
]

PHONE_CASES = [
    check("phone E.164", {"phone": "+14155552671"}, phone=ok("+14155552671")),
    check("phone separators", {"phone": " +44 (20) 7946-0958 "}, phone=ok("+442079460958")),
    check("phone China mobile", {"phone": "138 0013 8000"}, phone=ok("+8613800138000")),
    check("phone 8 digits", {"phone": "+12345678"}, phone=ok("+12345678")),
    check("phone 15 digits", {"phone": "+123456789012345"}, phone=ok("+123456789012345")),
    check("phone 7 digits", {"phone": "+1234567"}, phone=bad("invalid_format")),
    check("phone 16 digits", {"phone": "+1234567890123456"}, phone=bad("invalid_format")),
    check("phone leading 0", {"phone": "+0123456789"}, phone=bad("invalid_format")),
    check("phone 12 prefix", {"phone": "12812345678"}, phone=bad("invalid_format")),
    check("phone letters", {"phone": "+1 415 CALL NOW"}, phone=bad("invalid_format")),
    check("phone short", {"phone": "12345"}, phone=bad("invalid_format")),
    check("phone empty", {"phone": ""}, phone=bad("required")),
]

PASSWORD_CASES = [
    check("password ok", {"password": GOOD_PASSWORD}, password=ok()),
    check("password 8", {"password": "zq8#Lm2p"}, password=ok()),
    check("password 128", {"password": "k" * 128}, password=ok()),
    check("password not trimmed", {"password": "  hunter2  "}, password=ok()),
    check("password 8 emoji", {"password": "😀" * 8}, password=ok()),
    check("password combining", {"password": "e\u0301" * 4}, password=ok()),
    check("password 4 emoji", {"password": "😀" * 4}, password=bad("too_short")),
    check("password short", {"password": "short"}, password=bad("too_short")),
    check("password 129", {"password": "k" * 129}, password=bad("too_long")),
    check("password common", {"password": "password"}, password=bad("too_common")),
    check("password common case", {"password": "PassWord"}, password=bad("too_common")),
    check("password common digits", {"password": "12345678"}, password=bad("too_common")),
    check("password tab", {"password": "tab\there-ok"}, password=bad("invalid_characters")),
    check("password DEL", {"password": "ab\x7f"}, password=bad("too_short", "invalid_characters")),
    check("password NUL", {"password": "nul\x00byte-here"}, password=bad("invalid_characters")),
    check("password blank", {"password": "        "}, password=ok()),
    check("password empty", {"password": ""}, password=bad("required")),
]

ACCOUNT_CASES = [
    check("account email", {"account": " Bob@Example.ORG"}, account=ok("Bob@example.org", "email")),
    check("account E.164", {"account": "+1 415 555 2671"}, account=ok("+14155552671", "phone")),
    check("account China", {"account": "13800138000"}, account=ok("+8613800138000", "phone")),
    check("account username", {"account": "alice_01"}, account=ok("alice_01", "username")),
    check("account digits bad", {"account": "12345678"}, account=bad("invalid_format", kind="phone")),
    check("account 7 digits", {"account": "1234567"}, account=ok("1234567", "username")),
    check("account bad email", {"account": "bob@"}, account=bad("invalid_format", kind="email")),
    check("account spaces", {"account": "bob smith"}, account=bad("invalid_characters", kind="username")),
    check("account short", {"account": "ab"}, account=bad("too_short", kind="username")),
    check("account empty", {"account": ""}, account=bad("required", kind="username")),
]

FORM_CASES = [
    check(
        "register form ok",
        {"password": GOOD_PASSWORD, "email": "alice@example.com", "username": "alice_01"},
        username=ok("alice_01"),
        email=ok("alice@example.com"),
        password=ok(),
    ),
    check(
        "register form bad",
        {"username": "al", "email": "bad", "phone": "123", "password": "password"},
        username=bad("too_short"),
        email=bad("invalid_format"),
        phone=bad("invalid_format"),
        password=bad("too_common"),
    ),
    check(
        "register form options",
        {"purpose": "register", "locale": "en", "profile": "default", "phone": "+8613800138000"},
        phone=ok("+8613800138000"),
    ),
    check(
        "all five fields",
        {"password": "x", "phone": "+14155552671", "email": "a@b.co", "username": "a", "account": "a@b.co"},
        account=ok("a@b.co", "email"),
        username=bad("too_short"),
        email=ok("a@b.co"),
        phone=ok("+14155552671"),
        password=bad("too_short"),
    ),
]

LOGIN_CASES = [
    check("login short ok", {**LOGIN, "username": "al", "password": "short"}, username=ok("al"), password=ok()),
    check("login common ok", {**LOGIN, "password": "password"}, password=ok()),
    check("login control ok", {**LOGIN, "password": "tab\tok"}, password=ok()),
    check("login username long", {**LOGIN, "username": "u" * 31}, username=bad("too_long")),
    check("login username chars", {**LOGIN, "username": "bad name"}, username=bad("invalid_characters")),
    check("login password empty", {**LOGIN, "password": ""}, password=bad("required")),
    check("login password 129", {**LOGIN, "password": "k" * 129}, password=bad("too_long")),
    check("login email any shape", {**LOGIN, "email": "a@b"}, email=ok("a@b")),
    check("login email ok", {**LOGIN, "email": "Bob@Example.com"}, email=ok("Bob@example.com")),
    check("login phone", {**LOGIN, "phone": "138-0013-8000"}, phone=ok("+8613800138000")),
    check("login account short", {**LOGIN, "account": "ab"}, account=ok("ab", "username")),
    check("login account email", {**LOGIN, "account": "bob@"}, account=ok("bob@", "email")),
    check(
        "login form",
        {**LOGIN, "account": "alice@example.com", "password": "hunter2"},
        account=ok("alice@example.com", "email"),
        password=ok(),
    ),
]

ERROR_CASES = [
    fails("unknown method", METHOD_NOT_FOUND, {"username": "alice"}, method="validateAll"),
    fails("no params", INVALID_PARAMS),
    fails("no fields", INVALID_PARAMS, {}),
    fails("options only", INVALID_PARAMS, {"purpose": "login"}),
    fails("unknown key", INVALID_PARAMS, {"nickname": "al"}),
    fails("number field", INVALID_PARAMS, {"username": 5}),
    fails("null field", INVALID_PARAMS, {"password": None}),
    fails("bad purpose", INVALID_PARAMS, {"purpose": "signup", "username": "alice"}),
    fails("positional params", INVALID_PARAMS, ["alice"]),
]

# The mix the throughput and latency runs draw from: every template above.
MIX = (
    USERNAME_CASES
    + EMAIL_CASES
    + PHONE_CASES
    + PASSWORD_CASES
    + ACCOUNT_CASES
    + FORM_CASES
    + LOGIN_CASES
    + ERROR_CASES
)

# The one request of a cold start: a typical login-form check.
COLD_START = FORM_CASES[0]
