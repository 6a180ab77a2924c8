"""Build fevga's optional compiled core (fevga._core); without a C compiler the install still
succeeds and fevga runs on its pure-Python path (fevga.accel logs which one is in use)."""

from __future__ import annotations

import logging

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """build_ext that warns instead of failing when the extension cannot be compiled."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler, no Python headers, ...
            logging.warning("fevga._core not built (%s): fevga will use its pure-Python path", exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            logging.warning("fevga._core not built (%s): fevga will use its pure-Python path", exc)


setup(
    ext_modules=[
        Extension(
            "fevga._core",
            sources=["fevga/_core.c"],
            depends=[
                "fevga/_answer.h",
                "fevga/_encode.h",
                "fevga/_replies.h",
                "fevga/_walk.h",
                "fevga/_tavli_walk.h",
                "fevga/_tavli_core.h",
                "fevga/_tavli_encode.h",
                "fevga/_tavli_replies.h",
            ],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
