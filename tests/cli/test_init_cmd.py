"""``flowctx init [PATH]``: a first workspace the runtime discovers and flowctx checks clean,
the next commands to try, and never a file overwritten. (That mozaiks 0.2.0 itself loads it
and answers as flowctx does: tests/differential/test_mozaiks_differential.py.)"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import pytest
import yaml

from flowctx_tui.cli import main


@pytest.fixture(autouse=True)
def _plain_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith(("FLOWCTX_", "MOZAIKS_", "GREETING_")):
            monkeypatch.delenv(name, raising=False)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_init_writes_a_workspace_check_passes_with_no_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "first workspace"
    code, out, err = run(capsys, "init", str(root))
    assert (code, err) == (0, "")
    folder = root / "workflows" / "Hello"
    orchestrator = yaml.safe_load((folder / "orchestrator.yaml").read_text())
    # what the runtime's discovery and strict workflow manager ask for
    assert orchestrator["schema_version"] == "mozaiks.orchestrator.v1"
    assert orchestrator["workflow_name"] == folder.name
    assert orchestrator["workflow_startup_mode"] in ("AgentDriven", "UserDriven", "BackendOnly")
    for name in ("agents.yaml", "context_variables.yaml", "transition_graph.yaml"):
        assert (folder / name).is_file()
    assert json.loads((root / "seed" / "default" / "apps.json").read_text())
    # the next three commands, runnable as printed (the path quoted for the shell)
    lines = out.splitlines()
    tries = lines[lines.index("Next, try:") + 1 :]
    assert [shlex.split(t.split("  #")[0])[:2] for t in tries] == [
        ["flowctx", "check"], ["flowctx", "routes"], ["flowctx", str(root)],
    ]  # fmt: skip

    code, out, err = run(capsys, "check", str(root), "--format", "json")
    doc = json.loads(out)
    assert (code, err) == (0, "")
    assert (doc["errors"], doc["warnings"], doc["problems"], doc["refused"]) == (0, 0, [], {})
    assert doc["runtime"].startswith("mozaiks 0.2.0")
    # the command as init printed it
    code, out, _ = run(capsys, *shlex.split(tries[0].split("  #")[0])[1:])
    assert code == 0
    assert out.splitlines()[-1].startswith("ok: 1 workflow(s), 0 error(s), 0 warning(s)")


def test_routes_works_on_the_new_workspace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "init", str(tmp_path))
    assert code == 0
    suggested = next(line for line in out.splitlines() if "flowctx routes" in line)
    code, out, err = run(capsys, *shlex.split(suggested.split("  #")[0])[1:])
    assert (code, err) == (0, "")
    assert out.splitlines()[-1].startswith("winner: user")
    # the state variable the greeter sets (an exact trigger) is what the rule routes on
    code, out, _ = run(
        capsys, "routes", str(tmp_path), "--from", "GreeterAgent", "--context",
        '{"greeted": true}',
    )  # fmt: skip
    assert code == 0 and out.splitlines()[-1].startswith("winner: HelperAgent")
    code, out, _ = run(capsys, "matrix", str(tmp_path), "--format", "json")
    rows = {r["name"]: r for r in json.loads(out)["variables"]}
    assert code == 0
    assert rows["app_name"]["value"] == "Hello World"  # from the seed document
    assert rows["greeting_style"]["value"] == "friendly"  # from flowctx.yaml's env
    # and its test cases, which say the same, pass
    code, out, _ = run(capsys, "test", str(tmp_path))
    assert code == 0 and out.splitlines()[-1] == "2 passed, 0 failed (2 cases in 1 files)"


def test_init_never_overwrites(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "flowctx.yaml").write_text("env: {MINE: kept}\n")
    code, out, err = run(capsys, "init", str(tmp_path))
    assert (code, out) == (1, "")
    assert err.startswith(f"flowctx: {tmp_path}: already holds flowctx.yaml; init never overwrites")
    assert "nothing was written" in err
    assert (tmp_path / "flowctx.yaml").read_text() == "env: {MINE: kept}\n"
    assert not (tmp_path / "workflows").exists()
    # another workflow name in an empty folder is fine; a second init there is refused
    other = tmp_path / "other"
    assert run(capsys, "init", str(other), "--workflow", "Intake")[0] == 0
    assert (
        yaml.safe_load((other / "workflows/Intake/orchestrator.yaml").read_text())["workflow_name"]
        == "Intake"
    )
    code, _, err = run(capsys, "init", str(other), "--workflow", "Intake")
    assert code == 1 and "workflows/Intake/orchestrator.yaml" in err


@pytest.mark.parametrize("linked", ["workflows", "seed", ".flowctx", "workflows/Greeter"])
def test_init_never_writes_through_a_symlinked_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], linked: str
) -> None:
    """A folder to init that already links ``workflows`` (or ``seed``, ``.flowctx``...)
    elsewhere: nothing is written there, nor anywhere."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    ws = tmp_path / "ws"
    link = ws / linked
    link.parent.mkdir(parents=True)
    link.symlink_to(elsewhere, target_is_directory=True)
    before = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))
    code, out, err = run(capsys, "init", str(ws), "--workflow", "Greeter")
    assert (code, out) == (1, "")
    assert err.startswith(f"flowctx: {ws}: ")
    assert "is a symbolic link; init writes only inside the folder" in err
    assert "nothing was written" in err
    assert list(elsewhere.iterdir()) == []
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == before


def test_bad_arguments_are_messages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    code, _, err = run(capsys, "init", str(afile))
    assert code == 2 and "is a file; give a folder" in err
    code, _, err = run(capsys, "init", str(tmp_path / "w"), "--workflow", "../escape")
    assert code == 2 and "a workflow name is a letter then letters" in err
    assert not (tmp_path / "escape").exists() and not (tmp_path / "w").exists()


def test_init_without_path_writes_into_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "init")
    assert code == 0 and "  flowctx check .  " in out
    assert (tmp_path / "workflows" / "Hello" / "orchestrator.yaml").is_file()


def test_runtime_is_written_as_the_workspace_s_runtime(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "init", str(tmp_path / "a"), "--runtime", "mozaik")
    assert code == 2 and "unknown runtime 'mozaik' (did you mean 'mozaiks'?)" in err
    assert not (tmp_path / "a").exists()
    assert run(capsys, "init", str(tmp_path / "b"), "--runtime", "mozaiks")[0] == 0
    profile = yaml.safe_load((tmp_path / "b" / "flowctx.yaml").read_text())
    assert profile["runtime"] == "mozaiks-0.2.0"
    code, out, _ = run(capsys, "check", str(tmp_path / "b"))
    assert code == 0 and "0 error(s), 0 warning(s) [runtime mozaiks 0.2.0" in out
