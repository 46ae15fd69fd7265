"""What parts of the suite need beyond Python, and the one-line reason to skip without it.

The real engines (MemberJunction and mermaid under node, the Mozaiks release in a venv of its
own) are installed on first use into the test cache: ``tests/.cache``, or
``$FLOWCTX_TEST_CACHE``. Where a tool is missing or the package registry cannot be reached,
the tests that need it skip with a reason a newcomer can act on, never with a traceback.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

#: what pip says when the package index cannot be reached (or holds nothing: a closed mirror)
PIP_OFFLINE = re.compile(
    r"No matching distribution found|Could not find a version that satisfies"
    r"|Failed to establish a new connection|Temporary failure in name resolution"
    r"|NewConnectionError|Network is unreachable"
)


def pip_offline(output: str) -> str | None:
    """The line where pip says it cannot reach the package index, or None."""
    for line in output.splitlines():
        if PIP_OFFLINE.search(line):
            return line.strip()[:200]
    return None


class Unavailable(Exception):
    """A prerequisite is missing here; the message is the one-line reason to skip with."""


def cache_root() -> Path:
    env = os.environ.get("FLOWCTX_TEST_CACHE")
    return Path(env) if env else Path(__file__).resolve().parent / ".cache"


def missing_tools(*tools: str) -> str | None:
    """``"node is not installed (...)"`` for the first of ``tools`` not on PATH, else None."""
    for tool in tools:
        if shutil.which(tool) is None:
            return f"{tool} is not installed (.ci/run installs nodejs and npm when missing)"
    return None


def last_line(text: str | bytes | None, limit: int = 200) -> str:
    """The last non-blank line of a tool's output, for a reason that stays on one line."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    return lines[-1][:limit] if lines else "no output"


def npm_install(folder: str, packages: Sequence[str], installed: str) -> Path:
    """``npm install packages`` into ``cache_root()/folder`` once (``installed``: a path in it
    that exists once they are), and that folder; Unavailable when node or npm is missing or
    the registry cannot be reached."""
    reason = missing_tools("node", "npm")
    if reason is not None:
        raise Unavailable(reason)
    root = cache_root() / folder
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as lock:  # xdist workers install once between them
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / installed).exists():
            what = " ".join(packages)
            try:
                subprocess.run(
                    ["npm", "install", "--prefix", str(root), "--no-audit", "--no-fund",
                     "--ignore-scripts", "--loglevel=error", *packages],
                    check=True,
                    capture_output=True,
                    timeout=600,
                )  # fmt: skip
            except subprocess.CalledProcessError as exc:
                why = f"npm could not install {what} (registry access?)"
                raise Unavailable(f"{why}: {last_line(exc.stderr or exc.stdout)}") from None
            except subprocess.TimeoutExpired:
                raise Unavailable(f"npm did not install {what} within 10 minutes") from None
    if not (root / installed).exists():
        raise Unavailable(f"npm installed {' '.join(packages)} but {installed} is missing")
    return root


def pip_venv(folder: str, requirements: Sequence[str], probe: str, timeout: float = 1500) -> Path:
    """The interpreter of a venv in ``cache_root()/folder`` with ``requirements`` installed by
    pip, made once (xdist workers wait for each other); ``probe`` is Python code that must run
    in it. Unavailable when no venv can be made or the index cannot be reached."""
    import sys
    import venv

    root = cache_root() / folder
    root.mkdir(parents=True, exist_ok=True)
    python = root / "venv" / "bin" / "python"
    ready = root / "installed"
    what = " ".join(requirements)
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if ready.exists() and python.exists():
            return python
        shutil.rmtree(root / "venv", ignore_errors=True)
        try:
            venv.EnvBuilder(with_pip=True).create(root / "venv")
        except (subprocess.CalledProcessError, OSError) as exc:
            # Debian's python3 without python3-venv has no ensurepip
            why = last_line(getattr(exc, "stderr", None) or getattr(exc, "output", None) or "")
            raise Unavailable(
                f"cannot make a venv with pip here ({exc.__class__.__name__}: {why}); install "
                f"python3-venv ({sys.executable})"
            ) from None
        try:
            subprocess.run(
                [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                 *requirements],
                check=True,
                capture_output=True,
                text=True,
                timeout=timeout,
            )  # fmt: skip
        except subprocess.CalledProcessError as exc:
            why = last_line(exc.stderr or exc.stdout)
            raise Unavailable(f"pip could not install {what} (index access?): {why}") from None
        except subprocess.TimeoutExpired:
            raise Unavailable(f"pip did not install {what} within {timeout:.0f} s") from None
        found = subprocess.run(
            [str(python), "-c", probe], capture_output=True, text=True, check=False
        )
        if found.returncode != 0:
            raise Unavailable(f"{what} installed but does not run: {last_line(found.stderr)}")
        ready.write_text(what + "\n")
    return python
