"""``flowctx check``: every problem as ``file:line:col: message``; exit 0 clean, 1 not, 2 on
unusable arguments; never a traceback."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from flowctx_core.check import PROBLEM_CODES, check_workspace, count_problems, workflow_problems
from flowctx_core.session import open_session
from flowctx_tui.cli import main
from tests.conftest import WriteWorkspace

#: check names the runtime profile it judged against at the end of its summary
TAG = " [runtime mozaiks 0.2.0 (2026-10)]"


def undiscovered(name: str) -> str:
    """The warning a workflow folder without orchestrator.yaml gets in a workspace where no
    folder has one (these tests' workspaces are bare contracts)."""
    return (
        f"workflows/{name}/context_variables.yaml:1:1: warning: the runtime will not discover "
        f"'{name}': its folder has no orchestrator.yaml, so the runtime loads no workflow from "
        "it (flowctx reads its contract alone; `flowctx init` shows a workflow folder the "
        "runtime loads) [runtime mozaiks-0.2.0]"
    )


CLEAN = """
definitions:
  approved:
    type: boolean
    source: {type: state, default: false}
  region:
    type: string
    source: {type: config, default: eu}
agents:
  Reviewer: {variables: [approved, region]}
"""

BROKEN = """
definitions:
  approved:
    type: boolean
    source: {type: state, default: false, triggers: [{type: user_text}]}
  limits:
    type: object
    source: {type: data_reference, colection: limits}
  region:
	type: string
"""

MISEXPOSED = """
definitions:
  approved:
    type: boolean
    source: {type: state}
  orphan:
    type: string
    source: {type: state}
agents:
  Reviewer: {variables: [approved, ghost]}
  Idle: {variables: []}
"""

LOCATED = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<message>.+)$")


@pytest.fixture(autouse=True)
def _plain_env(monkeypatch: pytest.MonkeyPatch) -> None:
    # the developer's own runtime settings must not change what these tests see
    for name in list(os.environ):
        if name == "REGION" or name.startswith(("FLOWCTX_", "MOZAIKS_", "CONTEXT_")):
            monkeypatch.delenv(name, raising=False)


def check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    code = main(["check", *args])
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err


def test_a_clean_workspace_exits_0(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace({"workflows/Approvals/context_variables.yaml": CLEAN})
    code, out, err = check(capsys, str(root))
    assert code == 0
    # a contract alone is clean for flowctx; the runtime would not discover its folder
    assert out == [undiscovered("Approvals"), "ok: 1 workflow(s), 0 error(s), 1 warning(s)" + TAG]
    assert err == ""
    # with the files the runtime discovers and loads a workflow by: nothing at all
    (root / "workflows/Approvals/orchestrator.yaml").write_text(
        "schema_version: mozaiks.orchestrator.v1\nworkflow_name: Approvals\n"
        "workflow_startup_mode: AgentDriven\n"
    )
    (root / "workflows/Approvals/agents.yaml").write_text(
        "agents:\n  - {name: Reviewer, system_message: x, structured_outputs_required: false}\n"
    )
    code, out, err = check(capsys, str(root))
    assert (code, out, err) == (0, ["ok: 1 workflow(s), 0 error(s), 0 warning(s)" + TAG], "")
    code, doc = _json(capsys, "check", str(root), "--format", "json")
    assert (doc["workflows"], doc["discovered"]) == (["Approvals"], ["Approvals"])
    # JSON lists what the runtime itself would discover: nothing of a bare contract
    (root / "workflows/Approvals/orchestrator.yaml").unlink()
    code, doc = _json(capsys, "check", str(root), "--format", "json")
    assert (doc["workflows"], doc["discovered"]) == (["Approvals"], [])


def test_each_problem_is_one_located_line_and_the_exit_is_1(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/Approvals/context_variables.yaml": CLEAN,
            "workflows/Broken/context_variables.yaml": MISEXPOSED,
        }
    )
    code, out, _ = check(capsys, str(root))
    assert code == 1
    problems, summary = out[:-1], out[-1]
    assert summary == "FAILED: 2 workflow(s), 1 error(s), 4 warning(s)" + TAG
    for line in problems:
        m = LOCATED.match(line)
        assert m, line
        assert m["file"].endswith("/context_variables.yaml")
    f = "workflows/Broken/context_variables.yaml"
    assert problems == [
        f"{f}:9:14: REFUSED: runtime mozaiks-0.2.0 would not load this workflow's context",
        undiscovered("Approvals"),
        undiscovered("Broken"),
        f"{f}:5:3: warning: definitions.orphan: variable 'orphan' is not exposed to any agent",
        f"{f}:9:14: agents.Reviewer.variables: agent 'Reviewer' exposes undeclared "
        "variable(s) 'ghost'",
        f"{f}:10:3: warning: agents.Idle: agent 'Idle' exposes no variables",
    ]


def test_malformed_yaml_is_located_not_a_traceback(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace({"workflows/Broken/context_variables.yaml": BROKEN})
    code, out, err = check(capsys, str(root))
    assert code == 1
    assert out[0] == (
        "workflows/Broken/context_variables.yaml:9:1: REFUSED: runtime mozaiks-0.2.0 "
        "would not load "
        "this workflow's context"
    )
    assert out[1] == (
        "workflows/Broken/context_variables.yaml:9:1: YAML syntax error: found character "
        "that cannot start any token (a tab: YAML does not allow tabs for indentation)"
    )
    assert "Traceback" not in err


def test_contract_errors_at_their_lines(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    text = BROKEN.replace("  region:\n\ttype: string\n", "agents: {A: {variables: [approved]}}\n")
    root = workspace({"workflows/Broken/context_variables.yaml": text})
    code, out, _ = check(capsys, str(root), "--quiet")
    assert code == 1
    f = "workflows/Broken/context_variables.yaml"
    assert out == [
        f"{f}:4:54: REFUSED: runtime mozaiks-0.2.0 would not load this workflow's context",
        f"{f}:4:54: definitions.approved.source.triggers[0]: a user_text trigger needs 'match'",
        f"{f}:7:36: definitions.limits.source.colection: unknown field "
        "(did you mean 'collection'?)",
        "FAILED: 1 workflow(s), 2 error(s), 2 warning(s)" + TAG,
    ]


def test_lines_are_counted_as_editors_count_them_after_unicode_line_separators(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    # YAML counts NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR as line breaks; an editor,
    # grep -n and git do not: a problem after a description holding them is on the line the
    # author sees, at the column they see
    text = (
        "definitions:\n"
        '  note:\n    type: string\n    description: "a\u2028b\x85c\u2029d"\n'
        "    source: {type: state, default: x}\n"
        "  limits:\n    type: object\n    source: {type: data_reference, colection: x}\n"
        "agents: {A: {variables: [note, limits]}}\n"
    )
    root = workspace({"workflows/Seps/context_variables.yaml": text})
    code, out, _ = check(capsys, str(root), "--quiet")
    assert code == 1
    row = text.split("\n").index("    source: {type: data_reference, colection: x}")
    col = text.split("\n")[row].index("colection")
    assert f"workflows/Seps/context_variables.yaml:{row + 1}:{col + 1}: " in "\n".join(out), out


def test_warnings_alone_pass_unless_strict(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    text = CLEAN + "  Idle: {variables: []}\n"
    root = workspace({"workflows/Approvals/context_variables.yaml": text})
    code, out, _ = check(capsys, str(root))
    assert code == 0
    assert out[-1] == "ok: 1 workflow(s), 0 error(s), 2 warning(s)" + TAG
    code, out, _ = check(capsys, str(root), "--strict")
    assert code == 1
    assert out[-1] == "FAILED: 1 workflow(s), 0 error(s), 2 warning(s)" + TAG
    code, out, _ = check(capsys, str(root), "--quiet")
    assert out == ["ok: 1 workflow(s), 0 error(s), 2 warning(s)" + TAG]


def test_a_workflow_folder_checks_only_that_workflow(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/Approvals/context_variables.yaml": CLEAN,
            "workflows/Broken/context_variables.yaml": BROKEN,
        }
    )
    code, out, _ = check(capsys, str(root / "workflows" / "Approvals"))
    assert (code, out[-1]) == (0, "ok: 1 workflow(s), 0 error(s), 1 warning(s)" + TAG)
    assert out[:-1] == [undiscovered("Approvals")]
    code, out, _ = check(capsys, str(root), "--workflow", "Approvals")
    assert code == 0
    code, _, _ = check(capsys, str(root / "workflows"))
    assert code == 1


def test_file_sources_are_checked(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/W/context_variables.yaml": """
            definitions:
              keys: {type: string, source: {type: file, path: certs/server.pem, required: true}}
              policy: {type: object, source: {type: file, path: data/absent.json, required: true}}
            agents: {A: {variables: [keys, policy]}}
            """,
        }
    )
    code, out, _ = check(capsys, str(root))
    # mozaiks 0.2.0's loader logs a required file it cannot read and goes on with None
    assert code == 0
    assert sum("required file:" in line and "the run goes on" in line for line in out) == 2
    code, out, _ = check(capsys, str(root), "--runtime", "spec")
    assert code == 1
    f = "workflows/W/context_variables.yaml"
    # the matrix's own words for each row, at the path that is wrong
    assert out[:2] == [
        f"{f}:2:51: definitions.keys.source.path: required file: certs/server.pem: refused: "
        "'server.pem' has the secret-file suffix .pem",
        f"{f}:3:53: definitions.policy.source.path: required file: data/absent.json: "
        "file not found",
    ]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["{missing}"], "no such directory"),
        (["{empty}"], "not a workspace"),
        (["{ws}", "--workflow", "Nope"], "no workflow named Nope"),
    ],
)
def test_unusable_arguments_exit_2(
    workspace: WriteWorkspace,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    words: str,
) -> None:
    root = workspace({"workflows/Approvals/context_variables.yaml": CLEAN})
    (tmp_path / "empty").mkdir()
    filled = [
        a.replace("{ws}", str(root))
        .replace("{missing}", str(tmp_path / "missing"))
        .replace("{empty}", str(tmp_path / "empty"))
        for a in args
    ]
    code, out, err = check(capsys, *filled)
    assert code == 2
    assert out == []
    assert err.startswith("flowctx: ") and words in err
    assert "Traceback" not in err


@pytest.mark.parametrize("args", [["{ws}", "--bogus"], ["{ws}", "--format", "xml"]])
def test_bad_flags_exit_2(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    root = workspace({"workflows/Approvals/context_variables.yaml": CLEAN})
    with pytest.raises(SystemExit) as exc:
        main(["check", *[a.replace("{ws}", str(root)) for a in args]])
    assert exc.value.code == 2
    # one line that says what was wrong and where the options are, not the usage block
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("flowctx check: "), err
    assert err.rstrip().endswith("('flowctx check --help' lists its options)")


def test_the_installed_script(workspace: WriteWorkspace, tmp_path: Path) -> None:
    root = workspace(
        {
            "workflows/Broken/context_variables.yaml": BROKEN,
            "workflows/Approvals/context_variables.yaml": CLEAN,
        }
    )
    script = shutil.which("flowctx")
    command = (
        [script]
        if script
        else [sys.executable, "-c", "from flowctx_tui.cli import main; raise SystemExit(main())"]
    )
    env = {k: v for k, v in os.environ.items() if k != "FLOWCTX_MONGO_URI"}
    done = subprocess.run(
        [*command, "check", str(root)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert any(
        line.startswith("workflows/Broken/context_variables.yaml:9:1: YAML syntax error")
        for line in done.stdout.splitlines()
    )


# --- check agrees with matrix ----------------------------------------------------------------

# These tests are about check and matrix agreeing, whatever the runtime; they are judged against
# the documented contract (`spec`), where a config's default applies and can fail to coerce.
SPEC = {"flowctx.yaml": "runtime: spec\n"}

DISAGREED = """
definitions:
  api_token:
    type: string
    source: {type: config, env_var: API_TOKEN, required: true}
  max_iterations:
    type: integer
    source: {type: config, env_var: MAX_ITERATIONS, default: "abc"}
  notes:
    type: string
    source: {type: file, path: data/notes.md, format: text, default: none yet}
  policy:
    type: object
    source: {type: file, path: data/policy.json, required: true}
  region:
    type: string
    source: {type: config, env_var: REGION, default: eu}
agents:
  A: {variables: [api_token, max_iterations, notes, policy, region]}
"""


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code = main(list(args))
    return code, json.loads(capsys.readouterr().out)


def test_every_row_error_and_warning_of_matrix_is_one_in_check(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    # a required, unset config once showed as an error in matrix and the app, while check
    # printed "ok" and exited 0
    root = workspace({"workflows/W/context_variables.yaml": DISAGREED, **SPEC})
    m_code, matrix = _json(capsys, "matrix", str(root), "--format", "json")
    c_code, checked = _json(capsys, "check", str(root), "--format", "json")
    rows = {v["name"]: v for v in matrix["variables"]}
    row_errors = [(n, r["error"]) for n, r in rows.items() if r["error"]]
    row_warnings = [(n, w) for n, r in rows.items() for w in r["warnings"]]
    assert {n for n, _ in row_errors} == {"api_token", "policy"}
    assert {n for n, _ in row_warnings} == {"max_iterations", "notes"}
    assert (m_code, c_code) == (1, 1)
    by_severity: dict[str, list[str]] = {"error": [], "warning": []}
    for p in checked["problems"]:
        by_severity[p["severity"]].append(p["message"])
    for severity, found in (("error", row_errors), ("warning", row_warnings)):
        for name, message in found:
            hits = [m for m in by_severity[severity] if message in m and name in m]
            assert len(hits) == 1, (severity, name, message, by_severity)
    # nothing else: the demo-like contract has no other problem
    assert (checked["errors"], checked["warnings"]) == (2, 2)
    assert checked["ok"] is False


def test_the_same_inputs_clear_the_same_problems(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/W/context_variables.yaml": DISAGREED,
            **SPEC,
            **SPEC,
            "data/notes.md": "# notes\n",
            "data/policy.json": {"limit": 5},
        }
    )
    inputs = ["--env", "API_TOKEN=t0k3n", "--env", "MAX_ITERATIONS=7"]
    m_code, matrix = _json(capsys, "matrix", str(root), "--format", "json", *inputs)
    assert m_code == 0 and not any(v["warnings"] for v in matrix["variables"])
    c_code, checked = _json(capsys, "check", str(root), "--format", "json", *inputs)
    assert (c_code, checked["errors"], checked["warnings"], checked["problems"]) == (0, 0, 0, [])
    # a launch value is an input too
    code, _ = _json(
        capsys,
        "check",
        str(root),
        "--format",
        "json",
        "--env",
        "MAX_ITERATIONS=7",
        "--launch",
        '{"api_token": "t"}',
    )
    assert code == 0


def test_text_and_json_list_the_same_problems(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace({"workflows/W/context_variables.yaml": DISAGREED, **SPEC})
    inputs = ["--env", "MAX_ITERATIONS=twelve"]
    _, checked = _json(capsys, "check", str(root), "--format", "json", *inputs)
    code, out, _ = check(capsys, str(root), *inputs)
    assert code == 1
    assert out[-1] == (
        "FAILED: 1 workflow(s), 2 error(s), 2 warning(s) [runtime spec (documentation 001_6d6, "
        "as documented)]"
    )
    # the required config left unset makes the loader raise: the refusal matrix shows comes
    # first, then the same problems as the JSON, in its order
    f = "workflows/W/context_variables.yaml"
    assert set(checked["refused"]) == {"W"}
    assert out[0].startswith(f"{f}:2:3: REFUSED: runtime spec would not load")
    out = out[1:]
    located = [f"{p['file']}:{p['line']}:{p['column']}" for p in checked["problems"]]
    assert [line.split(": ", 1)[0] for line in out[:-1]] == located
    # each problem at the value that is wrong: the env var a required config reads, the
    # path a file source names
    assert out[0].startswith(f"{f}:4:37: definitions.api_token.source.env_var: Required config")
    assert any("'twelve'" in line for line in out), out
    assert out[3].startswith(f"{f}:13:32: definitions.policy.source.path: required file:")


# --- check --format json, and codes ----------------------------------------------------------

KINDS = {
    "workflows/Yaml/context_variables.yaml": "definitions: [\n",
    "workflows/Shape/context_variables.yaml": MISEXPOSED,
    "workflows/W/context_variables.yaml": DISAGREED,
    **SPEC,
    "workflows/W/flow.yaml": "steps: [{name: A}]\npaths: [{from: A, to: B, conditon: x}]\n",
    "flowctx.yaml": "env: {}\nlanch: {}\n",
}


def test_json_gives_every_problem_its_place_severity_and_stable_code(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(KINDS)
    code, doc = _json(capsys, "check", str(root), "--format", "json")
    assert code == 1
    assert set(doc) == {
        "workspace", "workflows", "discovered", "ok", "errors", "warnings", "ignored", "runtime",
        "refused", "problems",
    }  # fmt: skip
    assert doc["workspace"] == str(root.resolve())
    assert doc["workflows"] == ["Shape", "W", "Yaml"]
    for p in doc["problems"]:
        # the documented six, then the fix where check knows one
        assert list(p)[:6] == ["file", "line", "column", "severity", "code", "message"]
        assert list(p)[6:] in ([], ["fix"])
        assert p["code"] in PROBLEM_CODES, p
    codes = {(p["file"], p["code"], p["severity"]) for p in doc["problems"]}
    f = "workflows/{}/context_variables.yaml".format
    assert codes >= {
        (f("Yaml"), "yaml", "error"),
        (f("Shape"), "contract", "error"),
        (f("Shape"), "exposure.not-exposed", "warning"),
        (f("Shape"), "exposure.agent-empty", "warning"),
        (f("W"), "resolve.config", "error"),
        # its flowctx.yaml (broken on purpose) names no runtime: the default profile's
        # warning that the runtime ignores a documented default
        (f("W"), "runtime.config-default", "warning"),
        (f("W"), "resolve.file", "warning"),
        ("workflows/W/flow.yaml", "routing", "error"),
        ("flowctx.yaml", "profile", "error"),
    }
    assert doc["errors"] == sum(p["severity"] == "error" for p in doc["problems"])
    assert doc["warnings"] == len(doc["problems"]) - doc["errors"]
    # text prints the refusals first (the runtime would stop there), then the same problems,
    # one line each, in the same order
    code, out, _ = check(capsys, str(root))
    refusals = out[: len(doc["refused"])]
    assert all("REFUSED" in line or "refuse" in line for line in refusals), refusals
    assert [LOCATED.match(line)["file"] for line in out[len(refusals) : -1]] == [  # type: ignore[index]
        p["file"] for p in doc["problems"]
    ]


def test_json_quiet_keeps_errors_only(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace({"workflows/Shape/context_variables.yaml": MISEXPOSED})
    _, doc = _json(capsys, "check", str(root), "--format", "json", "--quiet")
    assert {p["severity"] for p in doc["problems"]} == {"error"}
    assert doc["warnings"] == 3  # still counted (two exposure warnings, one undiscovered)


def test_the_count_is_one_function_for_check_and_the_app(
    workspace: WriteWorkspace,
) -> None:
    root = workspace({"workflows/W/context_variables.yaml": DISAGREED, **SPEC})
    session = open_session(root, env={})
    wf = session.load("W")
    snap, inputs = session.snapshot(), session.inputs()
    problems = workflow_problems(snap, inputs, {"W": (wf, session.matrix(wf))})
    assert str(count_problems(problems)) == "2 errors, 2 warnings"
    assert str(count_problems(problems[:1])) == "1 error, 0 warnings"
    assert problems == check_workspace(session, ["W"])


# --- check's arguments ----------------------------------------------------------------------


def test_no_workflows_is_the_same_message_as_matrix(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace({"data/x.json": {}})
    results = []
    for command in ("check", "matrix", "prompt"):
        code = main([command, str(root)])
        captured = capsys.readouterr()
        results.append((code, captured.out, captured.err))
    assert results[0] == (
        2,
        "",
        f"flowctx: {root.resolve()}: no workflows found under workflows/\n",
    )
    assert results[1] == results[0] and results[2] == results[0]


def test_check_a_file_says_it_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "afile.txt").write_text("hello\n")
    code, out, err = check(capsys, str(tmp_path / "afile.txt"))
    assert (code, out) == (2, [])
    assert f"{(tmp_path / 'afile.txt').resolve()}: is a file, not a workspace" in err


def test_a_transition_rule_the_runtime_cannot_compile_fails_at_its_line(
    capsys: pytest.CaptureFixture[str], workspace: WriteWorkspace
) -> None:
    root = workspace(
        {
            "workflows/W/context_variables.yaml": CLEAN,
            "workflows/W/transition_graph.yaml": """
            transition_rules:
              - source_agent: Reviewer
                target_agent: terminate
                transition_type: condition
                condition_type: context_expression
                context_expression: "${approved} and len(${region}) > -1"
            """,
            "workflows/W/handoffs.yaml": """
            handoff_rules:
              - source_agent: Reviewer
                target_agent: terminate
                handoff_type: condition
                condition: "${approved} == true and ${region} == 'x' and ${approved} == ${approved}"
            """,
        }
    )
    code, lines, _ = check(capsys, str(root))
    assert code == 1
    assert lines[0] == undiscovered("W")
    assert lines[1] == (
        "workflows/W/transition_graph.yaml:6:25: transition_rules[0].context_expression: "
        "the Mozaiks runtime cannot compile this rule: unsupported context_expression syntax: "
        "USub; a negative literal is refused (unary minus is not in its allowlist): compare "
        "the other way, e.g. ${n} >= 0 rather than ${n} > -1 (the graph does not compile "
        "(WorkflowGraphCompileError), so the workflow does not start) (at character 34)"
    )
    # the handoff compiles under AG2 (after true -> True): no problem reported for it
    assert not any("handoffs.yaml" in line for line in lines)


@pytest.mark.parametrize(
    "condition",
    [
        "globalThis['pro' + 'cess'].pid > 0",
        "[]['cons' + 'tructor']['cons' + 'tructor']('return 1')() === 1",
    ],
)
def test_a_condition_the_engine_would_execute_is_a_located_security_error(
    condition: str, workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/W/context_variables.yaml": CLEAN,
            "workflows/W/flow.yaml": (
                "steps: [{name: A, starting: true}, {name: B}]\n"
                f'paths: [{{from: A, to: B, condition: "{condition}"}}]\n'
            ),
        }
    )
    code, doc = _json(capsys, "check", str(root), "--format", "json")
    [security] = [p for p in doc["problems"] if p["code"] == "security"]
    assert code == 1 and security["severity"] == "error"
    assert (security["file"], security["line"]) == ("workflows/W/flow.yaml", 2)
    assert "MemberJunction 5.51.3 would execute this as code" in security["message"]
    assert "flowctx never evaluates it" in security["message"]


MISTYPED = """
definitions:
  retries:
    type: intger
    source: {type: config, default: "3"}
  ready:
    type: Boolean
    source: {type: state, default: false}
  note:
    source: {type: state, default: x}
agents:
  A: {variables: [retries, ready, note]}
"""


def test_an_unknown_type_is_a_located_warning_saying_what_the_runtime_does(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace({"workflows/W/context_variables.yaml": MISTYPED})
    code, out, _ = check(capsys, str(root))
    assert code == 0  # the runtime loads it: a warning, not an error
    assert out[1] == (
        "workflows/W/context_variables.yaml:3:11: warning: definitions.retries.type: unknown "
        "type 'intger' (did you mean 'integer'?): the runtime accepts any type name and gives "
        "this one no meaning: it coerces nothing (a config '30' stays the string '30', 'false' "
        "a truthy string) and its persistence guard admits any value [runtime mozaiks-0.2.0]"
    )
    # 'Boolean' is read lowercased by the runtime, and an unwritten type is 'any': no word
    assert len(out) == 3 and out[-1].endswith("2 warning(s)" + TAG)
    # what flowctx resolves is what the runtime loads: the string, not the integer 3
    assert main(["matrix", str(root), "--format", "json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)["variables"]}
    assert rows["retries"]["value"] == "3"
    _, doc = _json(capsys, "check", str(root), "--format", "json")
    mistyped = [p for p in doc["problems"] if p["code"] == "runtime.unknown-type"]
    assert [(p["line"], p["column"], p["severity"]) for p in mistyped] == [(3, 11, "warning")]


def test_a_workspace_the_runtime_would_not_discover_is_said_at_each_folder(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/A/context_variables.yaml": CLEAN,
            "workflows/B/context_variables.yaml": CLEAN,
        }
    )
    _, doc = _json(capsys, "check", str(root), "--format", "json")
    found = [p for p in doc["problems"] if p["code"] == "runtime.discovery"]
    assert [(p["file"], p["line"], p["column"], p["severity"]) for p in found] == [
        ("workflows/A/context_variables.yaml", 1, 1, "warning"),
        ("workflows/B/context_variables.yaml", 1, 1, "warning"),
    ]
    assert "its folder has no orchestrator.yaml" in found[0]["message"]
    assert doc["ok"] is True and doc["refused"] == {}


def test_a_value_of_the_process_environment_is_never_quoted(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pull request's contract reads a CI runner's variable whose name looks like nothing,
    as a type it cannot be: the warning says so without the value (check runs in CI). A value
    the workspace itself gives (flowctx.yaml) is its own and may be quoted."""
    monkeypatch.setenv("CI_JOB_JWT", "eyJhbGciOi.runner-only-payload")
    root = workspace(
        {
            "workflows/W/context_variables.yaml": (
                "definitions:\n"
                "  job: {type: integer, source: {type: config, env_var: CI_JOB_JWT}}\n"
                "  mine: {type: integer, source: {type: config, env_var: MY_LIMIT}}\n"
                "agents:\n  A: {variables: [job, mine]}\n"
            ),
            "flowctx.yaml": "env:\n  MY_LIMIT: lots\n",
        }
    )
    for fmt in ("text", "json", "sarif", "github"):
        _, out, err = check(capsys, str(root), "--format", fmt)
        text = "\n".join(out) + err
        assert "runner-only-payload" not in text and "eyJhbGciOi" not in text, fmt
    _, out, _ = check(capsys, str(root))
    said = "\n".join(out)
    assert "definitions.job.source.env_var: cannot coerce the str value to integer" in said
    assert "cannot coerce 'lots' to integer" in said
    # a record looked up with it: whether one is found may not be told either
    contract = root / "workflows/W/context_variables.yaml"
    contract.write_text(
        contract.read_text().replace(
            "agents:",
            "  owner:\n    type: object\n    source:\n      type: data_reference\n"
            "      database_name: default\n      collection: keys\n"
            "      query_template: {k: '{{job}}'}\n      required: true\nagents:",
        )
    )
    (root / "seed/default").mkdir(parents=True)
    (root / "seed/default/keys.json").write_text('[{"k": "eyJhbGciOi.runner-only-payload"}]')
    found = check(capsys, str(root), "--format", "json")
    monkeypatch.setenv("CI_JOB_JWT", "eyJhbGciOi.another-payload")
    assert check(capsys, str(root), "--format", "json") == found


def test_a_problem_without_a_line_is_located_by_its_file_alone(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The demo's handoffs.yaml is never read by the runtime: the warning is about the whole
    file, so it names the file, not a made-up ``handoffs.yaml:0:0``; JSON keeps line 0."""
    from flowctx_tui.cli.workspace_args import demo_path

    main(["check", str(demo_path())])
    out = capsys.readouterr().out
    assert "workflows/AppGenerator/handoffs.yaml: warning: handoffs.yaml is never read" in out
    assert not re.search(r":0:0\b", out), out
    main(["check", str(demo_path()), "--format", "json"])
    problems = json.loads(capsys.readouterr().out)["problems"]
    (unread,) = [p for p in problems if p["file"].endswith("handoffs.yaml")]
    assert (unread["line"], unread["column"]) == (0, 0)
