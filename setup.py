"""Build the optional C simulation core, ``pinochlekit._core`` (see fastcore.py).

Everything else about the package is in pyproject.toml.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("pinochlekit._core", ["src/pinochlekit/_core.c"], extra_compile_args=["-O2"]),
        Extension("pinochlekit._table", ["src/pinochlekit/_table.c"], extra_compile_args=["-O2"]),
        Extension("pinochlekit._solver", ["src/pinochlekit/_solver.c"],
                  extra_compile_args=["-O2"]),
        Extension("pinochlekit._twosolver", ["src/pinochlekit/_twosolver.c"],
                  extra_compile_args=["-O2"]),
        # -ffp-contract=off: the two-handed policy's float sums must be Python's exactly
        Extension("pinochlekit._twocore", ["src/pinochlekit/_twocore.c"],
                  extra_compile_args=["-O2", "-ffp-contract=off"]),
    ],
)
