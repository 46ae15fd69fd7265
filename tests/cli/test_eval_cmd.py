"""``flowctx eval``: exit codes, text and JSON output, carets, explain masking, batch mode."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from flowctx_tui.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["eval", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_prd_examples_exit_0_on_true_and_1_on_false(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "data.userApproval === true", "--data", '{"userApproval": true}') == (
        0, "true\n", "",
    )  # fmt: skip
    assert run(capsys, "data.userApproval === true") == (1, "false\n", "")
    code, out, _ = run(
        capsys, "data.retryCount < 3 && payload.status === 'pending'",
        "--data", '{"retryCount": 2}', "--payload", '{"status": "pending"}',
    )  # fmt: skip
    assert (code, out) == (0, "true\n")


def test_flow_context_and_step_result(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "flowContext.stepCount === 2 && stepResult.step === 'Success'",
        "--flow-context", '{"completedSteps": ["a", "b"]}', "--step-result", '{"step": "Success"}',
    )  # fmt: skip
    assert (code, out) == (0, "true\n")


def test_error_exit_3_with_caret(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "a > 1 && missingVar", "--scope", '{"a": 2}')
    # the engine's error is the command's error: standard error, nothing on standard output
    assert (code, out) == (3, "")
    assert err.splitlines() == [
        "error: missingVar is not defined",
        "  a > 1 && missingVar",
        "           ^^^^^^^^^^",
    ]


def test_refusal_caret_points_at_the_token(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "payload.count > 1; true")
    assert code == 3
    assert err.splitlines() == [
        "error: Expression contains forbidden construct: ;",
        "  payload.count > 1; true",
        "                   ^",
    ]


def test_assignment_is_predicted_and_warned(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "payload.count = 5", "--payload", '{"count": 1}')
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "true"
    assert lines[1].startswith("warning: 'payload.count = 5' assigns")
    assert "did you mean '==='" in lines[1]


def test_explain_masks_secret_values_and_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "context.environment === 'production' && payload.apiKey.length > 3",
        "--context", '{"environment": "production", "db_password": "hunter22"}',
        "--payload", '{"apiKey": "sk-verysecret"}',
        "--explain",
    )  # fmt: skip
    assert code == 0
    assert out.splitlines()[0] == "true"
    # a path condition's context may carry API keys: never shown by eval, and the reason is said
    # (the app, which knows the workflow's variables, masks context per variable instead)
    assert (
        "+ context.environment === 'production' -> true "
        "(got *** (secret: read from context, which may carry API keys))"
    ) in out
    # the length is derived from the secret (masking by provenance), and says from what
    assert (
        "+ payload.apiKey.length > 3 -> true (got *** (secret: derived from payload.apiKey))"
    ) in out
    assert "sk-verysecret" not in out and "hunter22" not in out


def test_ag2_uses_context_as_scope_and_masks_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "${mode} == 'batch' and len(${caps}) > 0", "--dialect", "ag2",
        "--context", '{"mode": "batch", "caps": ["a"], "api_token": "tok-123456"}', "--explain",
    )  # fmt: skip
    assert code == 0
    # for ag2 the context is the workflow's variables: each is masked only when it is secret
    assert "+ ${mode} == 'batch' -> True (got 'batch')" in out
    assert "+ len(${caps}) > 0 -> True (got 1)" in out
    assert "tok-123456" not in out
    assert "engine: AG2 ContextExpression 0.14.0" in out


def test_json_format(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "x >", "--scope", '{"x": 1}', "--format", "json")
    data = json.loads(out)
    assert code == 3
    assert data["success"] is False and data["value"] is None
    assert data["error"] == "Unexpected token ')'" and data["error_span"] == [3, 3]
    assert data["engine"] == "MemberJunction SafeExpressionEvaluator 5.51.3"
    code, out, _ = run(capsys, "x > 0", "--scope", '{"x": 1}', "--format", "json", "--explain")
    data = json.loads(out)
    assert code == 0 and data["value"] is True and data["explain"]["text"] == "x > 0"


def test_python_dialect(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "payload.n > 1", "-d", "python", "--payload", '{"n": 2}')[:2] == (
        0,
        "true\n",
    )


def test_scope_from_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    scope = tmp_path / "scope.json"
    scope.write_text('{"a": [1, 2]}', encoding="utf-8")
    assert run(capsys, "a.includes(2)", "--scope", f"@{scope}")[:2] == (0, "true\n")


@pytest.mark.parametrize(
    "argv",
    [["x", "--data", "{bad"], ["x", "--scope", "[1]"], ["x", "--scope", "{}", "--data", "{}"],
     ["${x}", "-d", "ag2", "--payload", "{}"], ["x", "--scope", "@/nonexistent/file.json"],
     [], ["x", "--batch", "-"], ["x", "-d", "ag2", "--context", "[]"]],
)  # fmt: skip
def test_unusable_arguments_exit_2_without_traceback(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert "Traceback" not in out + err and err.startswith("flowctx: ")


def test_bad_dialect_is_an_argparse_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["eval", "x", "--dialect", "perl"])
    assert info.value.code == 2


def test_batch(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lines = [
        '{"expr": "a > 1", "scope": {"a": 2}}',
        "not json",
        '{"scope": {}}',
        "",
        '{"expr": "${x}", "dialect": "ag2", "scope": {"x": 0}}',
        '{"expr": "missing", "scope": {}}',
        '{"expr": "1", "dialect": "perl"}',
        '{"expr": "a", "scope": [1]}',
        "[1, 2]",
        '{"expr": "x == 1", "dialect": "python", "scope": {"x": 1}}',
    ]
    batch = tmp_path / "batch.jsonl"
    batch.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "--batch", str(batch))
    assert code == 0
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == 9  # the blank line is not an input
    assert all(set(r) == {"success", "value", "error", "engine", "warnings"} for r in results)
    mj, ag2 = "MemberJunction SafeExpressionEvaluator 5.51.3", "AG2 ContextExpression 0.14.0"
    verdict = {"warnings": []}
    assert results[0] == {"success": True, "value": True, "error": None, "engine": mj, **verdict}
    assert results[1]["success"] is False and results[1]["error"].startswith("line 2: invalid JSON")
    assert 'missing "expr"' in results[2]["error"]
    assert results[3] == {"success": True, "value": False, "error": None, "engine": ag2, **verdict}
    assert results[4] == {
        "success": False, "value": None, "error": "missing is not defined", "engine": mj, **verdict
    }  # fmt: skip
    assert 'unknown "dialect"' in results[5]["error"]
    assert '"scope" must be' in results[6]["error"]
    assert "expected a JSON object" in results[7]["error"]
    assert results[8]["success"] is True and results[8]["engine"].startswith("Python 3.")
    assert results[1]["engine"] is None  # a line that never reached an engine


def test_batch_unreadable_file_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--batch", "/nonexistent/batch.jsonl")
    assert code == 2 and "cannot read" in err


@pytest.mark.skipif(shutil.which("flowctx") is None, reason="flowctx console script not installed")
def test_installed_console_script() -> None:
    proc = subprocess.run(
        ["flowctx", "eval", "data.retryCount < 3 && payload.status === 'pending'",
         "--data", '{"retryCount": 2}', "--payload", '{"status": "pending"}'],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert (proc.returncode, proc.stdout) == (0, "true\n"), proc.stderr
    batch = subprocess.run(
        ["flowctx", "eval", "--batch", "-"],
        input='{"expr": "a", "scope": {"a": 1}}\n{"expr": "a ==="}\n',
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert batch.returncode == 0
    assert [json.loads(x)["success"] for x in batch.stdout.splitlines()] == [True, False]


def test_mozaiks_dialect_and_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "${status} in ('approved', 'done') and ${later} is None", "--dialect", "mozaiks",
        "--context", '{"status": "approved"}',
    )  # fmt: skip
    assert code == 0
    assert out.splitlines() == [
        "true",
        "warning: ${later} is not in context: the Mozaiks evaluator reads it as None",
    ]
    code, _, err = run(capsys, "${n} > -1", "-d", "mozaiks", "--context", '{"n": 1}')
    assert code == 3 and "negative literal" in err and "WorkflowGraphCompileError" in err
    code, out, _ = run(
        capsys, "${x} == ${y}", "-d", "ag2", "--context", '{"x": [1], "y": [2]}', "--explain"
    )
    assert code == 0
    assert "! warning: ${x} is a list: AG2 pastes it into the text as True" in out
    assert out.splitlines()[-1] == "engine: AG2 ContextExpression 0.14.0"
    code, out, _ = run(capsys, "${a}", "-d", "mozaiks", "--payload", "{}")
    assert code == 2


def test_an_incomplete_condition_keeps_the_engine_s_message_and_says_whose_paren_it_is(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "data.x ===")
    assert code == 3
    lines = err.splitlines()
    # MemberJunction's own words first, then the caret past the end of what was typed
    assert lines[:3] == ["error: Unexpected token ')'", "  data.x ===", "            ^"]
    assert lines[3].startswith("hint: the ')' is MemberJunction's, not yours")
    assert "return Boolean(<condition>);" in lines[3]
    code, out, _ = run(capsys, "a ? b", "--format", "json")
    doc = json.loads(out)
    assert (code, doc["error"]) == (3, "Unexpected token ')'")
    assert "return Boolean(<condition>);" in doc["hint"]


def test_no_wrapper_hint_for_a_paren_the_user_typed(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "(data.x === 1))")
    assert code == 3
    assert "error: " in err and "hint:" not in err
    code, out, _ = run(capsys, "data.x === 1", "--format", "json")
    assert "hint" not in json.loads(out)


@pytest.mark.parametrize(
    ("dialect", "expression", "shown"),
    [
        ("ag2", "${x} and", "  ${x} and"),
        ("python", "x >", "  x >"),
        ("mozaiks", "${x} >  ", "  ${x} >  "),
    ],
)
def test_an_expression_that_ends_too_early_has_its_caret_at_the_end(
    capsys: pytest.CaptureFixture[str], dialect: str, expression: str, shown: str
) -> None:
    # Python reports offset 0 for the end of the input: the caret went under the first
    # character, as if the expression were wrong from its start
    code, _, err = run(capsys, expression, "-d", dialect)
    assert code == 3
    lines = err.splitlines()
    # the Python engines' own words (ast.parse names the text "<unknown>")
    said = "Syntax error: invalid syntax" if dialect == "python" else "invalid syntax (<unknown>"
    assert lines[0].startswith(f"error: {said}"), err
    assert lines[1:3] == [shown, "  " + " " * len(expression.rstrip()) + "^"], err
