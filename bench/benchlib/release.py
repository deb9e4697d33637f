"""The sidecar the bench measures: the release binary, built by scripts/build-release exactly as it is shipped."""

import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
LABEL = "Swift, release (scripts/build-release: runtime, libstdc++, libcrypto, libsqlite3 static)"


def build_release(scratch_path, dynamic=False, product=None):
    """Builds into `scratch_path`; returns (path of the binary, None) or (None, why there is none).

    `dynamic`: the previous recipe (only the Swift runtime static), to compare the two. `product`: another
    executable of the package built with the same flags (default: the sidecar)."""
    command = [str(ROOT / "scripts" / "build-release"), "--scratch-path", str(scratch_path)]
    command += ["--dynamic"] if dynamic else []
    command += ["--product", product] if product else []
    print(f"building: {' '.join(command)}", flush=True)
    started = time.monotonic()
    try:
        built = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    except OSError as error:
        return None, f"build failed: {error}"
    if built.returncode != 0:
        return None, "build failed:\n" + "\n".join((built.stdout + built.stderr).splitlines()[-25:])
    binary = Path(built.stdout.strip().splitlines()[-1])
    print(f"built in {time.monotonic() - started:.1f} s: {binary}", flush=True)
    return binary, None


def add_binary_arguments(parser):
    """--sidecar and --scratch-path, as every bench script takes them."""
    parser.add_argument("--sidecar", type=Path, help="measure this binary instead of building the release")
    parser.add_argument(
        "--scratch-path", type=Path, default=Path(tempfile.gettempdir()) / "build-bench",
        help="build directory (default: %(default)s, shared by the bench scripts)",
    )


def sidecar_binary(args):
    """(the binary given with --sidecar, or the release built into --scratch-path, None) or (None, why not)."""
    return (args.sidecar.resolve(), None) if args.sidecar else build_release(args.scratch_path)
