"""``flowctx_core``'s public API, as a CI script or a notebook uses it: every name in
``__all__`` resolves, the documented example runs on the demo and gives what the commands
print, the package says it is typed, and ``python -m flowctx`` is the command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import flowctx_core as fc
from flowctx_tui.cli import main
from flowctx_tui.cli.workspace_args import demo_path

#: the names the API page documents: adding or removing one is a decision, not a drift
DOCUMENTED = {
    "CheckReport", "Diagnostic", "EvalResult", "Matrix", "RouteDecision", "Row", "Session",
    "UnknownRuntime", "WorkspaceNotFound", "__version__", "check_workspace", "count_problems",
    "evaluate", "open_session", "workspace_report",
}  # fmt: skip


def test_every_public_name_resolves_and_is_documented() -> None:
    assert set(fc.__all__) == DOCUMENTED
    for name in fc.__all__:
        assert getattr(fc, name) is not None, name
    page = (Path(__file__).resolve().parents[1] / "docs" / "api.md").read_text()
    for name in DOCUMENTED - {"__version__"}:
        assert f"`{name}" in page, f"docs/api.md does not name {name}"
    with pytest.raises(AttributeError):
        fc.not_a_name  # noqa: B018


def test_the_documented_example_gives_what_the_commands_print(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    root = tmp_path / "demo"
    shutil.copytree(demo_path(), root)
    session = fc.open_session(root)
    matrix = session.matrix("AppGenerator")
    assert isinstance(matrix, fc.Matrix)
    row = matrix.row("max_build_iterations")
    assert row is not None and row.value == 5
    problems = fc.check_workspace(session)
    counted = fc.count_problems(problems)
    main(["check", str(root)])
    summary = capsys.readouterr().out.strip().splitlines()[-1]
    assert f"{counted.errors} error(s), {counted.warnings} warning(s)" in summary
    decisions = session.decide("AppGenerator", "InterviewAgent")
    assert decisions and isinstance(decisions[0], fc.RouteDecision)
    result = fc.evaluate("payload.total > 10", {"payload": {"total": 12}}, "mj")
    assert isinstance(result, fc.EvalResult) and result.success and result.value is True
    with pytest.raises(fc.WorkspaceNotFound):
        fc.open_session(tmp_path / "nowhere")


def test_the_package_is_typed_and_versioned() -> None:
    assert (Path(fc.__file__).parent / "py.typed").is_file()
    from importlib.metadata import version

    assert fc.__version__ == version("flowctx")


def test_python_dash_m_flowctx_is_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "flowctx", "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"flowctx {fc.__version__}"
