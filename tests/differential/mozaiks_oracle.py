"""The published Mozaiks runtime (``mozaiks==0.2.0``) run beside flowctx.

The release pins ``ag2==1.1.2``, which cannot live in the test environment next to the AG2
differential suite's ``ag2==0.14.0``, so it gets a virtual environment of its own, made once
under the test cache (``tests/.cache/mozaiks-0.2.0``, or ``$FLOWCTX_TEST_CACHE``) with pip.
``mozaiks_harness.py`` (this folder) runs in it as one subprocess per batch: JSON in, JSON out.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Final

from tests.prerequisites import Unavailable, cache_root, pip_venv

RELEASE: Final = "mozaiks==0.2.0"
HARNESS: Final = Path(__file__).with_name("mozaiks_harness.py")


def cache_dir() -> Path:
    return cache_root() / "mozaiks-0.2.0"


def install() -> Path:
    """The runtime's interpreter, making its environment first when it is not cached."""
    return pip_venv(
        cache_dir().name, [RELEASE], "import mozaiksai, factory_app; print(factory_app.__file__)"
    )


def factory_workflows(python: Path) -> Path:
    """The wheel's own ``factory_app/workflows`` (read only: tests copy it into tmp_path)."""
    out = subprocess.run(
        [
            str(python),
            "-c",
            "import factory_app, pathlib; "
            "print(pathlib.Path(factory_app.__file__).parent / 'workflows')",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(out.stdout.strip())


class MozaiksOracle:
    def __init__(self, python: Path) -> None:
        self.python = python

    def run(self, requests: list[dict[str, Any]], timeout: float = 1200) -> list[Any]:
        if not requests:
            return []
        proc = subprocess.run(
            [str(self.python), str(HARNESS)],
            input=json.dumps(requests),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            env={k: v for k, v in os.environ.items() if not k.startswith(("MOZAIKS_", "PYTHON"))},
        )
        try:
            answers = json.loads(proc.stdout)
        except ValueError:
            answers = None
        if proc.returncode != 0 or not isinstance(answers, list) or len(answers) != len(requests):
            raise RuntimeError(
                f"the mozaiks harness failed (exit {proc.returncode}): {proc.stderr[-2000:]}"
            )
        return answers


def oracle_or_reason() -> MozaiksOracle | str:
    """The oracle, or why it cannot run here (a one-line reason to skip with)."""
    try:
        return MozaiksOracle(install())
    except Unavailable as exc:
        return str(exc)
