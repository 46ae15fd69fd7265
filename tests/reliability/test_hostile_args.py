"""Hostile command-line arguments (issue 13): JSON that json.loads refuses past its syntax,
``@file`` arguments that never end, values typed where they may be secrets, URI passwords that
hold ``/``, ``@`` or spaces, and a URI option that would lift flowctx's server-selection cap.

What the user notices: one message that names the argument (and line:column for JSON), exit
code 2, never a traceback, never the value they typed when it may be a secret.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import pytest

from flowctx_core.base.secrets import MASK, mask_text, restore_uri_passwords, secret_strings
from flowctx_core.model.database import MongoDatabase, open_database
from flowctx_tui.cli.common import MAX_ARG_FILE_BYTES
from tests.conftest import write_tree
from tests.reliability.harness import run_cli

CONTRACT = "workflows/W/context_variables.yaml"
HUGE_INT = "9" * 5000


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path / "ws",
        {
            CONTRACT: (
                "definitions:\n  x: {type: string, source: {type: config, default: a}}\n"
                "agents:\n  Agent: {variables: [x]}\n"
            ),
            "workflows/W/flow.yaml": (
                "steps:\n  - {name: Start, type: Action, starting: true}\n"
                "  - {name: Done, type: Action}\n"
                "paths:\n  - {from: Start, to: Done, condition: 'true'}\n"
            ),
        },
    )


# --- JSON arguments -----------------------------------------------------------------------------


def test_a_huge_integer_in_eval_data_is_a_located_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run_cli(["eval", "--data", '{"n": ' + HUGE_INT + "}", "true"], capsys)
    assert code == 2 and out == ""
    assert err.startswith("flowctx: --data:1:7: invalid JSON for --data: an integer of more than")


def test_a_huge_integer_in_an_at_file_is_located_in_that_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data.json"
    data.write_text('{\n  "n": ' + HUGE_INT + "\n}", encoding="utf-8")
    code, _, err = run_cli(["eval", "--context", f"@{data}", "true"], capsys)
    assert code == 2
    assert "--context @file:2:8: invalid JSON for --context: an integer of more than" in err


def test_100000_deep_json_in_eval_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    code, _, err = run_cli(["eval", "--data", '{"a": ' + deep + "}", "true"], capsys)
    assert code == 2
    assert "--data:1:70: invalid JSON for --data: nested more than 64 levels deep" in err


def test_bad_batch_lines_are_answered_and_the_batch_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dialect = "sk-" + secrets.token_hex(8)
    lines = [
        '{"expr": "true", "scope": {"n": ' + HUGE_INT + "}}",
        '{"expr": "true", "scope": ' + "[" * 100_000 + "]" * 100_000 + "}",
        json.dumps({"expr": "true", "dialect": dialect}),
        '{"expr": "1 == 1"}',
    ]
    batch = tmp_path / "batch.jsonl"
    batch.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run_cli(["eval", "--batch", str(batch)], capsys)
    assert code == 0
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == 4
    assert "line 1: invalid JSON: an integer of more than 4,300 digits" in results[0]["error"]
    assert "line 2: invalid JSON: nested more than 64 levels deep" in results[1]["error"]
    assert results[2]["error"].startswith('line 3: unknown "dialect"')
    assert dialect not in out
    assert results[3]["success"] and results[3]["value"] is True


def test_a_lone_surrogate_in_eval_explain_prints_escaped(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run_cli(
        ["eval", "--explain", "--data", '{"s": "\\ud800"}', 'data.s == "x"'], capsys
    )
    assert code == 1
    assert 'got "\\ud800"' in out
    out.encode("utf-8")  # printable: no lone surrogate reached the stream


# --- @file arguments --------------------------------------------------------------------------


def test_an_endless_at_file_is_capped(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["eval", "--data", "@/dev/zero", "true"], capsys)
    assert code == 2
    assert f"--data: the @file given holds more than {MAX_ARG_FILE_BYTES:,} bytes" in err


def test_an_at_file_read_error_does_not_repeat_the_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pasted = "sk-live-" + secrets.token_hex(12)
    code, _, err = run_cli(["eval", "--context", f"@{pasted}", "true"], capsys)
    assert code == 2
    assert "--context: cannot read the @file given: No such file or directory" in err
    assert pasted not in err
    # a file's name is said, so the reader knows which @file it was
    code, _, err = run_cli(["eval", "--context", "@missing.json", "true"], capsys)
    assert code == 2
    assert "--context: cannot read the @file given (missing.json): No such file" in err
    # a JSON-looking name that is a secret is not
    code, _, err = run_cli(["eval", "--context", f"@{pasted}.json", "true"], capsys)
    assert code == 2 and pasted not in err


# --- typed values that may be secrets ---------------------------------------------------------


def test_env_without_a_name_is_not_echoed(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    token = "sk-" + secrets.token_hex(16)
    for command in ("matrix", "prompt", "routes"):
        extra = ["--from", "Start"] if command == "routes" else []
        code, out, err = run_cli([command, str(root), *extra, "--env", token], capsys)
        assert code == 2, (command, out, err)
        assert "--env expects NAME=VALUE" in err
        assert token not in out + err


def test_argparse_errors_do_not_echo_a_uri_or_value(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    password = secrets.token_hex(10)
    uri = f"mongodb://admin:{password}@db.example/"
    with pytest.raises(SystemExit) as exit_:
        run_cli(["eval", "--mongo-uri", uri, "true"], capsys)  # eval has no --mongo-uri
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: --mongo-uri and 1 value(s) (not shown)" in err
    assert password not in err and "db.example" not in err
    with pytest.raises(SystemExit):
        run_cli(["eval", f"--mongo-uri={uri}", "true"], capsys)
    err = capsys.readouterr().err
    assert "unrecognized arguments: --mongo-uri" in err and password not in err
    with pytest.raises(SystemExit):
        run_cli(["matrix", str(root), "--width", password], capsys)
    err = capsys.readouterr().err
    assert "--width: expected a whole number of columns" in err and password not in err


def test_routes_from_an_unknown_name_is_not_echoed(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    token = "ghp_" + secrets.token_hex(12)
    code, out, err = run_cli(["routes", str(root), "--from", token], capsys)
    assert code == 2
    assert "no step or agent of the name given to --from has routes in workflow 'W'" in err
    assert "known: Start, Done" in err
    assert token not in out + err


# --- URI passwords ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "template",
    [
        "mongodb://admin:{pw}/SECRET@h/",
        "mongodb://admin:{pw} with space@h/db",
        "postgres://u:{pw}@part@db.example:5432/app",
        "mongodb://h/app?authSource=admin&password={pw}&w=1",
        "redis://h:6379/0?token={pw}",
    ],
)
def test_uri_passwords_are_masked_whole(template: str) -> None:
    pw = secrets.token_hex(8)
    uri = template.format(pw=pw)
    shown = mask_text(f"cannot use MongoDB URI {uri}: refused")
    assert pw not in shown and "SECRET" not in shown and "part" not in shown, shown
    assert MASK in shown
    found = secret_strings(uri)
    assert any(pw in s for s in found), found
    assert restore_uri_passwords(mask_text(uri), uri) == uri  # editing a masked URI keeps it


def test_ports_and_plain_text_are_not_masked() -> None:
    for text in ("https://host:8080/users/@alice", "see https://host:8080 or mail me@x", "a=b"):
        assert mask_text(text) == text


def test_a_password_with_a_slash_is_masked_in_the_matrix_warning(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pw = "PLANT/" + secrets.token_hex(6)
    _, out, err = run_cli(["matrix", str(root), "--mongo-uri", f"mongodb://admin:{pw}@"], capsys)
    assert "cannot use MongoDB URI mongodb://admin:***@" in out + err
    assert pw not in out + err and pw.split("/")[1] not in out + err


def test_an_invalid_server_selection_timeout_keeps_the_cap(tmp_path: Path) -> None:
    uri = "mongodb://127.0.0.1:9/?serverSelectionTimeoutMS=soon"
    db, problems = open_database(tmp_path, uri)
    assert isinstance(db, MongoDatabase)
    assert db._client.options.server_selection_timeout == 1.5
    assert "serverSelectionTimeoutMS is not a number" in problems[0].message
    # a valid one is the user's choice
    db, problems = open_database(tmp_path, "mongodb://127.0.0.1:9/?serverSelectionTimeoutMS=250")
    assert isinstance(db, MongoDatabase) and not problems
    assert db._client.options.server_selection_timeout == 0.25


def test_a_batch_without_line_ends_is_capped(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["eval", "--batch", "/dev/zero"], capsys)
    assert code == 2 and out == ""
    assert f"--batch: line 1 is longer than {MAX_ARG_FILE_BYTES:,} characters" in err


def test_an_unreadable_launch_file_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--launch @missing.json`` (and any path-like name) says which file it could not read."""
    from flowctx_tui.cli.workspace_args import demo_path

    for name in ("missing.json", "in/launch.txt", "launch.conf"):
        code, _, err = run_cli(
            ["routes", str(demo_path()), "--from", "InterviewAgent", "--launch", f"@{name}"],
            capsys,
        )
        assert code == 2
        assert f"--launch: cannot read the @file given ({name}): No such file" in err, err
