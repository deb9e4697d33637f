"""The Neovim client's headless cases: one `nvim --headless` per case file (case_*.lua), against
the binary in $AUTH_SIDECAR_BIN. A case passes only by printing its PASS line, so a case that
stopped early or never ran its checks fails."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
CASES = sorted(p.stem.removeprefix("case_") for p in HERE.glob("case_*.lua"))


@pytest.mark.parametrize("case", CASES)
def test_case(case: str, tmp_path: Path) -> None:
    nvim = shutil.which("nvim")
    assert nvim, "nvim is not installed (scripts/test installs Debian's neovim)"
    assert os.environ.get("AUTH_SIDECAR_BIN"), "AUTH_SIDECAR_BIN names the binary under test"
    env = dict(os.environ, AUTH_NVIM_TEST_DIR=str(tmp_path), HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path),
               XDG_DATA_HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path))
    for name in ("AUTH_SIDECAR_CONFIG", "AUTH_SIDECAR_KEY", "AUTH_SIDECAR_STATE_DIR"):
        env.pop(name, None)
    # -u NONE -i NONE: no user config, no shada file; the case sets up the runtimepath itself. A Lua
    # error in the case file exits 1 instead of leaving Neovim waiting for input.
    run = (f"lua local ok, e = pcall(dofile, {str(HERE / f'case_{case}.lua')!r}) "
           "if not ok then io.stderr:write('ERROR: ' .. tostring(e) .. '\\n') vim.cmd('cquit 1') end")
    done = subprocess.run([nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", run],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env, cwd=tmp_path,
                          timeout=300)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert f"PASS {case}" in done.stdout.splitlines(), output
