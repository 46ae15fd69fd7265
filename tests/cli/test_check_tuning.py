"""Check codes users can tune: ``checks:`` in flowctx.yaml and ``# flowctx: ignore[code]``
comments, one mechanism for ``check``, the app's status line and the language server (the
language server's second round, item 7; the first hour's item 3).

Each through ``flowctx check`` on a copy of the demo in tmp_path: what is ignored leaves every
output and is counted (``N ignored``), a severity can be raised or lowered per code, per
``prefix.*`` and per path glob, mistakes are located in flowctx.yaml, and a workspace's own
files can never silence a security problem.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from flowctx_tui.cli import main
from flowctx_tui.cli.workspace_args import demo_path

CONTRACT = "workflows/AppGenerator/context_variables.yaml"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    shutil.copytree(demo_path(), root)
    return root


def add_checks(root: Path, block: str) -> None:
    profile = root / "flowctx.yaml"
    profile.write_text(profile.read_text() + "\n" + block)


def check_json(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = main(["check", str(root), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def codes(doc: dict[str, Any]) -> list[str]:
    return [p["code"] for p in doc["problems"]]


def test_a_code_ignored_for_the_workspace_is_counted_not_shown(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, before = check_json(ws, capsys)
    silent = codes(before).count("authority.silent-trigger")
    assert silent >= 3
    add_checks(ws, "checks:\n  authority.silent-trigger: ignore\n")
    _, after = check_json(ws, capsys)
    assert "authority.silent-trigger" not in codes(after)
    assert after["ignored"] == silent
    assert after["warnings"] == before["warnings"] - silent
    main(["check", str(ws)])
    summary = capsys.readouterr().out.splitlines()[-1]
    assert f"{silent} ignored" in summary, summary


def test_severity_per_code_prefix_and_path_glob(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add_checks(
        ws,
        "checks:\n"
        "  resolve.*: error\n"  # the missing file becomes an error
        "  files:\n"
        '    "workflows/Triage/**":\n'
        "      authority.*: warning\n",  # Triage's compile error is lowered there only
    )
    code, doc = check_json(ws, capsys)
    by_code = {(p["code"], p["file"]): p["severity"] for p in doc["problems"]}
    assert by_code[("resolve.file", CONTRACT)] == "error"
    assert by_code[("authority.compile", "workflows/Triage/transition_graph.yaml")] == "warning"
    # the same code elsewhere keeps its own severity
    assert by_code[("authority.silent-trigger", CONTRACT)] == "warning"
    assert code == 1  # an error is still an error


def test_an_ignore_comment_on_the_line_or_above_it(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = ws / CONTRACT
    text = path.read_text()
    # the missing file: a comment on the line the problem points at (its path key)
    text = text.replace(
        "      path: data/release_notes.md\n",
        "      path: data/release_notes.md  # flowctx: ignore[resolve.file]\n",
    )
    path.write_text(text)
    _, doc = check_json(ws, capsys)
    assert ("resolve.file", CONTRACT) not in {(p["code"], p["file"]) for p in doc["problems"]}
    assert doc["ignored"] == 1
    # a comment naming another code ignores nothing
    path.write_text(text.replace("ignore[resolve.file]", "ignore[resolve.state]"))
    _, doc = check_json(ws, capsys)
    assert doc["ignored"] == 0 and "resolve.file" in codes(doc)
    # a bare comment alone on the line above ignores every code of the next line
    path.write_text(
        text.replace("  # flowctx: ignore[resolve.file]", "").replace(
            "      path: data/release_notes.md\n",
            "      # flowctx: ignore\n      path: data/release_notes.md\n",
        )
    )
    _, doc = check_json(ws, capsys)
    assert "resolve.file" not in codes(doc) and doc["ignored"] == 1


def test_mistakes_in_checks_are_located(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    add_checks(ws, "checks:\n  authority.silent-triger: ignore\n  yaml: mute\n")
    main(["check", str(ws)])
    out = capsys.readouterr().out
    assert "unknown problem code (did you mean 'authority.silent-trigger'?)" in out
    assert "'mute' is not an action: use ignore, warning, error" in out
    lines = (ws / "flowctx.yaml").read_text().splitlines()
    row = next(n for n, r in enumerate(lines, 1) if "authority.silent-triger" in r)
    assert f"flowctx.yaml:{row}:" in out


def test_a_workspace_cannot_silence_a_security_problem(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a condition MemberJunction's evaluator would execute as code: a security error
    flow = ws / "workflows" / "Approvals" / "flow.yaml"
    if not flow.exists():
        pytest.skip("the demo has no flow.yaml")
    text = flow.read_text()
    condition = next(r for r in text.splitlines() if "condition:" in r)
    hostile = condition.split("condition:")[0] + "condition: \"globalThis['process'].pid > 0\""
    flow.write_text(text.replace(condition, hostile + "  # flowctx: ignore", 1))
    add_checks(ws, "checks:\n  security: ignore\n  '*': ignore\n")
    code, doc = check_json(ws, capsys)
    assert "security" in codes(doc), codes(doc)
    assert code == 1
    main(["check", str(ws)])
    out = capsys.readouterr().out
    assert "security problems cannot be ignored from a workspace file" in out
