"""The code at another revision, for a benchmark's "before" column measured in the same run.

``export(rev, into)`` unpacks the revision with ``git archive`` (the working tree is not
touched) and returns the folder; a child process started with ``child_env(folder)`` imports
flowctx from there instead of from this checkout. Both sides then see the same machine load,
which on a shared machine moves more than most changes do.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def export(rev: str, into: Path) -> Path:
    """The tree of ``rev`` unpacked under ``into`` (raises SystemExit for an unknown rev)."""
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True, check=False)
    if archive.returncode != 0:
        raise SystemExit(f"--before {rev}: {archive.stderr.decode(errors='replace').strip()}")
    folder = into / "before"
    folder.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def label(rev: str) -> str:
    """``rev`` and the commit it names, as the figures are labelled."""
    done = subprocess.run(
        ["git", "rev-parse", "--short", rev], cwd=ROOT, capture_output=True, text=True, check=False
    )
    commit = done.stdout.strip()
    return f"{rev} ({commit})" if commit and commit != rev else rev


def child_env(tree: Path | None = None) -> dict[str, str]:
    """The environment of a measured child: byte-code written and read (an installed flowctx
    has it; without it every run would compile the modules again) and, for ``tree``, flowctx
    imported from that folder."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("FLOWCTX_MONGO_URI", None)
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(tree), env.get("PYTHONPATH", "")]).rstrip(
            os.pathsep
        )
    return env


def load_average() -> str:
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return "load average unknown"
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"
