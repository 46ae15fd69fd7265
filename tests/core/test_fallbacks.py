"""The fallbacks file (MOZAIKS_CONTEXT_FALLBACKS_FILE): lookup order, where the path points,
and every way the file can be unusable ("no fallbacks" plus a visible warning)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from flowctx_core.model.fallbacks import Fallbacks, load_fallbacks
from flowctx_core.model.inputs import ResolveInputs
from flowctx_core.model.matrix import Matrix
from flowctx_core.session import open_session
from tests.conftest import WriteWorkspace

ENV_NAME = "MOZAIKS_CONTEXT_FALLBACKS_FILE"

CONTRACT = """
definitions:
  policy:
    type: string
    source: {type: data_reference, database_name: default, collection: policies}
agents:
  A: {variables: [policy]}
"""


def inputs(value: str | None, **extra: str) -> ResolveInputs:
    env = dict(extra)
    if value is not None:
        env[ENV_NAME] = value
    return ResolveInputs(env=env)


def found(fb: Fallbacks, workflow: str, var: str) -> tuple[bool, Any, list[tuple[str, str]]]:
    hit, value, steps = fb.lookup(workflow, var)
    return hit, value, [(s.step, s.outcome) for s in steps]


def test_lookup_order_workflow_then_global(tmp_path: Path) -> None:
    (tmp_path / "fb.json").write_text(
        '{"global": {"a": "g-a", "b": "g-b"}, "workflows": {"approvals": {"a": "w-a"}}}',
        encoding="utf-8",
    )
    fb = load_fallbacks(tmp_path, inputs("fb.json"))
    assert fb.warning is None and fb.display == "fb.json"
    assert found(fb, "Approvals", "a") == (True, "w-a", [("fallback: workflow", "used")])
    assert found(fb, "APPROVALS", "b") == (
        True,
        "g-b",
        [("fallback: workflow", "missing"), ("fallback: global", "used")],
    )
    assert found(fb, "Other", "a")[1] == "g-a"
    hit, _, steps = found(fb, "Approvals", "c")
    assert not hit
    assert steps[-1] == ("fallback: flat", "skipped")


def test_a_flat_file_is_consulted_only_without_global_or_workflows(tmp_path: Path) -> None:
    (tmp_path / "flat.json").write_text('{"a": 1, "b": null}', encoding="utf-8")
    fb = load_fallbacks(tmp_path, inputs("flat.json"))
    assert found(fb, "W", "a") == (
        True,
        1,
        [
            ("fallback: workflow", "missing"),
            ("fallback: global", "missing"),
            ("fallback: flat", "used"),
        ],
    )
    (tmp_path / "wrapped.json").write_text('{"workflows": {}, "a": 1}', encoding="utf-8")
    wrapped = load_fallbacks(tmp_path, inputs("wrapped.json"))
    assert found(wrapped, "W", "a")[0] is False


def test_not_configured_is_silent(tmp_path: Path) -> None:
    fb = load_fallbacks(tmp_path, inputs(None))
    assert fb.data is None and fb.display is None
    hit, _, steps = fb.lookup("W", "a")
    assert not hit
    assert [(s.step, s.outcome, s.detail) for s in steps] == [
        ("fallbacks", "skipped", f"{ENV_NAME} not set")
    ]
    assert load_fallbacks(tmp_path, inputs("   ")).display is None


def test_a_relative_path_resolves_against_the_workspace_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "ws"
    (root / "local").mkdir(parents=True)
    (root / "local" / "fb.json").write_text('{"a": "root"}', encoding="utf-8")
    cwd = tmp_path / "cwd"
    (cwd / "local").mkdir(parents=True)
    (cwd / "local" / "fb.json").write_text('{"a": "cwd"}', encoding="utf-8")
    monkeypatch.chdir(cwd)
    fb = load_fallbacks(root, inputs("local/fb.json"))
    assert fb.lookup("W", "a")[1] == "root"
    assert fb.watched == (root / "local" / "fb.json",)


def test_outside_the_root_is_refused_unless_allowed(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (tmp_path / "shared.json").write_text('{"a": "outside"}', encoding="utf-8")
    refused = load_fallbacks(root, inputs("../shared.json"))
    assert refused.data is None
    assert refused.warning is not None
    assert refused.warning.startswith("no fallbacks: refused: '../shared.json' resolves outside")
    absolute = load_fallbacks(root, inputs(str(tmp_path / "shared.json")))
    assert absolute.data is None and "outside the workspace root" in (absolute.warning or "")
    allowed = load_fallbacks(root, inputs("../shared.json", CONTEXT_FILE_ALLOW_OUTSIDE_ROOT="yes"))
    assert allowed.lookup("W", "a")[1] == "outside"


def test_an_absolute_path_inside_the_root_is_fine(tmp_path: Path) -> None:
    (tmp_path / "fb.json").write_text('{"a": 1}', encoding="utf-8")
    fb = load_fallbacks(tmp_path, inputs(str(tmp_path / "fb.json")))
    assert fb.warning is None and fb.lookup("W", "a")[1] == 1


@pytest.mark.parametrize(
    ("content", "warning"),
    [
        (None, "no fallbacks: fb.json not found"),
        ('{"global": {"a": 1},}', "no fallbacks: fb.json:1:21: invalid JSON"),
        ("[1, 2]", "no fallbacks: fb.json must hold a JSON object, found list"),
        ('"text"', "no fallbacks: fb.json must hold a JSON object, found str"),
        (b"\xff\xfe{}", "no fallbacks: cannot read fb.json"),
        ("DIR", "no fallbacks: fb.json is not a regular file"),
    ],
)
def test_unusable_files_mean_no_fallbacks_with_a_warning(
    tmp_path: Path, content: str | bytes | None, warning: str
) -> None:
    path = tmp_path / "fb.json"
    if content == "DIR":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    fb = load_fallbacks(tmp_path, inputs("fb.json"))
    assert fb.data is None
    assert fb.warning is not None and fb.warning.startswith(warning)
    hit, _, steps = fb.lookup("W", "policy")
    assert not hit and steps[0].outcome == "skipped" and steps[0].detail == fb.warning


def matrix(workspace: WriteWorkspace, files: dict[str, Any], value: str) -> Matrix:
    root = workspace({"workflows/W/context_variables.yaml": CONTRACT, **files})
    return open_session(root, env={ENV_NAME: value}).matrix("W", launch={"app_id": "app-1"})


def test_an_unusable_file_is_visible_in_notes_and_row_warnings(
    workspace: WriteWorkspace,
) -> None:
    m = matrix(workspace, {"fb.json": "[]"}, "fb.json")
    expected = "no fallbacks: fb.json must hold a JSON object, found list"
    assert expected in m.notes
    r = m.row("policy")
    assert r is not None
    assert (r.value, r.status) == (None, "missing")
    assert expected in r.warnings
    assert r.trace[-1].outcome == "skipped" and r.trace[-1].detail == expected


def test_a_missing_file_is_visible_too(workspace: WriteWorkspace) -> None:
    m = matrix(workspace, {}, "fallbacks/dev.json")
    assert "no fallbacks: fallbacks/dev.json not found" in m.notes


def test_a_good_file_adds_no_notes(workspace: WriteWorkspace) -> None:
    m = matrix(workspace, {"fb.json": {"global": {"policy": "p"}}}, "fb.json")
    assert m.notes == ()
    r = m.row("policy")
    assert r is not None and r.warnings == () and r.value == "p"


def test_a_secret_looking_fallbacks_name_is_refused(tmp_path: Path) -> None:
    (tmp_path / ".env.json").write_text('{"a": 1}', encoding="utf-8")
    fb = load_fallbacks(tmp_path, inputs(".env.json"))
    assert fb.data is None and "environment secrets file" in (fb.warning or "")


def test_a_symlink_that_escapes_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (tmp_path / "outside.json").write_text('{"a": 1}', encoding="utf-8")
    os.symlink(tmp_path / "outside.json", root / "fb.json")
    fb = load_fallbacks(root, inputs("fb.json"))
    assert fb.data is None and "through a symlink" in (fb.warning or "")
