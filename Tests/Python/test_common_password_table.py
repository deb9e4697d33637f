"""The common-password table the binary embeds (Sources/AuthValidation/CommonPasswordTable.swift) is generated from
CommonPasswords.txt by scripts/generate-common-passwords: it must be what the list gives now."""
import re
import subprocess

from conftest import ROOT

SCRIPT = ROOT / "scripts" / "generate-common-passwords"
LIST = ROOT / "Sources" / "AuthValidation" / "CommonPasswords.txt"
TABLE = ROOT / "Sources" / "AuthValidation" / "CommonPasswordTable.swift"


def test_the_committed_table_is_what_the_list_gives():
    run = subprocess.run([str(SCRIPT), "--check"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_the_table_holds_every_entry_of_the_list_once():
    entries = [line for line in LIST.read_text(encoding="ascii").splitlines() if line and not line.startswith("# ")]
    table = TABLE.read_text(encoding="utf-8")
    literal = "".join(re.findall(r"^    (\S+?)\\?$", table.split('"""')[1], flags=re.M))
    assert len(entries) > 400
    assert sorted(entries, key=lambda entry: (len(entry), entry)) and len(literal) == sum(map(len, entries))
    assert f"The {len(entries)} entries" in table
