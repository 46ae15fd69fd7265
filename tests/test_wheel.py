"""The installed import names never clash with another distribution's top-level ``core``.

The source folder is ``core/``, but the wheel ships it as ``flowctx_core`` (through the
``flowctx_core -> core`` symlink): a bare top-level ``core`` package in a wheel is overwritten
by, or overwrites, any other distribution that ships one, and ``core`` is a common name. This
builds the wheel of this checkout, installs it into a fresh virtual environment next to a tiny
distribution that ships ``core``, and runs both side by side.
"""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

# building a wheel and a virtual environment takes about half a minute
pytestmark = pytest.mark.slow


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def other_core_wheel(folder: Path) -> Path:
    """A distribution ``othercore`` whose only package is a top-level ``core``, with a module
    named as one of flowctx's own (``core/session.py``)."""
    files = {
        "core/__init__.py": b'WHO = "othercore"\n',
        "core/session.py": b'def open_session():\n    return "othercore session"\n',
        "othercore-1.0.dist-info/METADATA": (
            b"Metadata-Version: 2.1\nName: othercore\nVersion: 1.0\n"
        ),
        "othercore-1.0.dist-info/WHEEL": (
            b"Wheel-Version: 1.0\nGenerator: flowctx-tests\nRoot-Is-Purelib: true\n"
            b"Tag: py3-none-any\n"
        ),
    }
    record = [_record_line(name, data) for name, data in files.items()]
    record.append("othercore-1.0.dist-info/RECORD,,")
    path = folder / "othercore-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as wheel:
        for name, data in files.items():
            wheel.writestr(name, data)
        wheel.writestr("othercore-1.0.dist-info/RECORD", "\n".join(record) + "\n")
    return path


def run(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, check=False, timeout=600
    )
    assert result.returncode == 0, f"{args}: {result.stdout}\n{result.stderr}"
    return result


def test_the_wheel_installs_beside_another_top_level_core(tmp_path: Path) -> None:
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp_path / "dist", REPO)
    (built,) = (tmp_path / "dist").glob("flowctx-*.whl")
    with zipfile.ZipFile(built) as wheel:
        top = {name.split("/", 1)[0] for name in wheel.namelist()}
    dist_info = built.name.split("-py3")[0] + ".dist-info"
    # flowctx: `python -m flowctx` (its __main__ only); the .data folder: flowctx(1)
    data = dist_info.replace(".dist-info", ".data")
    assert top == {"flowctx", "flowctx_core", "flowctx_tui", dist_info, data}
    with zipfile.ZipFile(built) as wheel:
        names = set(wheel.namelist())
        metadata = wheel.read(f"{dist_info}/METADATA").decode()
    assert "flowctx_core/py.typed" in names
    assert f"{data}/data/share/man/man1/flowctx.1" in names
    # what a package index shows: an SPDX licence, classifiers and keywords
    assert "License-Expression: MIT" in metadata
    assert "Classifier: Typing :: Typed" in metadata and "Keywords: " in metadata

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    flowctx = venv / ("Scripts/flowctx.exe" if os.name == "nt" else "bin/flowctx")
    # the other distribution first, then flowctx: neither install may touch the other's files
    for wheel in (other_core_wheel(tmp_path), built):
        install = ("install", "--no-deps", "--no-index", "-q", wheel)
        run(sys.executable, "-m", "pip", "--python", python, *install)
    purelib = run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))")
    site = Path(purelib.stdout.strip())
    # flowctx's dependencies (pydantic, PyYAML, ...) come from the test environment, appended
    # after the fresh environment's own packages; a .pth line adds a folder without running
    # that folder's .pth files, so the checkout's editable install stays out
    (site / "zz_test_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")

    help_text = run(flowctx, "--help", cwd=tmp_path).stdout
    assert "usage: flowctx" in help_text and "matrix" in help_text

    workspace = tmp_path / "ws" / "workflows" / "Hello"
    workspace.mkdir(parents=True)
    (workspace / "context_variables.yaml").write_text(
        textwrap.dedent(
            """\
            definitions:
              greeting: {type: string, source: {type: state, default: hi}}
            agents:
              HelloAgent: {variables: [greeting]}
            """
        )
    )
    both = run(
        python,
        "-c",
        textwrap.dedent(
            f"""\
            import core, core.session, flowctx_core, flowctx_core.session as fs
            print(core.WHO, core.session.open_session())
            print(flowctx_core.__file__.startswith({str(site)!r}))
            session = fs.open_session({str(tmp_path / "ws")!r}, env={{}})
            print(session.matrix("Hello").row("greeting").value)
            """
        ),
        cwd=tmp_path,
    ).stdout.splitlines()
    assert both == ["othercore othercore session", "True", "hi"]

    matrix = run(flowctx, "matrix", tmp_path / "ws", "--format", "json", cwd=tmp_path).stdout
    assert '"greeting"' in matrix
