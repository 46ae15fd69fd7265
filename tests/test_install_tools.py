"""The wheel installs the way the docs' install page leads with: ``pipx install`` and
``uv tool install``, each into homes of its own under tmp_path, then the installed ``flowctx``
runs from its own bin folder: the version, ``check --demo``, ``python -m flowctx`` inside the
tool's environment, and the bash completion script sourced in a real bash.

pipx and uv are installed once into the test cache (``tests/.cache/install-tools``); without
the package index the tests skip, saying so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.prerequisites import Unavailable, pip_venv

REPO = Path(__file__).resolve().parents[1]

# a wheel, two tool installs of it and their dependencies: about a minute
pytestmark = pytest.mark.slow


def run(
    args: list[str | Path], env: dict[str, str], timeout: float = 900
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(a) for a in args], env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"{args}: {done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done


@pytest.fixture(scope="module")
def tools() -> Path:
    """The bin folder holding pipx and uv."""
    try:
        python = pip_venv("install-tools", ["pipx", "uv"], "import pipx, uv")
    except Unavailable as exc:
        pytest.skip(str(exc))
    return python.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", out, REPO], dict(os.environ)
    )
    (built,) = out.glob("flowctx-*.whl")
    return built


def _clean_env(home: Path, **extra: str) -> dict[str, str]:
    """An environment as a new user's: no venv active, flowctx not on PATH, a home of its own;
    the machine's own network settings (proxies, certificate bundles, pip's) kept."""
    network = ("PROXY", "SSL_", "CERT", "CA_BUNDLE", "PIP_", "UV_")
    keep = {
        k: v
        for k, v in os.environ.items()
        if k in ("LANG", "LC_ALL", "TERM") or any(part in k.upper() for part in network)
    }
    path = [p for p in os.environ.get("PATH", "").split(os.pathsep) if "venv" not in p]
    return {**keep, "HOME": str(home), "PATH": os.pathsep.join(path), "NO_COLOR": "1", **extra}


def _try_installed(bin_dir: Path, env: dict[str, str]) -> None:
    flowctx = bin_dir / "flowctx"
    assert flowctx.is_file(), sorted(p.name for p in bin_dir.iterdir())
    version = run([flowctx, "--version"], env).stdout
    assert version.startswith("flowctx ") and "unknown" not in version
    # the bundled demo is inside the installed package, and checks as in a checkout
    checked = subprocess.run(
        [flowctx, "check", "--demo"], env=env, capture_output=True, text=True, timeout=300
    )
    assert checked.returncode == 1, checked.stderr  # the demo's Triage is refused on purpose
    assert checked.stdout.splitlines()[-1].startswith("FAILED: 3 workflow(s), 1 error(s)")
    # outside any workspace, a one-shot command stops with exit 2 and says why
    outside = Path(env["HOME"]) / "empty"
    outside.mkdir(exist_ok=True)
    stopped = subprocess.run(
        [flowctx, "check"], env=env, cwd=outside, capture_output=True, text=True, timeout=300
    )
    assert stopped.returncode == 2 and "no workspace at or above" in stopped.stderr
    # bash completion from the installed script
    if shutil.which("bash"):
        script = run([flowctx, "completion", "bash"], env).stdout
        (Path(env["HOME"]) / "flowctx.bash").write_text(script)
        program = (
            f"source {Path(env['HOME']) / 'flowctx.bash'}; COMP_WORDS=(flowctx che); "
            "COMP_CWORD=1; _flowctx; printf '%s\\n' \"${COMPREPLY[@]}\""
        )
        offered = run(["bash", "--norc", "--noprofile", "-c", program], env).stdout.split()
        assert offered == ["check"]


def test_pipx_installs_the_wheel(tools: Path, wheel: Path, tmp_path: Path) -> None:
    env = _clean_env(
        tmp_path,
        PIPX_HOME=str(tmp_path / "pipx-home"),
        PIPX_BIN_DIR=str(tmp_path / "bin"),
        PIPX_MAN_DIR=str(tmp_path / "man"),
    )
    run([tools / "pipx", "install", wheel], env)
    _try_installed(tmp_path / "bin", env)
    listed = run([tools / "pipx", "list", "--short"], env).stdout
    assert listed.startswith("flowctx ")
    # flowctx(1), linked where `man` finds pipx's pages
    assert (tmp_path / "man" / "man1" / "flowctx.1").is_file()


def test_uv_tool_installs_the_wheel(tools: Path, wheel: Path, tmp_path: Path) -> None:
    env = _clean_env(
        tmp_path,
        UV_TOOL_DIR=str(tmp_path / "uv-tools"),
        UV_TOOL_BIN_DIR=str(tmp_path / "bin"),
        UV_CACHE_DIR=str(tools.parent.parent / "uv-cache"),
        UV_PYTHON=sys.executable,
    )
    run([tools / "uv", "tool", "install", wheel], env)
    _try_installed(tmp_path / "bin", env)
    # python -m flowctx in the tool's own environment
    python = next((tmp_path / "uv-tools").glob("flowctx/bin/python"))
    assert run([python, "-m", "flowctx", "--version"], env).stdout.startswith("flowctx ")
