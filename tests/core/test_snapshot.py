"""The workspace snapshot: every input read once, resolve and check pure over it, and a
snapshot of a git revision read without touching the working tree, index or stash."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from flowctx_core.check import check
from flowctx_core.model.inputs import ResolveInputs
from flowctx_core.resolve import resolve
from flowctx_core.review.git import RevisionError, load_snapshot_at
from flowctx_core.snapshot import load_snapshot
from tests.conftest import WriteWorkspace

CONTRACT = """
definitions:
  first: {type: object, source: {type: file, path: data/settings.json}}
  second: {type: object, source: {type: file, path: data/settings.json}}
  third: {type: object, source: {type: file, path: data/settings.json}}
  region: {type: string, source: {type: config, env_var: APP_REGION, default: eu-west}}
  policy:
    type: object
    source: {type: data_reference, collection: policies, fields: [limit], query_template: {id: p}}
agents:
  A: {variables: [first, second, third, region, policy]}
"""

FILES = {
    "workflows/W/context_variables.yaml": CONTRACT,
    "data/settings.json": {"mode": "fast"},
    "fb.json": {"global": {"policy": {"limit": 3}}},
    "flowctx.yaml": "env: {MOZAIKS_CONTEXT_FALLBACKS_FILE: fb.json}\n",
}


def test_resolve_reads_nothing_from_disk_after_the_snapshot(workspace: WriteWorkspace) -> None:
    root = workspace(FILES)
    snap = load_snapshot(root, {"MOZAIKS_CONTEXT_FALLBACKS_FILE": "fb.json"})
    # three variables read one file: it was read once, into one entry
    assert len(snap.files) == 1
    shutil.rmtree(root)  # everything the matrix shows must come from the snapshot
    matrix = resolve(snap, ResolveInputs(env=snap.env), "W")
    assert [matrix.row(n).value for n in ("first", "second", "third")] == [{"mode": "fast"}] * 3
    assert matrix.row("policy").value == {"limit": 3}
    assert matrix.row("policy").status == "fallback"
    # the matrix says which files it came from, so the app watches exactly those
    assert root / "data" / "settings.json" in matrix.read
    assert root / "fb.json" in matrix.read


def test_check_is_pure_over_the_snapshot(workspace: WriteWorkspace) -> None:
    files = dict(FILES)
    files["workflows/W/context_variables.yaml"] = CONTRACT.replace(
        "data/settings.json}}\n  third", "data/missing.json, required: true}}\n  third"
    )
    root = workspace(files)
    snap = load_snapshot(root, {})
    shutil.rmtree(root)
    problems = [d.format() for d in check(snap, ResolveInputs())]
    assert any("required file: data/missing.json: file not found" in p for p in problems)


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    )
    return done.stdout


@pytest.fixture
def repo(workspace: WriteWorkspace) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = workspace(FILES)
    _git(root, "init", "-q")
    _git(root, "config", "user.email", "t@example.invalid")
    _git(root, "config", "user.name", "t")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "first")
    return root


def test_a_revision_is_read_without_touching_the_working_tree(repo: Path) -> None:
    first = _git(repo, "rev-parse", "HEAD").strip()
    (repo / "data/settings.json").write_text('{"mode": "slow"}')
    _git(repo, "commit", "-q", "-am", "slow")
    # uncommitted and staged edits, and a stash: a read of a revision must leave all three
    (repo / "data/settings.json").write_text('{"mode": "staged"}')
    _git(repo, "add", "data/settings.json")
    (repo / "data/settings.json").write_text('{"mode": "edited"}')
    before = (
        _git(repo, "status", "--porcelain"),
        _git(repo, "diff"),
        _git(repo, "diff", "--cached"),
    )

    old = load_snapshot_at(repo, first, {})
    new = load_snapshot_at(repo, "HEAD", {})

    inputs = ResolveInputs()
    assert resolve(old, inputs, "W").row("first").value == {"mode": "fast"}
    assert resolve(new, inputs, "W").row("first").value == {"mode": "slow"}
    # the revision's own flowctx.yaml names the fallbacks file
    assert resolve(old, inputs, "W").row("policy").value == {"limit": 3}
    assert old.revision == f"git:{first}"
    after = (
        _git(repo, "status", "--porcelain"),
        _git(repo, "diff"),
        _git(repo, "diff", "--cached"),
    )
    assert after == before
    assert (repo / "data/settings.json").read_text() == '{"mode": "edited"}'


def test_a_workspace_in_a_subfolder_and_a_bad_revision(repo: Path, tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    shutil.copytree(repo, outer / "ws", ignore=shutil.ignore_patterns(".git"))
    _git(tmp_path, "init", "-q", "outer")
    _git(outer, "config", "user.email", "t@example.invalid")
    _git(outer, "config", "user.name", "t")
    _git(outer, "add", "-A")
    _git(outer, "commit", "-q", "-m", "nested")
    snap = load_snapshot_at(outer, "HEAD", {}, subdir="ws")
    assert snap.names == ("W",)
    assert resolve(snap, ResolveInputs(), "W").row("second").value == {"mode": "fast"}
    with pytest.raises(RevisionError, match="no-such-branch: not a commit"):
        load_snapshot_at(outer, "no-such-branch", {})
    with pytest.raises(RevisionError, match="no files under nowhere"):
        load_snapshot_at(outer, "HEAD", {}, subdir="nowhere")
