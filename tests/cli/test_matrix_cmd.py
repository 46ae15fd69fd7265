"""``flowctx matrix``: the JSON contract, a table that fits 80 columns, masking, exit codes and
messages for unusable arguments (never a traceback)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from flowctx_tui.cli import main
from tests.conftest import WriteWorkspace

CONTRACT = """
definitions:
  feature_flag:
    type: boolean
    description: Turns the new approval path on
    source: {type: config, env_var: FEATURE_FLAG, default: "no"}
  openai_api_key:
    type: string
    source: {type: config, env_var: OPENAI_API_KEY}
  database_url:
    type: string
    source: {type: config, env_var: DATABASE_URL}
  policy:
    type: object
    source: {type: file, path: data/policy.json}
  approval_limit:
    type: integer
    source: {type: data_reference, database_name: appdb, collection: policies, fields: [limit]}
  reviewer:
    type: string
    source: {type: data_reference, database_name: appdb, collection: reviewers, fields: [name]}
  interview_complete:
    type: boolean
    source:
      type: state
      default: false
      triggers:
        - {type: agent_text, agent: InterviewAgent, match: {equals: done}}
  a_rather_long_variable_name_that_goes_on_and_on:
    type: string
    source: {type: state, default: "lorem ipsum dolor sit amet, consectetur adipiscing elit"}
  score:
    type: integer
    source: {type: computed}
agents:
  InterviewAgent:
    variables: [feature_flag, policy, approval_limit, reviewer, interview_complete, score]
"""

FILES: dict[str, Any] = {
    "workflows/Approvals/context_variables.yaml": CONTRACT,
    "workflows/Onboarding/context_variables.yaml": "definitions: {}\nagents: {}\n",
    "data/policy.json": {"max_amount": 5000, "currency": "EUR", "notes": "x" * 200},
    "seed/appdb/policies.json": [
        {"app_id": "app-1", "limit": 100},
        {"app_id": "app-1", "limit": 250},
    ],
    "fallbacks/dev.json": {"workflows": {"approvals": {"reviewer": "dana"}}},
    "flowctx.yaml": """
        env: {MOZAIKS_CONTEXT_FALLBACKS_FILE: fallbacks/dev.json}
        launch: {app_id: app-1}
        """,
}

ENV = {
    "FEATURE_FLAG": "on",
    "OPENAI_API_KEY": "sk-live-abc123",
    "DATABASE_URL": "postgres://app:hunter2@db.internal:5432/prod",
}


@pytest.fixture
def ws(workspace: WriteWorkspace, monkeypatch: pytest.MonkeyPatch) -> Path:
    # the developer's own runtime settings must not change what these tests see
    for name in list(os.environ):
        if name in ENV or name.startswith(("FLOWCTX_", "MOZAIKS_", "CONTEXT_")):
            monkeypatch.delenv(name, raising=False)
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("COLUMNS", "80")
    return workspace(FILES)


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["matrix", *args, "--format", "json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


def test_json_shape(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, str(ws), "--workflow", "Approvals")
    assert code == 0
    assert {"workspace", "workflow", "variables", "errors"} <= set(data)
    assert data["workspace"] == str(ws.resolve())
    assert data["workflow"] == "Approvals"
    assert data["errors"] == []
    for var in data["variables"]:
        assert {
            "name",
            "type",
            "source",
            "status",
            "value",
            "origin",
            "warnings",
            "trace",
            "agents",
        } <= set(var)
        assert var["status"] in {"resolved", "default", "fallback", "pending", "error"}
        for step in var["trace"]:
            assert set(step) == {"step", "outcome", "detail"}
            assert step["outcome"] in {"used", "shadowed", "missing", "skipped", "error"}
    by_name = {v["name"]: v for v in data["variables"]}
    flag = by_name["feature_flag"]
    assert (flag["value"], flag["status"], flag["origin"]) == (
        True,
        "resolved",
        "env FEATURE_FLAG (process env)",
    )
    assert flag["trace"] == [
        {"step": "env", "outcome": "used", "detail": "env FEATURE_FLAG (process env)"},
        {"step": "default", "outcome": "shadowed", "detail": "default shadowed by the env var"},
    ]
    assert flag["agents"] == ["InterviewAgent"]
    assert by_name["policy"]["origin"] == "data/policy.json"
    assert by_name["approval_limit"]["value"] == 250
    assert by_name["approval_limit"]["origin"] == "db appdb.policies"
    reviewer = by_name["reviewer"]
    assert (reviewer["value"], reviewer["status"]) == ("dana", "fallback")
    assert reviewer["origin"] == "fallbacks/dev.json workflows.approvals.reviewer"
    assert by_name["score"]["status"] == "pending"
    assert by_name["database_schema_available"]["value"] is False


def test_errors_carry_file_line_column(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/W/context_variables.yaml": """
            definitions:
              ok: {type: string, source: {type: state, default: fine}}
              bad: {type: string, source: {type: remote}}
            agents: {A: {variables: [ok, bad, ghost]}}
            """
        }
    )
    code, data = run_json(capsys, str(root))
    assert code == 1
    files = {(e["file"], e["line"], e["column"]) for e in data["errors"]}
    assert files == {
        ("workflows/W/context_variables.yaml", 3, 38),
        ("workflows/W/context_variables.yaml", 4, 14),
    }
    messages = " | ".join(e["message"] for e in data["errors"])
    assert "source type 'remote' is refused by runtime mozaiks-0.2.0" in messages
    assert "'ghost'" in messages
    by_name = {v["name"]: v for v in data["variables"]}
    assert by_name["ok"]["status"] == "default"
    assert by_name["bad"]["status"] == "error"


def test_secrets_are_masked_unless_revealed(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, data = run_json(capsys, str(ws), "-w", "Approvals")
    text = json.dumps(data)
    assert "sk-live-abc123" not in text and "hunter2" not in text
    by_name = {v["name"]: v for v in data["variables"]}
    assert by_name["openai_api_key"]["value"] == "***"
    assert by_name["database_url"]["value"] == "postgres://app:***@db.internal:5432/prod"
    main(["matrix", str(ws), "-w", "Approvals"])
    table = capsys.readouterr().out
    assert "sk-live-abc123" not in table and "hunter2" not in table
    _, revealed = run_json(capsys, str(ws), "-w", "Approvals", "--reveal")
    text = json.dumps(revealed)
    assert "sk-live-abc123" in text and "hunter2" in text
    main(["matrix", str(ws), "-w", "Approvals", "--reveal"])
    key_row = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("openai"))
    assert "sk-live-ab" in key_row and "***" not in key_row  # revealed, then cut to the column


def test_the_table_fits_80_columns_and_cuts_long_values(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["matrix", str(ws / "workflows" / "Approvals"), "--width", "80"])
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)
    assert lines[1].split() == ["NAME", "SOURCE", "STATUS", "VALUE", "ORIGIN"]
    row = next(line for line in lines if line.startswith("feature_flag"))
    assert row.split()[:4] == ["feature_flag", "config", "resolved", "true"]
    policy = next(line for line in lines if line.startswith("policy"))
    assert '{"max_amoun…' in policy and "data/poli…" in policy
    long_name = next(line for line in lines if line.startswith("a_rather_long"))
    assert "…" in long_name
    assert "variables:" in lines[-1] or any("variables:" in line for line in lines)


def test_notes_and_problems_wrap_within_80_columns(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = "workflows/" + "A" * 40
    root = workspace(
        {
            f"{deep}/context_variables.yaml": """
            definitions:
              x: {type: string, source: {type: data_reference, collection: c, colection: d}}
            agents: {}
            """,
            "flowctx.yaml": "env: {MOZAIKS_CONTEXT_FALLBACKS_FILE: some/very/long/path/to/a/"
            "fallbacks/file/that/does/not/exist/anywhere.json}\n",
        }
    )
    code = main(["matrix", str(root), "--width", "80"])
    out = capsys.readouterr().out
    assert code == 1
    assert max(len(line) for line in out.splitlines()) <= 80
    joined = " ".join(line.strip() for line in out.splitlines())
    assert "did you mean 'collection'?" in joined
    assert "no fallbacks:" in joined


def test_launch_and_env_overrides(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, data = run_json(
        capsys,
        str(ws),
        "-w",
        "Approvals",
        "--env",
        "FEATURE_FLAG=0",
        "--launch",
        '{"app_id": "app-2", "interview_complete": true}',
    )
    by_name = {v["name"]: v for v in data["variables"]}
    assert by_name["feature_flag"]["value"] is False
    assert by_name["interview_complete"]["value"] is True
    # provenance names who gave each input: the command line here
    assert by_name["interview_complete"]["origin"] == "launch value (--launch)"
    assert by_name["feature_flag"]["origin"] == "env FEATURE_FLAG (--env)"
    assert by_name["approval_limit"]["value"] is None  # no policy for app-2


def test_an_unreachable_mongo_uri_is_a_traced_failure_not_a_crash(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    uri = "mongodb://svc:pa55word@127.0.0.1:1/?serverSelectionTimeoutMS=100"
    code, data = run_json(capsys, str(ws), "-w", "Approvals", "--mongo-uri", uri)
    assert code == 0
    text = json.dumps(data)
    assert "pa55word" not in text
    by_name = {v["name"]: v for v in data["variables"]}
    limit = by_name["approval_limit"]
    assert limit["trace"][0]["outcome"] == "error"
    assert limit["value"] is None
    assert by_name["reviewer"]["value"] == "dana"  # fallbacks still answer


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["{missing}"], "no such directory"),
        (["{ws}", "--workflow", "Nope"], "no workflow named 'Nope'"),
        (["{ws}", "--launch", "{not json"], "invalid JSON for --launch"),
        (["{ws}", "--launch", "[1]"], "--launch must be a JSON object"),
        (["{ws}", "--env", "NOEQUALS"], "--env expects NAME=VALUE"),
    ],
)
def test_unusable_arguments_exit_2_with_a_message(
    ws: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    filled = [a.replace("{ws}", str(ws)).replace("{missing}", str(tmp_path / "m")) for a in args]
    code = main(["matrix", *filled])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err.startswith("flowctx: ")
    assert words in captured.err
    assert "Traceback" not in captured.err
    assert captured.out == ""


def test_workflow_names_match_case_insensitively(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, data = run_json(capsys, str(ws), "--workflow", "approvals")
    assert data["workflow"] == "Approvals"


@pytest.mark.parametrize("bad", [["--format", "xml"], ["--bogus"]])
def test_bad_flags_exit_2(ws: Path, capsys: pytest.CaptureFixture[str], bad: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["matrix", str(ws), *bad])
    assert exc.value.code == 2
    # one line that says what was wrong and where the options are, not the usage block
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("flowctx matrix: "), err
    assert err.rstrip().endswith("('flowctx matrix --help' lists its options)")


def test_the_installed_script_from_another_directory(ws: Path, tmp_path: Path) -> None:
    script = shutil.which("flowctx")
    command = (
        [script]
        if script
        else [sys.executable, "-c", "from flowctx_tui.cli import main; raise SystemExit(main())"]
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "FLOWCTX_MONGO_URI"}
    env.update(ENV)
    rel = os.path.relpath(ws / "workflows" / "Approvals", elsewhere)
    done = subprocess.run(
        [*command, "matrix", rel, "--format", "json"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["workflow"] == "Approvals"
    by_name = {v["name"]: v for v in data["variables"]}
    assert by_name["policy"]["value"]["currency"] == "EUR"
    assert by_name["openai_api_key"]["value"] == "***"
    assert "sk-live-abc123" not in done.stdout + done.stderr


@pytest.mark.parametrize("command", ["matrix", "check"])
def test_json_text_is_json_dumps_own_layout_byte_for_byte(
    ws: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The JSON commands write their text with flowctx's own writer (faster than
    ``json.dumps(indent=2)``): a script that diffs or hashes the output must see the very
    bytes json would write, on the demo's workflows and on a workspace with secrets."""
    from flowctx_tui.cli.workspace_args import demo_path

    runs = [[str(ws), "--workflow", "Approvals"]]
    runs += [
        [str(demo_path()), "--workflow", wf.name]
        for wf in sorted((demo_path() / "workflows").iterdir())
        if wf.is_dir()
    ]
    for args in runs if command == "matrix" else [runs[0][:1], [str(demo_path())]]:
        main([command, *args, "--format", "json"])
        out = capsys.readouterr().out
        assert out == json.dumps(json.loads(out), indent=2) + "\n", args


def test_a_variable_nothing_answered_is_missing_not_default(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    """Status says what happened: ``default`` only when a default was used; nothing found
    (no env var, document, default or fallback) is ``missing``, in text and JSON alike."""
    root = workspace(
        {
            "workflows/W/context_variables.yaml": """
            definitions:
              model: {type: string, source: {type: config, env_var: LLM_MODEL, default: gpt}}
              bare: {type: string, source: {type: config, env_var: BARE}}
              overview:
                type: string
                source: {type: data_reference, database_name: app, collection: docs}
              greeting: {type: string, source: {type: config, default: hello}}
            agents: {A: {variables: [model, bare, overview, greeting]}}
            """,
            "seed/app/docs.json": "[]",
        }
    )
    code, data = run_json(capsys, str(root))
    assert code == 0
    statuses = {v["name"]: (v["status"], v["value"]) for v in data["variables"]}
    assert statuses["model"] == ("missing", None)  # the runtime ignores the default
    assert statuses["bare"] == ("missing", None)
    assert statuses["overview"] == ("missing", None)
    assert statuses["greeting"] == ("default", "hello")
    main(["matrix", str(root)])
    lines = capsys.readouterr().out.splitlines()
    for name in ("model", "bare", "overview"):
        (line,) = [ln for ln in lines if ln.startswith(f"{name} ")]
        assert line.split()[2] == "missing", line
    assert any(ln.endswith("1 default, 3 missing") for ln in lines), lines
