"""``flowctx check --format github|sarif``, read back the way GitHub reads them, and several
PATHs (what a pre-commit hook passes)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import jsonschema
import pytest

from flowctx_core.check import PROBLEM_CODES, PROBLEM_KINDS
from flowctx_tui.cli import main
from tests.conftest import WriteWorkspace, write_tree

SARIF_SCHEMA = json.loads(
    (Path(__file__).parent.parent / "fixtures" / "sarif-schema-2.1.0.json").read_text("utf-8")
)

#: a workflow with problems of several kinds and severities; the flow.yaml key holds every
#: character a workflow command must escape (%, CR/LF, and : , in properties)
PROBLEMS = {
    "workflows/W/context_variables.yaml": """
        definitions:
          doc:
            type: object
            source: {type: file, path: "https://u:hunter2@example.test/x.json", required: true}
          orphan:
            type: string
            source: {type: state}
          model:
            type: string
            source: {type: config, env_var: FLOWCTX_TEST_UNSET_MODEL, default: gpt}
        agents:
          A: {variables: [doc, model]}
          Idle: {variables: []}
        """,
    "workflows/W/flow.yaml": (
        'steps: [{name: A, type: Prompt}]\npaths: [{from: A, to: B, "co%nd,x:\\ny\\r": 1}]\n'
    ),
    "workflows/W/orchestrator.yaml": (
        "schema_version: mozaiks.orchestrator.v1\nworkflow_name: W\n"
        "workflow_startup_mode: AgentDriven\n"
    ),
    "workflows/W/agents.yaml": (
        "agents:\n  - {name: A, system_message: Hi., structured_outputs_required: false}\n"
        "  - {name: Idle, system_message: Hi., structured_outputs_required: false}\n"
    ),
}

#: GitHub's workflow command: ``::level props::message``; escaped properties hold no ':'
COMMAND = re.compile(r"^::(?P<level>error|warning)(?: (?P<props>[^:]*))?::(?P<message>.*)$")


def _unescape(text: str) -> str:
    # the runner's unescaping, in its order: %25 last so '%253A' stays '%3A'
    for coded, plain in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(coded, plain)
    return text


def parse_annotation(line: str) -> dict[str, Any]:
    found = COMMAND.match(line)
    assert found, f"not a workflow command: {line!r}"
    props: dict[str, Any] = {}
    for item in (found["props"] or "").split(","):
        if item:
            key, _, value = item.partition("=")
            props[key] = _unescape(value)
    return {"level": found["level"], "message": _unescape(found["message"]), **props}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["check", *args])
    return code, capsys.readouterr().out


def _git_repo(path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


@pytest.fixture(autouse=True)
def _plain_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith(("FLOWCTX_", "MOZAIKS_", "CONTEXT_", "GITHUB_")):
            monkeypatch.delenv(name, raising=False)


# --- github ------------------------------------------------------------------------------------


def test_github_annotations_parse_back_to_the_json_problems(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(PROBLEMS)
    code, out = run(capsys, str(root), "--format", "json")
    problems = json.loads(out)["problems"]
    assert {p["code"] for p in problems} >= {"resolve.file", "routing", "exposure.agent-empty"}
    gh_code, gh_out = run(capsys, str(root), "--format", "github")
    assert gh_code == code == 1
    lines = gh_out.splitlines()
    # every problem is one command line (a newline in a message would start a new one)
    annotations = [parse_annotation(line) for line in lines[:-1]]
    assert lines[-1].startswith("FAILED: 1 workflow(s)")
    assert [
        (a["level"], a["file"], int(a["line"]), int(a["col"]), a["title"], a["message"])
        for a in annotations
    ] == [
        (p["severity"], p["file"], p["line"], p["column"], p["code"], p["message"])
        for p in problems
    ]
    # the key with %, a comma, a colon, LF and CR came back exactly
    assert any("'co%nd,x:\ny\r'" in a["message"] for a in annotations)
    assert "hunter2" not in gh_out and "u:***@example.test" in gh_out


def test_github_paths_are_relative_to_the_repository_root(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _git_repo(tmp_path / "repo")
    root = write_tree(repo / "agents" / "ws", PROBLEMS)
    _, gh = run(capsys, str(root / "workflows" / "W"), "--format", "github")
    files = {parse_annotation(line)["file"] for line in gh.splitlines()[:-1]}
    assert files == {
        "agents/ws/workflows/W/context_variables.yaml",
        "agents/ws/workflows/W/flow.yaml",
    }
    assert all((repo / f).is_file() for f in files)


def test_github_a_problem_in_no_file_is_annotated_without_a_place(
    workspace: WriteWorkspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(PROBLEMS)
    missing = tmp_path / "no-registries"
    _, gh = run(capsys, str(root), f"--build-context={missing}", "--format", "github")
    found = [parse_annotation(line) for line in gh.splitlines()[:-1]]
    placeless = [a for a in found if a["title"] == "build-context"]
    assert len(placeless) == 1, found
    assert "file" not in placeless[0] and "line" not in placeless[0]
    assert placeless[0]["message"].startswith(f"{missing}: build-context registry root")


def test_github_quiet_and_strict(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/W/context_variables.yaml": PROBLEMS["workflows/W/context_variables.yaml"]
            .replace("required: true", "default: {}")
            .replace("https://u:hunter2@example.test/x.json", "data/x.json"),
            "workflows/W/orchestrator.yaml": PROBLEMS["workflows/W/orchestrator.yaml"],
            "workflows/W/agents.yaml": PROBLEMS["workflows/W/agents.yaml"],
        }
    )
    code, gh = run(capsys, str(root), "--format", "github")
    levels = [parse_annotation(line)["level"] for line in gh.splitlines()[:-1]]
    assert code == 0 and levels and set(levels) == {"warning"}
    code, gh = run(capsys, str(root), "--format", "github", "--strict")
    assert code == 1 and gh.splitlines()[-1].startswith("FAILED")
    code, gh = run(capsys, str(root), "--format", "github", "--quiet")
    assert code == 0 and gh.splitlines()[:-1] == []


def test_github_names_a_refusal_as_an_error(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/W/context_variables.yaml": "definitions:\n  x: {type: string}\n",
            "workflows/W/orchestrator.yaml": PROBLEMS["workflows/W/orchestrator.yaml"],
            "workflows/W/agents.yaml": PROBLEMS["workflows/W/agents.yaml"],
        }
    )
    code, gh = run(capsys, str(root), "--format", "github")
    first = parse_annotation(gh.splitlines()[0])
    assert code == 1
    assert first["title"] == "refused" and first["level"] == "error"
    assert first["message"].startswith("REFUSED: runtime mozaiks-0.2.0 would not load")
    assert first["file"] == "workflows/W/context_variables.yaml"


# --- sarif -------------------------------------------------------------------------------------


def _sarif(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code, out = run(capsys, *args, "--format", "sarif")
    log = json.loads(out)
    # the official schema: anything a code host could refuse fails here
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(log)
    return code, log


def test_sarif_is_valid_2_1_0_with_one_rule_per_problem_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _git_repo(tmp_path / "repo")
    root = write_tree(repo / "ws", {"workflows/.keep": "", **PROBLEMS})
    code, log = _sarif(capsys, str(root))
    assert code == 1
    assert log["version"] == "2.1.0"
    assert log["$schema"].endswith("sarif-schema-2.1.0.json")
    (run_,) = log["runs"]
    driver = run_["tool"]["driver"]
    assert driver["name"] == "flowctx" and driver["version"]
    rules = driver["rules"]
    assert [r["id"] for r in rules] == list(PROBLEM_CODES)
    for rule in rules:
        kind = PROBLEM_KINDS[rule["id"]]
        assert rule["shortDescription"]["text"] == kind.short
        assert rule["fullDescription"]["text"] == kind.full
        assert rule["defaultConfiguration"]["level"] in ("error", "warning")
    # every description is written for its kind: none repeats another's
    fulls = [r["fullDescription"]["text"] for r in rules]
    assert len(set(fulls)) == len(fulls)
    assert all(
        len(text) > len(r["shortDescription"]["text"]) for text, r in zip(fulls, rules, strict=True)
    )
    assert run_["properties"]["runtime"]["name"] == "mozaiks-0.2.0"
    assert run_["properties"]["workspace"] == "ws"


def test_sarif_results_are_the_json_problems_located_in_the_repository(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _git_repo(tmp_path / "repo")
    root = write_tree(repo / "ws", PROBLEMS)
    (root / "workflows").mkdir(exist_ok=True)
    _, out = run(capsys, str(root), "--format", "json")
    problems = json.loads(out)["problems"]
    _, log = _sarif(capsys, str(root))
    (run_,) = log["runs"]
    rules = run_["tool"]["driver"]["rules"]
    base = run_["originalUriBaseIds"]["SRCROOT"]["uri"]
    assert Path(unquote(urlparse(base).path)) == repo.resolve()
    results = run_["results"]
    assert len(results) == len(problems)
    for result, problem in zip(results, problems, strict=True):
        assert result["ruleId"] == problem["code"]
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] == problem["severity"]
        assert result["message"]["text"] == problem["message"]
        (loc,) = result["locations"]
        artifact = loc["physicalLocation"]["artifactLocation"]
        assert artifact["uriBaseId"] == "SRCROOT"
        assert artifact["uri"] == f"ws/{problem['file']}"
        assert (repo / artifact["uri"]).is_file()
        region = loc["physicalLocation"]["region"]
        assert (region["startLine"], region["startColumn"]) == (
            problem["line"],
            problem["column"],
        )
    assert "hunter2" not in json.dumps(log)


def test_sarif_names_the_runtime_profile_and_the_refusals(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/W/context_variables.yaml": "definitions:\n  x: {type: string}\n",
            "workflows/W/orchestrator.yaml": PROBLEMS["workflows/W/orchestrator.yaml"],
            "workflows/W/agents.yaml": PROBLEMS["workflows/W/agents.yaml"],
        }
    )
    _, log = _sarif(capsys, str(root), "--runtime", "mozaiks-2026-01")
    props = log["runs"][0]["properties"]
    assert props["runtime"]["name"] == "mozaiks-2026-01"
    assert props["runtime"]["label"].startswith("mozaiks-2026-01 (BlocUnited-LLC/mozaiks-ai")
    assert props["refused"]["W"]["outcome"] == "empty_plan"
    assert props["workflows"] == ["W"]


def test_sarif_a_problem_in_no_file_has_no_location(
    workspace: WriteWorkspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(PROBLEMS)
    missing = tmp_path / "no-registries"
    _, log = _sarif(capsys, str(root), f"--build-context={missing}")
    (placeless,) = [r for r in log["runs"][0]["results"] if r["ruleId"] == "build-context"]
    assert placeless["locations"] == []
    assert placeless["message"]["text"].startswith(f"{missing}: ")


def test_sarif_of_a_clean_workspace_has_no_results(capsys: pytest.CaptureFixture[str]) -> None:
    from flowctx_tui.cli.workspace_args import demo_path

    # the demo's Triage workflow is refused on purpose (an authority refusal); the others are clean
    demo = demo_path() / "workflows"
    code, log = _sarif(capsys, str(demo / "AppGenerator"), str(demo / "Approvals"), "--quiet")
    assert code == 0
    assert log["runs"][0]["results"] == []


# --- several PATHs -----------------------------------------------------------------------------

TWO = {
    "workflows/A/context_variables.yaml": "definitions:\n  x: {type: string}\n",
    "workflows/A/orchestrator.yaml": "schema_version: mozaiks.orchestrator.v1\n"
    "workflow_name: A\nworkflow_startup_mode: AgentDriven\n",
    "workflows/A/agents.yaml": "agents: [{name: X, system_message: Hi., "
    "structured_outputs_required: false}]\n",
    "workflows/B/context_variables.yaml": (
        "definitions:\n  y: {type: string, source: {type: state}}\nagents:\n  Z: {variables: [y]}\n"
    ),
    "workflows/B/orchestrator.yaml": "schema_version: mozaiks.orchestrator.v1\n"
    "workflow_name: B\nworkflow_startup_mode: AgentDriven\n",
    "workflows/B/agents.yaml": "agents: [{name: Z, system_message: Hi., "
    "structured_outputs_required: false}]\n",
    "build_context/reg/context.yaml": "context_id: reg\napplies_to_workflows: [B]\nassets: []\n",
}


def test_several_paths_check_the_workflows_they_name(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(TWO)
    code, out = run(capsys, str(root / "workflows/B/context_variables.yaml"), "--format", "json")
    assert code == 0 and json.loads(out)["workflows"] == ["B"]
    code, out = run(
        capsys,
        str(root / "workflows/B/orchestrator.yaml"),
        str(root / "workflows/A/context_variables.yaml"),
        "--format",
        "json",
    )
    doc = json.loads(out)
    assert code == 1 and doc["workflows"] == ["A", "B"]
    # a registry's context.yaml and flowctx.yaml name the whole workspace
    for whole in ("build_context/reg/context.yaml", "flowctx.yaml"):
        (root / "flowctx.yaml").write_text("env: {}\n", encoding="utf-8")
        code, out = run(
            capsys, str(root / "workflows/B/context_variables.yaml"), str(root / whole), "-q"
        )
        assert code == 1 and out.splitlines()[-1].startswith("FAILED: 2 workflow(s)"), out


def test_paths_in_two_workspaces_are_checked_each_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _git_repo(tmp_path / "repo")
    one = write_tree(repo / "one", TWO)
    two = write_tree(repo / "two", {k: v for k, v in TWO.items() if "/B/" in k})
    args = [str(one / "workflows/A"), str(two / "workflows/B"), str(two)]
    code, out = run(capsys, *args)
    lines = out.splitlines()
    assert code == 1
    assert [line for line in lines if line.startswith("workspace ")] == [
        f"workspace {one.resolve()}",
        f"workspace {two.resolve()}",
    ]
    code, out = run(capsys, *args, "--format", "json")
    doc = json.loads(out)
    assert [d["workflows"] for d in doc["workspaces"]] == [["A"], ["B"]]
    assert doc["ok"] is False and doc["errors"] == sum(d["errors"] for d in doc["workspaces"])
    _, log = _sarif(capsys, *args)
    # one run per workspace, each its own code-scanning category
    assert [r["properties"]["workspace"] for r in log["runs"]] == ["one", "two"]
    assert len({r["automationDetails"]["id"] for r in log["runs"]}) == 2


def test_an_unrelated_file_is_still_refused(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace({**TWO, "notes.txt": "hi\n"})
    code = main(["check", str(root / "workflows/B"), str(root / "notes.txt")])
    err = capsys.readouterr().err
    assert code == 2 and "is a file, not a workspace" in err


def test_github_escapes_a_file_name_with_commas_and_colons(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/R,1:x%/context_variables.yaml": "definitions: {x: {type: string}}\n",
            "workflows/R,1:x%/orchestrator.yaml": "name: R\n",
        }
    )
    _, gh = run(capsys, str(root), "--format", "github")
    line = next(line for line in gh.splitlines() if "title=contract" in line)
    assert "file=workflows/R%2C1%3Ax%25/context_variables.yaml," in line
    assert parse_annotation(line)["file"] == "workflows/R,1:x%/context_variables.yaml"
