"""Only release wheels need this file: scripts/release copies the sidecar binary into
src/auth_sidecar/bin/ and names the platform it was built for in AUTH_SIDECAR_WHEEL_PLATFORM. A wheel
carrying that binary is a platform wheel (py3-none-<platform>), not a pure one; without the binary
(a source checkout) the package builds as the pure-Python client it is."""

import os

from setuptools import Distribution, setup
from setuptools.command.bdist_wheel import bdist_wheel

HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLED = os.path.isfile(os.path.join(HERE, "src", "auth_sidecar", "bin", "auth-sidecar"))


class BinaryDistribution(Distribution):
    """Holds a native executable: installed to platlib, as a compiled extension would be."""

    def has_ext_modules(self) -> bool:
        return True


class PlatformWheel(bdist_wheel):
    """Tags the wheel with the platform of the binary inside it; any Python 3 can drive that binary."""

    def get_tag(self) -> "tuple[str, str, str]":
        platform = os.environ.get("AUTH_SIDECAR_WHEEL_PLATFORM")
        if not platform:
            raise SystemExit("a wheel with the bundled binary needs AUTH_SIDECAR_WHEEL_PLATFORM (scripts/release)")
        return "py3", "none", platform


if BUNDLED:
    setup(distclass=BinaryDistribution, cmdclass={"bdist_wheel": PlatformWheel})
else:
    setup()
