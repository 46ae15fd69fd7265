"""``flowctx diff`` end to end over a real git repository built in tmp_path: every format,
revisions and folders, masking, exit codes, and a working tree, index and stash left alone."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from flowctx_core.review.diff import compare, folder_side
from flowctx_tui.cli import main
from flowctx_tui.cli.diff_cmd import render_text
from flowctx_tui.cli.terminal import safe_text
from tests.diff_repo import (
    SECRET_NEW,
    SECRET_OLD,
    change,
    commit_change,
    git,
    make_repo,
    tree_state,
)

ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path)


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main(["diff", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def by_workflow(doc: dict) -> dict[str, dict]:
    return {w["workflow"]: w for w in doc["workflows"]}


def test_json_between_two_revisions(repo, capsys):
    commit_change(repo)
    code, out, err = run(
        capsys, repo / "ws", "--base", "HEAD~1", "--head", "HEAD", "--format", "json"
    )
    assert code == 0, err
    doc = json.loads(out)
    base_id = git(repo, "rev-parse", "HEAD~1").strip()
    head_id = git(repo, "rev-parse", "HEAD").strip()
    assert doc["base"] == f"git:{base_id[:12]} (HEAD~1)"
    assert doc["head"] == f"git:{head_id[:12]} (HEAD)"
    assert doc["runtime"].startswith("mozaiks")
    assert doc["changed"] is True
    orders = by_workflow(doc)["Orders"]
    changes = {v["name"]: v for v in orders["variables"]}
    assert {n: v["change"] for n, v in changes.items()} == {
        "region": "changed",
        "api_token": "changed",
        "currency": "added",
        "unused_note": "changed",
        "legacy_flag": "removed",
    }
    region = changes["region"]
    assert region["fields"] == ["value"]
    assert region["before"]["value"] == "eu" and region["after"]["value"] == "us"
    for side in ("before", "after"):
        assert {"status", "value", "source", "origin"} <= set(region[side])
        assert region[side]["status"] == "default" and region[side]["source"] == "config"
    assert changes["currency"]["before"] is None
    assert changes["currency"]["after"]["value"] == "EUR"
    assert changes["legacy_flag"]["after"] is None
    assert changes["legacy_flag"]["before"]["value"] is True
    assert changes["unused_note"]["fields"] == ["agents"]
    assert changes["unused_note"]["after"]["agents"] == ["Reviewer"]
    # the transition condition changed: the Planner's turn now goes back to the user
    assert orders["routes"] == [
        {
            "file": "workflows/Orders/transition_graph.yaml",
            "from": "Planner",
            "scenario": "default",
            "before": "Reviewer",
            "after": "user",
            "before_reason": orders["routes"][0]["before_reason"],
            "after_reason": orders["routes"][0]["after_reason"],
            "before_withheld": None,
            "after_withheld": None,
        }
    ]
    added = orders["problems"]["added"]
    removed = orders["problems"]["removed"]
    assert [(p["code"], "'currency'" in p["message"]) for p in added] == [
        ("exposure.not-exposed", True)
    ]
    assert [(p["code"], "'unused_note'" in p["message"]) for p in removed] == [
        ("exposure.not-exposed", True)
    ]
    # the flow's condition only matters under the saved scenario: one change, named for it
    refunds = by_workflow(doc)["Refunds"]
    assert refunds["scenarios"] == ["default", "approved"]
    assert [(r["from"], r["scenario"], r["before"], r["after"]) for r in refunds["routes"]] == [
        ("Check", "approved", "Pay", "Deny")
    ]
    assert refunds["variables"] == [] and refunds["problems"] == {"added": [], "removed": []}


def test_secrets_are_masked_in_every_format(repo, capsys):
    change(repo / "ws")
    for fmt in ("json", "markdown", "text"):
        code, out, _ = run(capsys, repo / "ws", "--base", "base", "--format", fmt)
        assert code == 0
        assert SECRET_OLD not in out and SECRET_NEW not in out, fmt
        assert "***" in out, fmt
    doc = json.loads(run(capsys, repo / "ws", "--base", "base", "--format", "json")[1])
    token = next(v for v in by_workflow(doc)["Orders"]["variables"] if v["name"] == "api_token")
    # a changed secret is a change, shown masked on both sides
    assert token["fields"] == ["value"]
    assert token["before"]["value"] == token["after"]["value"] == "***"


def test_working_tree_index_and_stash_are_untouched(repo, capsys):
    ws = repo / "ws"
    # a stash and a staged change exist before the diff runs
    (ws / "notes.txt").write_text("stashed\n", encoding="utf-8")
    git(repo, "add", "ws/notes.txt")
    git(repo, "stash", "push", "-q", "-m", "keep me")
    change(ws)
    git(repo, "add", "ws/workflows/Orders/transition_graph.yaml")
    (ws / "untracked.txt").write_text("mine\n", encoding="utf-8")
    before = tree_state(repo)
    assert "keep me" in before["stash"] and before["status"]
    for fmt in ("text", "json", "markdown"):
        code, _, err = run(capsys, ws, "--base", "base", "--format", fmt)
        assert code == 0, err
    code, _, err = run(capsys, ws, "--base", "base", "--head", "HEAD", "--format", "json")
    assert code == 0, err
    assert tree_state(repo) == before
    assert (ws / "untracked.txt").read_text(encoding="utf-8") == "mine\n"


def test_head_defaults_to_the_working_tree(repo, capsys):
    change(repo / "ws")
    code, out, _ = run(capsys, repo / "ws", "--base", "base", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert doc["head"] == "working tree"
    names = [v["name"] for v in by_workflow(doc)["Orders"]["variables"]]
    assert "currency" in names
    # base and head the same revision: nothing changed
    code, out, _ = run(capsys, repo / "ws", "--base", "base", "--head", "base", "--format", "json")
    doc = json.loads(out)
    assert doc["changed"] is False
    assert all(w["variables"] == [] and w["routes"] == [] for w in doc["workflows"])


def test_text_fits_80_columns_and_says_what_changed(repo, capsys):
    change(repo / "ws")
    code, out, _ = run(capsys, repo / "ws", "--base", "base", "--width", "80")
    assert code == 0
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines), [x for x in lines if len(x) > 80]
    assert lines[0].startswith("flowctx diff: git:") and lines[0].endswith("(base) → working tree")
    assert "Orders: 5 variables, 1 route, problems +1 -1" in lines
    assert "  ~ region" in lines and "      value: eu → us" in lines
    assert "  + currency" in lines and "  - legacy_flag" in lines
    assert "      value: *** → ***" in lines
    assert "  ~ transition_graph.yaml from Planner [default]: Reviewer → user" in lines
    assert "  ~ flow.yaml from Check [approved]: Pay → Deny" in lines
    assert any(x.startswith("  + workflows/Orders/context_variables.yaml:") for x in lines)
    assert any(x.startswith("  - workflows/Orders/context_variables.yaml:") for x in lines)
    # piped without --width: no escape codes, lines whole
    code, piped, _ = run(capsys, repo / "ws", "--base", "base")
    assert "\x1b[" not in piped
    assert any(len(x) > 80 for x in piped.splitlines())


def test_text_colours_as_matrix_does(repo):
    change(repo / "ws")
    ws = repo / "ws"
    from flowctx_core.review.diff import read_side

    diff = compare(read_side("base", ws, {}), folder_side(ws, {}))
    coloured = safe_text(render_text(diff, width=80, colour=True))
    assert "\x1b[32m+\x1b[0m currency" in coloured  # added: green, as a resolved status
    assert "\x1b[31m-\x1b[0m legacy_flag" in coloured
    assert "\x1b[33m~\x1b[0m region" in coloured
    assert "\x1b[36mdefault\x1b[0m" in coloured  # matrix's colour for "default"
    plain = ANSI.sub("", coloured)
    assert plain == render_text(diff, width=80, colour=False)
    assert all(len(line) <= 80 for line in plain.splitlines())


def test_markdown_is_a_pasteable_summary_with_details(repo, capsys):
    change(repo / "ws")
    code, out, _ = run(capsys, repo / "ws", "--base", "base", "--format", "markdown")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("## flowctx diff: `git:") and lines[0].endswith("→ `working tree`")
    assert "### Orders" in lines and "### Refunds" in lines
    at = lines.index("### Orders")
    table = lines.index("| | variable | before | after |")
    assert table > at and lines[table + 1] == "| --- | --- | --- | --- |"
    assert "| ~ | `region` | `eu` (default) | `us` (default) |" in lines
    assert "| + | `currency` |  | `EUR` (default) |" in lines
    assert "| - | `legacy_flag` | `true` (default) |  |" in lines
    assert (
        "- `workflows/Orders/transition_graph.yaml` from `Planner` under *default*: "
        "`Reviewer` → `user`"
    ) in lines
    assert (
        "- `workflows/Refunds/flow.yaml` from `Check` under *approved*: `Pay` → `Deny`"
    ) in lines
    assert "Problems: 1 added, 1 removed" in lines
    # every collapsible part opens and closes, with a summary
    assert out.count("<details><summary>") == out.count("</details>") >= 4
    assert "  - agents: `(no agent)` → `Reviewer`" in lines
    # table rows have the same number of cells as the header
    for line in lines[table : table + 7]:
        if line.startswith("|"):
            assert len(re.split(r"(?<!\\)\|", line)) == 6, line


def test_diff_between_two_folders(tmp_path, capsys):
    repo = make_repo(tmp_path)
    old = tmp_path / "old"
    shutil.copytree(repo / "ws", old)
    change(repo / "ws")
    new = tmp_path / "new"
    shutil.copytree(repo / "ws", new)
    shutil.rmtree(repo)  # no git anywhere
    code, out, err = run(capsys, new, "--base", old, "--head", new, "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["base"] == str(old.resolve()) and doc["head"] == str(new.resolve())
    orders = by_workflow(doc)["Orders"]
    assert {v["name"] for v in orders["variables"]} == {
        "region", "api_token", "currency", "unused_note", "legacy_flag"
    }  # fmt: skip
    assert [(r["before"], r["after"]) for r in orders["routes"]] == [("Reviewer", "user")]
    # the same folder copied elsewhere: nothing changed (paths never count as changes)
    code, out, _ = run(capsys, new, "--base", new, "--format", "json")
    assert json.loads(out)["changed"] is False


def test_one_workflow_and_exit_code(repo, capsys):
    change(repo / "ws")
    code, out, _ = run(capsys, repo / "ws", "--base", "base", "-w", "Refunds", "--format", "json")
    assert code == 0
    assert [w["workflow"] for w in json.loads(out)["workflows"]] == ["Refunds"]
    assert run(capsys, repo / "ws", "--base", "base", "--exit-code")[0] == 1
    assert run(capsys, repo / "ws", "--base", "base", "--head", "base", "--exit-code")[0] == 0


def test_added_workflow_lists_every_variable_as_added(repo, capsys):
    ws = repo / "ws"
    shutil.copytree(ws / "workflows/Refunds", ws / "workflows/Returns")
    code, out, _ = run(capsys, ws, "--base", "base", "--format", "json")
    assert code == 0
    returns = by_workflow(json.loads(out))["Returns"]
    assert returns["presence"] == "added"
    # every row is new, the runtime's own schema rows included
    assert {v["change"] for v in returns["variables"]} == {"added"}
    assert returns["variables"][0]["name"] == "limit"
    assert by_workflow(json.loads(out))["Refunds"]["variables"] == []
    # every step is new: a winner where a path leaves it, the end of the flow elsewhere
    routes = [(r["from"], r["before"], r["after"]) for r in returns["routes"]]
    assert routes == [("Check", None, "Deny"), ("Pay", None, None), ("Deny", None, None)]
    assert {r["before_reason"] for r in returns["routes"]} == {"no rule from here in this file"}


def test_bad_arguments_exit_2_with_a_message(repo, capsys, tmp_path, monkeypatch):
    code, _, err = run(capsys, repo / "ws", "--base", "no-such-rev")
    assert code == 2
    assert "'no-such-rev' is neither a folder nor a revision of" in err
    code, _, err = run(capsys, repo / "ws", "--base", "base", "-w", "Nope")
    assert code == 2 and "no workflow named 'Nope'" in err
    code, _, err = run(capsys, repo / "ws", "--base", "base", "--runtime", "bogus")
    assert code == 2 and "unknown runtime 'bogus'" in err
    (tmp_path / "empty").mkdir()
    code, _, err = run(capsys, repo / "ws", "--base", tmp_path / "empty")
    assert code == 2 and "empty" in err and "workspace" in err
    outside = tmp_path / "plain"
    shutil.copytree(repo / "ws", outside)
    code, _, err = run(capsys, outside, "--base", "HEAD")
    assert code == 2 and "not in a git work tree" in err
    # a name that is both a folder and a revision must be spelled out
    (repo / "base").mkdir()
    monkeypatch.chdir(repo)
    code, _, err = run(capsys, repo / "ws", "--base", "base")
    assert code == 2 and "both a folder and a git revision" in err
    assert run(capsys, repo / "ws", "--base", "git:base")[0] == 0


def test_a_workspace_new_since_the_base_is_all_added(tmp_path, capsys):
    repo = make_repo(tmp_path)
    shutil.copytree(repo / "ws", repo / "ws2")
    code, out, err = run(capsys, repo / "ws2", "--base", "base", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["base"].endswith("(base), no workspace there")
    assert {w["workflow"]: w["presence"] for w in doc["workflows"]} == {
        "Orders": "added",
        "Refunds": "added",
    }
    assert all(v["change"] == "added" for w in doc["workflows"] for v in w["variables"])


def test_runtime_applies_to_both_sides(repo, capsys):
    change(repo / "ws")
    code, out, _ = run(
        capsys, repo / "ws", "--base", "base", "--runtime", "spec", "--format", "json"
    )
    assert code == 0
    doc = json.loads(out)
    assert doc["runtime"].startswith("spec (")  # one runtime named: both sides were judged by it
    assert "base:" not in doc["runtime"]


def test_markdown_keeps_pipes_and_backticks_in_values_readable(repo, capsys):
    contract = repo / "ws/workflows/Orders/context_variables.yaml"
    text = contract.read_text(encoding="utf-8")
    contract.write_text(text.replace('default: "eu"', 'default: "eu|`x`"'), encoding="utf-8")
    code, out, _ = run(capsys, repo / "ws", "--base", "base", "--format", "markdown")
    assert code == 0
    lines = out.splitlines()
    # in the table the pipe is escaped, so the row keeps its four cells
    assert "| ~ | `region` | `eu` (default) | `` eu\\|`x` `` (default) |" in lines
    # in the details it is code as written
    assert "  - value: `eu` → `` eu|`x` ``" in lines
