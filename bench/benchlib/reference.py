"""The C reference server (bench/reference/validate_server.c): compiled by the runner, never committed as a binary."""

import subprocess
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent
SOURCE = BENCH / "reference" / "validate_server.c"
PASSWORD_LIST = BENCH.parent / "Sources" / "AuthValidation" / "CommonPasswords.txt"


def build_reference(scratch):
    """Compiles the reference with `cc -O2` into `scratch`; returns (path of the binary, None) or (None, why not).

    Its common-password list is the sidecar's own, written beside it as a sorted C array, so both do the
    same lookup work."""
    scratch = Path(scratch)
    scratch.mkdir(parents=True, exist_ok=True)
    entries = sorted(
        line for line in PASSWORD_LIST.read_text(encoding="ascii").splitlines() if line and not line.startswith("# ")
    )
    header = "static const char *const COMMON_PASSWORDS[] = {\n" + "".join(f'  "{e}",\n' for e in entries) + "};\n"
    (scratch / "common_passwords.h").write_text(header)
    return compile_c(SOURCE, scratch / "validate-reference", ["-I", str(scratch)])


def compile_c(source, binary, arguments=()):
    """Compiles `source` into `binary` with `cc -O2 -std=c11 -Wall -Werror` and `arguments` (libraries last);
    returns (path of the binary, None) or (None, why not)."""
    command = ["cc", "-O2", "-std=c11", "-Wall", "-Werror", "-o", str(binary), str(source), *arguments]
    try:
        built = subprocess.run(command, capture_output=True, text=True)
    except OSError as error:
        return None, f"cc failed: {error}"
    if built.returncode != 0:
        return None, "cc failed:\n" + built.stderr[-2000:]
    return binary, None
