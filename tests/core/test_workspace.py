"""Finding the workspace from any path inside it, listing workflows, the profile, and paths
that mean the same whatever the working directory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flowctx_core.model.workspace import list_workflows
from flowctx_core.model.workspace_root import (
    WorkspaceNotFound,
    display_path,
    find_root,
    load_profile,
)
from flowctx_core.session import open_session
from tests.conftest import WriteWorkspace

MINIMAL = "definitions: {}\nagents: {GreeterAgent: {variables: []}}\n"

CONTRACT = """
definitions:
  policy:
    type: object
    source: {type: file, path: data/policy.json}
  limits:
    type: object
    source: {type: data_reference, collection: limits}
agents:
  A: {variables: [policy, limits]}
"""


@pytest.fixture
def ws(workspace: WriteWorkspace) -> Path:
    return workspace(
        {
            "workflows/Approvals/context_variables.yaml": CONTRACT,
            "workflows/Approvals/notes/readme.txt": "hello",
            "workflows/Onboarding/context_variables.yaml": MINIMAL,
            "data/policy.json": {"owner": "workspace"},
            "fallbacks/local.json": {"global": {"limits": {"max": 5}}},
        }
    )


@pytest.mark.parametrize(
    ("rel", "selected"),
    [
        ("", None),
        ("workflows", None),
        ("workflows/Approvals", "Approvals"),
        ("workflows/Approvals/context_variables.yaml", "Approvals"),
        ("workflows/Approvals/notes", "Approvals"),
        ("data", None),
    ],
)
def test_find_root_from_any_path_inside(ws: Path, rel: str, selected: str | None) -> None:
    root, workflow = find_root(ws / rel if rel else ws)
    assert root == ws.resolve()
    assert workflow == selected


def test_a_workspace_inside_a_folder_named_workflows(tmp_path: Path) -> None:
    # the parent folder's name must not make the workspace look like one of its workflows
    ws = tmp_path / "workflows" / "myws"
    (ws / "workflows" / "A").mkdir(parents=True)
    (ws / "workflows" / "A" / "context_variables.yaml").write_text(MINIMAL, encoding="utf-8")
    assert find_root(ws) == (ws.resolve(), None)
    assert find_root(ws / "workflows" / "A") == (ws.resolve(), "A")


def test_a_lone_workflow_folder_is_its_own_workspace(tmp_path: Path) -> None:
    folder = tmp_path / "Solo"
    folder.mkdir()
    (folder / "context_variables.yaml").write_text(MINIMAL, encoding="utf-8")
    root, workflow = find_root(folder)
    assert (root, workflow) == (folder.resolve(), "Solo")
    assert list_workflows(root) == ["Solo"]
    session = open_session(folder, env={})
    matrix = session.matrix("Solo")
    assert matrix.errors == ()


def test_paths_that_are_not_workspaces(tmp_path: Path) -> None:
    with pytest.raises(WorkspaceNotFound, match="no such directory"):
        find_root(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(WorkspaceNotFound, match="not a workspace"):
        find_root(tmp_path / "empty")


def test_list_workflows_sorted_skipping_hidden_private_and_files(workspace: WriteWorkspace) -> None:
    root = workspace(
        {
            "workflows/beta/context_variables.yaml": MINIMAL,
            "workflows/Alpha/context_variables.yaml": MINIMAL,
            "workflows/.hidden/context_variables.yaml": MINIMAL,
            "workflows/_drafts/context_variables.yaml": MINIMAL,
            "workflows/README.md": "not a workflow",
        }
    )
    assert list_workflows(root) == ["Alpha", "beta"]


def test_the_working_directory_never_changes_a_path_inside_the_workspace(
    ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "data").mkdir(parents=True)
    (elsewhere / "data" / "policy.json").write_text('{"owner": "cwd"}', encoding="utf-8")
    (elsewhere / "fallbacks").mkdir()
    (elsewhere / "fallbacks" / "local.json").write_text(
        '{"global": {"limits": "from cwd"}}', encoding="utf-8"
    )
    monkeypatch.chdir(elsewhere)
    env = {"MOZAIKS_CONTEXT_FALLBACKS_FILE": "fallbacks/local.json"}
    for path in (ws, ws / "workflows", ws / "workflows" / "Approvals"):
        matrix = open_session(path, env=env).matrix("Approvals")
        policy, limits = matrix.row("policy"), matrix.row("limits")
        assert policy is not None and limits is not None
        assert policy.value == {"owner": "workspace"}
        assert policy.origin == "data/policy.json"
        assert limits.value == {"max": 5}
        assert limits.origin == "fallbacks/local.json global.limits"


def test_a_relative_path_argument_is_relative_to_the_working_directory(
    ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ws / "workflows")
    session = open_session("Approvals", env={})
    assert session.root == ws.resolve()
    assert session.selected == "Approvals"


def test_profile_env_and_launch(workspace: WriteWorkspace) -> None:
    root = workspace(
        {
            "flowctx.yaml": """
            env:
              REGION: eu
              RETRIES: 3
              EMPTY:
            launch:
              app_id: app-7
            """,
        }
    )
    profile = load_profile(root)
    assert profile.diagnostics == ()
    assert dict(profile.env) == {"REGION": "eu", "RETRIES": "3", "EMPTY": ""}
    assert dict(profile.launch) == {"app_id": "app-7"}


def test_profile_problems_are_located(workspace: WriteWorkspace) -> None:
    root = workspace({"flowctx.yaml": "env: [A]\nlanch: {}\n"})
    profile = load_profile(root)
    assert [d.format() for d in profile.diagnostics] == [
        "flowctx.yaml:2:1: lanch: unknown field (did you mean 'launch'?)",
        "flowctx.yaml:1:6: env: env must be a mapping of NAME: value",
    ]
    assert dict(profile.env) == {}
    broken = workspace({"flowctx.yaml": "env: {A: 1\n"})
    [d] = load_profile(broken).diagnostics
    assert d.file == "flowctx.yaml" and d.message.startswith("YAML syntax error")


def test_environment_precedence_profile_then_process_then_overrides(
    workspace: WriteWorkspace,
) -> None:
    root = workspace(
        {
            "flowctx.yaml": "env: {A: profile, B: profile, C: profile}\n",
            "workflows/W/context_variables.yaml": """
            definitions:
              a: {type: string, source: {type: config, env_var: A}}
              b: {type: string, source: {type: config, env_var: B}}
              c: {type: string, source: {type: config, env_var: C}}
            agents: {X: {variables: [a, b, c]}}
            """,
        }
    )
    session = open_session(root, env={"B": "process", "C": "process"})
    matrix = session.matrix("W", env_overrides={"C": "override"})
    assert matrix.values["a"] == "profile"
    assert matrix.values["b"] == "process"
    assert matrix.values["c"] == "override"


def test_display_path(tmp_path: Path) -> None:
    assert display_path(tmp_path / "a" / "b.json", tmp_path) == "a/b.json"
    outside = Path("/etc/hosts")
    assert display_path(outside, tmp_path) == "/etc/hosts"


def test_snapshot_lookups(ws: Path) -> None:
    session = open_session(ws, env={})
    snap = session.load("Approvals")
    assert snap.variable("policy") is not None
    assert snap.variable("nope") is None
    assert snap.agents_of("limits") == ("A",)
    assert snap.agents_of("nope") == ()
    assert json.loads(json.dumps(session.workflows())) == ["Approvals", "Onboarding"]


def test_a_profile_cannot_let_file_sources_read_outside_the_workspace(workspace, tmp_path) -> None:
    """A workspace someone else wrote must not widen what flowctx reads from this machine."""
    from flowctx_core.session import open_session

    outside = tmp_path / "outside.json"
    outside.write_text('{"leak": "machine data"}', encoding="utf-8")
    root = workspace(
        {
            "flowctx.yaml": "env:\n  CONTEXT_FILE_ALLOW_OUTSIDE_ROOT: 'true'\n",
            "workflows/W/context_variables.yaml": f"""
                definitions:
                  doc: {{type: object, source: {{type: file, path: "{outside}", default: {{}}}}}}
                agents: {{A: {{variables: [doc]}}}}
            """,
        }
    )
    session = open_session(root, env={})
    row = session.matrix("W").row("doc")
    assert row is not None and row.value == {} and row.status == "default"
    assert any("outside the workspace root" in w for w in row.warnings)
    assert any(
        d.file == "flowctx.yaml" and "CONTEXT_FILE_ALLOW_OUTSIDE_ROOT is ignored" in d.message
        for d in session.profile.diagnostics
    )
    # the user's own environment still can
    allowed = open_session(root, env={"CONTEXT_FILE_ALLOW_OUTSIDE_ROOT": "true"})
    assert allowed.matrix("W").row("doc").value == {"leak": "machine data"}
