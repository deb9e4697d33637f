"""The release artifacts carry a working binary and the clients find it: scripts/release packages the binary
under test (--binary: the debug build, so no release build runs here), then the wheel is installed into a fresh
venv and the npm package into an empty app, offline, and each logs in with no AUTH_SIDECAR_BIN and no
auth-sidecar on PATH. scripts/install puts the binary under a prefix, where the README's `users` examples run as
written."""
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest

from conftest import ROOT

BINARY = os.environ.get("AUTH_SIDECAR_BIN")
VERSION = (ROOT / "VERSION").read_text(encoding="utf-8").strip()
ARCH = os.uname().machine
NODE_ARCH = {"x86_64": "x64", "aarch64": "arm64"}.get(ARCH, ARCH)
PASSWORD = "correct horse battery staple"
HANG_GUARD = 600  # seconds: a loaded machine builds a wheel and a venv slowly; never a timing assertion

pytestmark = pytest.mark.skipif(not BINARY, reason="AUTH_SIDECAR_BIN is not set")


def clean_env(tmp_path, **extra):
    """No AUTH_SIDECAR_BIN, a PATH without auth-sidecar on it, and a private home and state directory."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(tmp_path / "home"), "LANG": "C.UTF-8",
           "TMPDIR": os.environ.get("TMPDIR", "/tmp"), "AUTH_SIDECAR_STATE_DIR": str(tmp_path / "state")}
    assert shutil.which("auth-sidecar", path=env["PATH"]) is None, "auth-sidecar must not be on PATH here"
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([str(ROOT / "scripts" / "release"), "--binary", BINARY, "--out", str(out)], check=True,
                   timeout=HANG_GUARD)
    return out


def test_the_three_artifacts_and_nothing_else(dist):
    assert sorted(path.name for path in dist.iterdir()) == sorted([
        f"auth-sidecar-{VERSION}-linux-{ARCH}.tar.gz",
        f"auth_sidecar-{VERSION}-py3-none-linux_{ARCH}.whl",
        f"auth-sidecar-{VERSION}-linux-{NODE_ARCH}.tgz",
    ])


def test_tarball_holds_the_binary_and_the_documents(dist, tmp_path):
    name = f"auth-sidecar-{VERSION}-linux-{ARCH}"
    with tarfile.open(dist / f"{name}.tar.gz") as tar:
        files = {member.name: member for member in tar.getmembers() if member.isfile()}
        assert sorted(files) == [f"{name}/{path}" for path in
                                 ["CHANGELOG.md", "LICENSE", "README.md", "bin/auth-sidecar", "schema/openrpc.json"]]
        assert files[f"{name}/bin/auth-sidecar"].mode == 0o755
        assert {member.uid for member in files.values()} == {0}
        tar.extractall(tmp_path, filter="data")
    binary = tmp_path / name / "bin" / "auth-sidecar"
    # Stripped: no symbol table left.
    assert b".symtab" not in subprocess.run(["readelf", "-S", str(binary)], capture_output=True).stdout
    run = subprocess.run([str(binary), "call", "validate", '{"username":"alice"}'], capture_output=True, text=True,
                         env=clean_env(tmp_path), timeout=HANG_GUARD)
    assert run.returncode == 0 and '"valid":true' in run.stdout.replace(" ", ""), run


def test_wheel_in_a_fresh_venv_logs_in_with_the_binary_it_carries(dist, tmp_path):
    wheel = dist / f"auth_sidecar-{VERSION}-py3-none-linux_{ARCH}.whl"
    with zipfile.ZipFile(wheel) as archive:
        info = archive.getinfo("auth_sidecar/bin/auth-sidecar")
        assert (info.external_attr >> 16) & 0o111, "the binary must be executable once installed"
        metadata = archive.read(f"auth_sidecar-{VERSION}.dist-info/METADATA").decode()
        assert "License-Expression: Apache-2.0" in metadata
        assert f"Tag: py3-none-linux_{ARCH}" in archive.read(f"auth_sidecar-{VERSION}.dist-info/WHEEL").decode()
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=HANG_GUARD)
    subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", "--no-index", "--disable-pip-version-check",
                    str(wheel)], check=True, timeout=HANG_GUARD)
    script = f"""
import auth_sidecar
from auth_sidecar import AuthSidecar, resolve_binary
print(resolve_binary())
with AuthSidecar() as sidecar:
    sidecar.register(username="alice", password={PASSWORD!r})
    print(sidecar.login(account="alice", password={PASSWORD!r})["user"]["username"])
    print(sidecar.status()["version"], auth_sidecar.__version__)
    sidecar.logout()
"""
    run = subprocess.run([str(venv / "bin" / "python"), "-c", script], capture_output=True, text=True,
                         env=clean_env(tmp_path), cwd=tmp_path, timeout=HANG_GUARD)
    assert run.returncode == 0, run.stderr
    found, user, versions = run.stdout.splitlines()
    assert found.startswith(str(venv)) and found.endswith("auth_sidecar/bin/auth-sidecar")
    assert user == "alice" and versions == f"{VERSION} {VERSION}"


@pytest.mark.skipif(not shutil.which("npm"), reason="npm is not installed")
def test_npm_package_in_an_empty_app_logs_in_with_the_binary_it_carries(dist, tmp_path):
    app = tmp_path / "app"
    app.mkdir()
    (app / "package.json").write_text('{"name": "app", "version": "1.0.0", "private": true, "type": "module"}\n')
    tarball = dist / f"auth-sidecar-{VERSION}-linux-{NODE_ARCH}.tgz"
    # --offline: the package has no dependencies, so nothing may be fetched.
    subprocess.run(["npm", "install", "--offline", "--no-audit", "--no-fund", "--silent", str(tarball)], cwd=app,
                   check=True, timeout=HANG_GUARD, env=dict(os.environ, npm_config_cache=str(tmp_path / "npm-cache")))
    package = app / "node_modules" / "auth-sidecar"
    assert os.access(package / "bin" / "auth-sidecar", os.X_OK)
    assert os.path.realpath(app / "node_modules" / ".bin" / "auth-sidecar") == str(package / "bin" / "auth-sidecar")
    # No close(): the host must still exit by itself once nothing is pending.
    (app / "app.mjs").write_text(f"""
import {{ AuthSidecar, findBinary }} from 'auth-sidecar';
console.log(findBinary());
const sidecar = await AuthSidecar.start();
await sidecar.register({{ username: 'alice', password: {PASSWORD!r} }});
console.log((await sidecar.login({{ account: 'alice', password: {PASSWORD!r} }})).user.username);
console.log((await sidecar.status()).version);
await sidecar.logout();
""")
    run = subprocess.run([shutil.which("node"), "app.mjs"], cwd=app, capture_output=True, text=True,
                         env=clean_env(tmp_path), timeout=HANG_GUARD)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [str(package / "bin" / "auth-sidecar"), "alice", VERSION]


def readme_users_examples():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = next(block for block in re.findall(r"```sh\n(.*?)```", readme, re.S) if "auth-sidecar users add" in block)
    return [line.split("  #")[0].strip() for line in block.strip().splitlines()]


def test_installed_binary_runs_the_readme_users_examples_as_written(tmp_path):
    prefix = tmp_path / "prefix"
    subprocess.run([str(ROOT / "scripts" / "install"), "--prefix", str(prefix), "--binary", BINARY], check=True,
                   timeout=HANG_GUARD, stdout=subprocess.DEVNULL)
    assert os.access(prefix / "bin" / "auth-sidecar", os.X_OK)
    assert (prefix / "share" / "doc" / "auth-sidecar" / "LICENSE").is_file()
    # The examples touch the default store; here HOME is private, so that is tmp_path/home/.local/state.
    env = clean_env(tmp_path, PATH=f"{prefix / 'bin'}:/usr/local/bin:/usr/bin:/bin")
    del env["AUTH_SIDECAR_STATE_DIR"]
    add, listing, passwd, unlock, remove = readme_users_examples()
    assert add.startswith("printf") and listing == "auth-sidecar users list"
    outputs = []
    for command, stdin in [(add, ""), (listing, ""), (passwd, "a new horse battery staple\n"), (unlock, ""),
                           (remove, ""), (listing, "")]:
        run = subprocess.run(["sh", "-c", command], input=stdin, capture_output=True, text=True, env=env,
                             timeout=HANG_GUARD)
        assert run.returncode == 0, (command, run.stderr)
        outputs.append(run.stdout)
    assert '"username":"alice"' in outputs[1].replace(" ", "") and outputs[5] == ""
    assert (tmp_path / "home" / ".local" / "state" / "auth-sidecar" / "store.sqlite3").is_file()
