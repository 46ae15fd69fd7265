"""``flowctx diff`` on MemberJunction agent metadata in a real git repository."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from flowctx_tui.cli import main
from tests.diff_repo import git

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "mj-metadata"
PIPELINE = "metadata/agents/.workflow-demo-agents.json"


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "mj"
    shutil.copytree(CORPUS / "MemberJunction+MJ", repo)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "corpus")
    return repo


def test_a_priority_tie_is_a_new_problem(tmp_path: Path, capsys: Any) -> None:
    repo = _repo(tmp_path)
    f = repo / PIPELINE
    data = json.loads(f.read_text())
    review = data[1]["relatedEntities"]["MJ: AI Agent Steps"][3]
    assert review["fields"]["Name"] == "Review against brand rules"
    review["relatedEntities"]["MJ: AI Agent Step Paths"][0]["fields"]["Priority"] = 100
    f.write_text(json.dumps(data, indent=2))
    assert main(["diff", str(repo), "--base", "HEAD", "--format", "json", "--exit-code"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["runtime"] == "memberjunction-5.51.3" and doc["changed"]
    assert doc["base"].startswith("git:") and doc["head"] == "working tree"
    assert any("share priority 100" in p["message"] for p in doc["problems"]["added"])
    code = main(["diff", str(repo), "--base", "HEAD"])
    out = capsys.readouterr().out
    assert code == 0 and "flowctx diff: git:" in out and "share priority 100" in out
    # nothing changed between a revision and itself
    assert main(["diff", str(repo), "--base", "HEAD", "--head", "HEAD", "--exit-code"]) == 0


def test_a_removed_path_changes_where_the_run_goes(tmp_path: Path, capsys: Any) -> None:
    repo = _repo(tmp_path)
    f = repo / "metadata/agents/.bla-agent.json"
    data = json.loads(f.read_text())
    data[0]["relatedEntities"]["MJ: AI Agent Step Paths"] = []
    f.write_text(json.dumps(data, indent=2))
    assert main(["diff", str(repo), "--base", "HEAD", "-w", "BLA", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (agent,) = doc["agents"]
    assert agent["agent"] == "BLA"
    step = next(s for s in agent["steps"] if s["step"] == "Assemble Prompt")
    assert step["before"] == "→ Execute Prompt"
    assert step["after"].startswith("the flow ends")


def test_an_unknown_revision_is_a_message(tmp_path: Path, capsys: Any) -> None:
    repo = _repo(tmp_path)
    assert main(["diff", str(repo), "--base", "nope-no-such-rev"]) == 2
    assert "neither a folder nor a revision" in capsys.readouterr().err
