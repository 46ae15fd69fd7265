"""The habits kept as files agree with the one gate: ``make check`` runs what .ci/run runs once
its fresh virtual environment is set up, and the contributors' pre-commit hooks run the same
lint, format, import and type checks."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
INSTALL = "pip install -e '.[test]' && "


def ci_commands() -> list[str]:
    """The commands .ci/run runs in its virtual environment: the README's test command (after
    the install), then every command line up to the closing message (the docs extra's install
    comes before the test command, so it is not one of them)."""
    lines = (REPO / ".ci" / "run").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(INSTALL))
    out = [lines[start].removeprefix(INSTALL)]
    for line in lines[start + 1 :]:
        if line.startswith("echo "):
            break
        if line.strip() and not line.lstrip().startswith("#"):
            out.append(line.strip())
    return out


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_check_runs_what_ci_runs() -> None:
    dry = subprocess.run(
        ["make", "-n", "-s", "check"], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert dry.stdout.splitlines() == ci_commands()


def test_ci_checks_both_packages_types() -> None:
    assert "mypy flowctx_core flowctx_tui" in ci_commands()


def test_the_pre_commit_hooks_run_the_gate_s_checks() -> None:
    config = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text())
    hooks = [hook for repo in config["repos"] for hook in repo["hooks"]]
    # every hook runs the contributor's own tools, never a downloaded copy
    assert all(repo["repo"] == "local" for repo in config["repos"])
    assert all(hook["language"] == "system" for hook in hooks)
    tools = {" ".join(shlex.split(hook["entry"])[:2]) for hook in hooks}
    gate = {" ".join(shlex.split(command)[:2]) for command in ci_commands()[1:]}
    # the same tools as the gate (ruff's hooks may fix what they find; the gate only checks)
    assert tools == gate
    whole = {hook["entry"] for hook in hooks if hook.get("pass_filenames") is False}
    assert whole == {"lint-imports", "mypy flowctx_core flowctx_tui", "mkdocs build --strict"}


def test_ci_installs_the_docs_extra_and_builds_the_site_strictly() -> None:
    lines = [line.strip() for line in (REPO / ".ci" / "run").read_text().splitlines()]
    assert "pip install -q -e '.[docs]'" in lines
    docs = lines.index("pip install -q -e '.[docs]'")
    assert docs < lines.index(INSTALL + "python -m pytest -n 2 -q")
    assert "mkdocs build --strict" in ci_commands()
