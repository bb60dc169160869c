"""Build the optional C accelerators of :mod:`pinochlekit.native` (see its docstring).

Everything else about the package is in pyproject.toml.
"""

from setuptools import Extension, setup


def native(name: str, *flags: str) -> Extension:
    """The extension ``pinochlekit.native.NAME`` from ``src/pinochlekit/native/NAME.c``."""
    return Extension(f"pinochlekit.native.{name}", [f"src/pinochlekit/native/{name}.c"],
                     depends=["src/pinochlekit/native/pinochle.h"],
                     extra_compile_args=["-O2", *flags])


setup(
    ext_modules=[
        native("_core"),
        native("_table"),
        native("_solver"),
        native("_twosolver"),
        # -ffp-contract=off: the two-handed policy's float sums must be Python's exactly
        native("_twocore", "-ffp-contract=off"),
        native("_doublecore"),
    ],
)
