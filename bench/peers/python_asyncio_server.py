#!/usr/bin/env python3
"""Benchmark peer: auth-sidecar's `validate` as an idiomatic Python asyncio stdio server.

It reads newline-delimited JSON-RPC 2.0 requests from stdin and writes one compact JSON answer per
line to stdout, applying the rules of docs/validation-rules.md (password preset `standard`,
purposes `register` and `login`, English messages), so that bench/run.py compares the Swift
sidecar with an equivalent server doing the same work. Python 3.11 standard library only.

Stdin and stdout must be pipes or sockets: asyncio's pipe transports refuse regular files.
"""

import asyncio
import json
import re
import sys

# The sidecar's default message-size limit; longer lines are answered with -32600 and skipped.
MAX_MESSAGE_BYTES = 1 << 20

FIELDS = ("account", "username", "email", "phone", "password")  # canonical order of `fields`
OPTIONS = ("purpose", "locale", "profile")
REGISTER, LOGIN = "register", "login"

# "Trimmed" means Unicode White_Space; str.strip() alone would also strip U+001C–U+001F.
WHITE_SPACE = "\t\n\v\f\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + (
    "\u2028\u2029\u202f\u205f\u3000"
)
PHONE_SEPARATORS = str.maketrans("", "", " -.()")

USERNAME_CHARS = re.compile(r"[A-Za-z0-9_-]*")
EMAIL_LOCAL_CHARS = re.compile(r"[A-Za-z0-9._%+-]{1,64}")
DOMAIN_LABEL_CHARS = re.compile(r"[A-Za-z0-9-]+")
TOP_LEVEL_DOMAIN = re.compile(r"[A-Za-z]{2,64}")
E164 = re.compile(r"\+[1-9][0-9]{7,14}")
CHINA_MOBILE = re.compile(r"1[3-9][0-9]{9}")
PHONE_LIKE_ACCOUNT = re.compile(r"\+?[0-9]{8,}")
CONTROL_CHARACTER = re.compile(r"[\x00-\x1f\x7f]")

# A few dozen of the most common passwords (lower case; the comparison ignores case).
COMMON_PASSWORDS = frozenset(
    """
    123456 123456789 12345678 password qwerty 123123 12345 1234567 111111 1234567890 abc123
    password1 iloveyou 000000 qwerty123 1q2w3e4r 11111111 qwertyuiop 123321 654321 666666
    987654321 1qaz2wsx sunshine princess dragon monkey letmein football baseball welcome admin
    login master shadow superman trustno1 passw0rd p@ssw0rd starwars whatever zaq12wsx
    asdfghjkl 88888888 12341234 1234qwer qwe123 aa123456 147258369 password123 hello123 freedom
    """.split()
)

# English messages, worded as the sidecar words them so that all three write answers of the same size.
USERNAME_CHARACTERS = "can only contain English letters, digits, underscores (_) and hyphens (-)."
MESSAGES = {
    "username": {
        "required": "Username is required.",
        "too_short": "Username must be at least 3 characters.",
        "too_long": "Username must be at most 30 characters.",
        "invalid_characters": f"Username {USERNAME_CHARACTERS}",
    },
    "email": {
        "required": "Email address is required.",
        "too_long": "Email address must be at most 254 characters.",
        "invalid_format": "Email address is not valid.",
    },
    "phone": {
        "required": "Phone number is required.",
        "invalid_format": "Phone number is not valid.",
    },
    "password": {
        "required": "Password is required.",
        "too_short": "Password must be at least 8 characters.",
        "too_long": "Password must be at most 128 characters.",
        "invalid_characters": "Password cannot contain control characters.",
        "too_common": "Password is too common. Choose one that is harder to guess.",
    },
}
# An `account` field is named "Account" whatever its kind.
ACCOUNT_MESSAGES = {
    "username": {
        "required": "Account is required.",
        "too_short": "Account must be at least 3 characters.",
        "too_long": "Account must be at most 30 characters.",
        "invalid_characters": f"Account {USERNAME_CHARACTERS}",
    },
    "email": {
        "too_long": "Account must be at most 254 characters.",
        "invalid_format": "Account is not a valid email address.",
    },
    "phone": {"invalid_format": "Account is not a valid phone number."},
}


class InvalidParams(Exception):
    """Bad `validate` params: answered with -32602, naming the parameter at fault if there is one."""

    def __init__(self, message, field=None):
        super().__init__(f"Invalid params: {message}")
        self.field = field


# MARK: validation rules (docs/validation-rules.md)


def trim(text):
    return text.strip(WHITE_SPACE)


def check_username(raw, purpose):
    value = trim(raw)
    if not value:
        return value, ["required"]
    errors = []
    if purpose == REGISTER and len(value) < 3:
        errors.append("too_short")
    if len(value) > 30:
        errors.append("too_long")
    if not USERNAME_CHARS.fullmatch(value):
        errors.append("invalid_characters")
    return value, errors


def is_email(text):
    local, at, domain = text.rpartition("@")
    if not at or not EMAIL_LOCAL_CHARS.fullmatch(local):
        return False
    if local.startswith(".") or local.endswith(".") or ".." in local:
        return False
    labels = domain.split(".")
    if len(labels) < 2 or not TOP_LEVEL_DOMAIN.fullmatch(labels[-1]):
        return False
    return all(
        DOMAIN_LABEL_CHARS.fullmatch(label) and label[0] != "-" and label[-1] != "-"
        for label in labels
    )


def check_email(raw, purpose):
    value = trim(raw)
    if not value:
        return value, ["required"]
    local, at, domain = value.rpartition("@")
    if at:
        value = f"{local}@{domain.lower()}"
    errors = []
    if len(value) > 254:
        errors.append("too_long")
    # A login leaves the format to the server: presence and length only.
    if purpose == REGISTER and not is_email(value):
        errors.append("invalid_format")
    return value, errors


def check_phone(raw, purpose):
    value = trim(raw)
    if not value:
        return value, ["required"]
    compact = value.translate(PHONE_SEPARATORS)
    if E164.fullmatch(compact):
        return compact, []
    if CHINA_MOBILE.fullmatch(compact):
        return "+86" + compact, []
    return compact, ["invalid_format"]


def check_password(raw, purpose):
    """Never trimmed; lengths are code points, which is what len() counts."""
    if not raw:
        return None, ["required"]
    errors = []
    if purpose == REGISTER and len(raw) < 8:
        errors.append("too_short")
    if len(raw) > 128:
        errors.append("too_long")
    if purpose == REGISTER:
        if CONTROL_CHARACTER.search(raw):
            errors.append("invalid_characters")
        if raw.lower() in COMMON_PASSWORDS:
            errors.append("too_common")
    return None, errors


CHECKS = {
    "username": check_username,
    "email": check_email,
    "phone": check_phone,
    "password": check_password,
}


def classify_account(value):
    if "@" in value:
        return "email"
    if PHONE_LIKE_ACCOUNT.fullmatch(value.translate(PHONE_SEPARATORS)):
        return "phone"
    return "username"


def field_result(name, raw, purpose):
    kind = classify_account(trim(raw)) if name == "account" else name
    value, codes = CHECKS[kind](raw, purpose)
    result = {"valid": not codes}
    if value is not None:
        result["value"] = value
    if name == "account":
        result["kind"] = kind
    messages = ACCOUNT_MESSAGES[kind] if name == "account" else MESSAGES[kind]
    result["errors"] = [{"code": code, "message": messages[code]} for code in codes]
    return result


def json_type(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return {dict: "object", list: "array"}.get(type(value), "number")


def checked_params(params):
    """Returns (purpose, names of the fields sent) or raises InvalidParams."""
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise InvalidParams("params must be an object.")
    for key, value in params.items():
        if key not in FIELDS and key not in OPTIONS:
            raise InvalidParams(f"unknown parameter {json.dumps(key)}.", key)
        if not isinstance(value, str):
            raise InvalidParams(f'"{key}" must be a string, not {json_type(value)}.', key)
    purpose = params.get("purpose", REGISTER)
    if purpose not in (REGISTER, LOGIN):
        raise InvalidParams('"purpose" must be "register" or "login".', "purpose")
    names = [name for name in FIELDS if name in params]
    if not names:
        raise InvalidParams("give at least one of account, username, email, phone, password.")
    return purpose, names


def validate(params):
    purpose, names = checked_params(params)
    fields = {name: field_result(name, params[name], purpose) for name in names}
    return {"valid": all(field["valid"] for field in fields.values()), "fields": fields}


# MARK: JSON-RPC 2.0


def error_response(request_id, code, kind, message, **details):
    error = {"code": code, "message": message, "data": {"kind": kind, "retryable": False, **details}}
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def invalid_request(request_id=None):
    return error_response(request_id, -32600, "invalid_request", "Invalid request.")


def is_valid_id(value):
    return value is None or isinstance(value, str) or (
        isinstance(value, (int, float)) and not isinstance(value, bool)
    )


def handle_request(message):
    """Answers one request object; returns None for a notification."""
    if not isinstance(message, dict) or not is_valid_id(message.get("id")):
        return invalid_request()
    request_id = message.get("id")
    params = message.get("params")
    if message.get("jsonrpc") != "2.0" or not isinstance(message.get("method"), str):
        return invalid_request(request_id)
    if "params" in message and not isinstance(params, (dict, list)):
        return invalid_request(request_id)
    method = message["method"]
    if method != "validate":
        response = error_response(request_id, -32601, "method_not_found", "Method not found.", method=method)
    else:
        try:
            response = {"jsonrpc": "2.0", "id": request_id, "result": validate(params)}
        except InvalidParams as error:
            details = {} if error.field is None else {"field": error.field}
            response = error_response(request_id, -32602, "invalid_params", str(error), **details)
    return response if "id" in message else None


def handle_message(message):
    """Answers a request or a batch; returns None when nothing is to be written."""
    if not isinstance(message, list):
        return handle_request(message)
    if not message:
        return invalid_request()
    responses = [response for item in message if (response := handle_request(item)) is not None]
    return responses or None


def reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def finite_float(text):
    """1e400 would become inf, which json.dumps cannot write back as JSON."""
    number = float(text)
    if number in (float("inf"), float("-inf")):
        raise ValueError("number out of range")
    return number


def answer_line(line):
    """Turns one input line into the bytes to write (b"" when there is no answer)."""
    try:
        text = line.decode()  # strict UTF-8; json.loads(bytes) would also guess UTF-16/32
        message = json.loads(text, parse_constant=reject_constant, parse_float=finite_float)
    except (ValueError, RecursionError):  # bad UTF-8, bad JSON, or nested too deep
        return encode(error_response(None, -32700, "parse_error", "Parse error."))
    response = handle_message(message)
    return b"" if response is None else encode(response)


def encode(response):
    try:
        text = json.dumps(response, ensure_ascii=False, separators=(",", ":"))
        return text.encode() + b"\n"
    except UnicodeEncodeError:  # a lone surrogate from a \ud800 escape: escape it instead
        return json.dumps(response, separators=(",", ":")).encode() + b"\n"


# MARK: asyncio stdio


class StdoutProtocol(asyncio.Protocol):
    """Write side of stdout: honours the transport's flow control and reports when it closes."""

    def __init__(self):
        loop = asyncio.get_running_loop()
        self.closed = loop.create_future()
        self._resumed = None

    def pause_writing(self):
        self._resumed = asyncio.get_running_loop().create_future()

    def resume_writing(self):
        if self._resumed is not None and not self._resumed.done():
            self._resumed.set_result(None)
        self._resumed = None

    async def drain(self):
        if self._resumed is not None:
            await self._resumed

    def connection_lost(self, exc):
        if not self.closed.done():
            self.closed.set_result(None)
        self.resume_writing()


async def skip_rest_of_line(reader):
    """Drops an oversized line without buffering it all."""
    while True:
        try:
            await reader.readuntil(b"\n")
            return
        except asyncio.LimitOverrunError as overrun:
            await reader.readexactly(overrun.consumed)
        except asyncio.IncompleteReadError:
            return


async def next_line(reader):
    """The next line (b"" at end of input), or None for an oversized line that was skipped."""
    try:
        return await reader.readuntil(b"\n")
    except asyncio.IncompleteReadError as end:  # a last line without "\n", or b""
        return end.partial
    except asyncio.LimitOverrunError:
        await skip_rest_of_line(reader)
        return None


async def open_stdio():
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=MAX_MESSAGE_BYTES + 2)  # + "\r\n"
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin.buffer)
    transport, protocol = await loop.connect_write_pipe(StdoutProtocol, sys.stdout.buffer)
    return reader, transport, protocol


async def serve():
    reader, transport, protocol = await open_stdio()
    while (line := await next_line(reader)) != b"":
        if line is None:
            answer = encode(invalid_request())
        elif line.strip():
            answer = answer_line(line)
        else:
            continue  # blank lines are ignored
        if answer:
            transport.write(answer)
            await protocol.drain()
    transport.close()  # flushes what is buffered before closing
    await protocol.closed


if __name__ == "__main__":
    asyncio.run(serve())
