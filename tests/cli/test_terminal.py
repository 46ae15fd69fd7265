"""Command-line conventions a terminal user relies on, run through the installed command into a
real pipe or a real pseudo-terminal: --version, NO_COLOR and TERM=dumb, table width, and the
app refusing to start without a terminal."""

from __future__ import annotations

import argparse
import json
import re
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest

from flowctx_tui.cli import app_cmd
from tests.cli.terminal_harness import ESCAPE, clean_env, run_in_pty, run_piped
from tests.conftest import WriteWorkspace

REPO = Path(__file__).resolve().parents[2]
DEMO_ARGS = ["--demo", "-w", "Approvals"]
LONG = "lorem ipsum dolor sit amet " * 12  # 324 characters, far past any column

CONTRACT = f"""
definitions:
  long_note:
    type: string
    source: {{type: state, default: "{LONG.strip()}"}}
  region:
    type: string
    source: {{type: config, env_var: REGION, default: eu}}
agents:
  A: {{variables: [long_note, region]}}
"""


@pytest.fixture
def long_ws(workspace: WriteWorkspace) -> Path:
    return workspace({"workflows/W/context_variables.yaml": CONTRACT})


# --- --version -----------------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_is_the_package_version(tmp_path: Path, flag: str) -> None:
    done = run_piped([flag], cwd=tmp_path, env=clean_env())
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    assert (done.returncode, done.stderr) == (0, "")
    # pyproject.toml is the one place the version is written; the command reports the install
    assert done.stdout == f"flowctx {version('flowctx')}\n"
    assert version("flowctx") == declared


def test_help_mentions_version(tmp_path: Path) -> None:
    done = run_piped(["--help"], cwd=tmp_path, env=clean_env())
    assert done.returncode == 0
    assert "flowctx --version" in done.stdout


# --- colour --------------------------------------------------------------------------------


def test_matrix_colours_a_terminal_by_default(tmp_path: Path) -> None:
    run = run_in_pty(["matrix", *DEMO_ARGS], cwd=tmp_path, env=clean_env())
    assert run.returncode == 0
    assert "\x1b[32mresolved" in run.output


@pytest.mark.parametrize(
    "env",
    [{"NO_COLOR": "1"}, {"NO_COLOR": "yes please"}, {"TERM": "dumb"}],
    ids=["NO_COLOR=1", "NO_COLOR=text", "TERM=dumb"],
)
def test_matrix_has_no_colour_when_asked_even_on_a_terminal(
    tmp_path: Path, env: dict[str, str]
) -> None:
    run = run_in_pty(["matrix", *DEMO_ARGS], cwd=tmp_path, env=clean_env(**env))
    assert run.returncode == 0
    assert "resolved" in run.output
    assert "\x1b" not in run.output


def test_an_empty_no_color_does_not_count(tmp_path: Path) -> None:
    # https://no-color.org: "when present and not an empty string"
    run = run_in_pty(["matrix", *DEMO_ARGS], cwd=tmp_path, env=clean_env(NO_COLOR=""))
    assert "\x1b[32mresolved" in run.output


def test_matrix_into_a_pipe_has_no_colour(tmp_path: Path) -> None:
    done = run_piped(["matrix", *DEMO_ARGS], cwd=tmp_path, env=clean_env())
    assert done.returncode == 0
    assert "resolved" in done.stdout and "\x1b" not in done.stdout


EVERY_COMMAND = {
    "matrix": ["matrix", *DEMO_ARGS],
    "check": ["check"],
    "eval": ["eval", "data.x > 1", "--data", '{"x": 2}', "--explain"],
    "routes": ["routes", *DEMO_ARGS, "--from", "AwaitApproval"],
    "prompt": ["prompt", "-w", "AppGenerator"],
    "trigger": ["trigger", "-w", "AppGenerator", "--user", "approve the plan"],
    "authority": ["authority", "{}", '{"app_id": "x"}', "-w", "AppGenerator"],
    "help": ["--help"],
    "a usage error": ["matrix", "--bogus"],
}


@pytest.mark.parametrize("args", EVERY_COMMAND.values(), ids=EVERY_COMMAND.keys())
def test_no_command_writes_an_escape_code_under_no_color(tmp_path: Path, args: list[str]) -> None:
    for env in (clean_env(NO_COLOR="1"), clean_env(TERM="dumb")):
        run = run_in_pty(args, cwd=tmp_path, env=env)
        assert run.output.strip(), args
        assert "Traceback" not in run.output
        assert "\x1b" not in run.output, (args, env.get("TERM"), run.output[:300])


def _app_args(*args: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    app_cmd.configure(parser)
    return parser.parse_args([*args, "--no-watch"])


@pytest.mark.parametrize(
    ("no_color", "expected"), [(None, False), ("", False), ("1", True)], ids=["unset", "", "1"]
)
def test_the_app_follows_the_same_colour_rule(
    monkeypatch: pytest.MonkeyPatch, no_color: str | None, expected: bool
) -> None:
    monkeypatch.setenv("TERM", "xterm-256color")
    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    app = app_cmd.build_app(_app_args("-w", "Approvals"))
    # Textual alone would go monochrome for an empty NO_COLOR too
    assert app.no_color is expected


# --- width ---------------------------------------------------------------------------------


def test_piped_tables_keep_every_value_whole(long_ws: Path, tmp_path: Path) -> None:
    done = run_piped(["matrix", str(long_ws)], cwd=tmp_path, env=clean_env(COLUMNS="80"))
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith("long_note"))
    assert LONG.strip() in row
    assert "…" not in done.stdout
    # the column after a long value is still there, on the same line
    assert row.split()[-1] == "default"


def test_width_fits_a_pipe_to_n_columns(long_ws: Path, tmp_path: Path) -> None:
    done = run_piped(["matrix", str(long_ws), "--width", "70"], cwd=tmp_path, env=clean_env())
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert max(len(line) for line in lines) <= 70, max(lines, key=len)
    row = next(line for line in lines if line.startswith("long_note"))
    assert "lorem ipsum" in row and "…" in row


@pytest.mark.parametrize("columns", [72, 150])
def test_a_terminal_table_uses_the_terminal_width(
    long_ws: Path, tmp_path: Path, columns: int
) -> None:
    run = run_in_pty(["matrix", str(long_ws)], cwd=tmp_path, env=clean_env(), columns=columns)
    assert run.returncode == 0
    lines = run.plain.splitlines()
    assert max(len(line) for line in lines) <= columns
    row = next(line for line in lines if line.startswith("long_note"))
    assert "…" in row
    # a wider terminal shows more of the value
    shown = row.split("state", 1)[1]
    assert len(shown) > columns // 3


@pytest.mark.parametrize(("given", "words"), [("30", "at least 40"), ("wide", "number")])
def test_a_bad_width_is_a_usage_error(tmp_path: Path, given: str, words: str) -> None:
    done = run_piped(["matrix", "--width", given], cwd=tmp_path, env=clean_env())
    assert done.returncode == 2
    assert done.stdout == "" and words in done.stderr and "Traceback" not in done.stderr


def test_json_output_is_never_cut(long_ws: Path, tmp_path: Path) -> None:
    run = run_in_pty(["matrix", str(long_ws), "--format", "json"], cwd=tmp_path, env=clean_env())
    rows = {v["name"]: v for v in json.loads(run.output)["variables"]}
    assert rows["long_note"]["value"] == LONG.strip()


# --- the app needs a terminal --------------------------------------------------------------

REFUSAL = re.compile(r"^flowctx: the app needs a terminal \((?P<why>[^)]+)\); .*'flowctx matrix'")


@pytest.mark.parametrize("args", [[], ["{ws}"], ["{ws}", "-w", "W"]], ids=["demo", "ws", "-w"])
def test_the_app_refuses_a_pipe_at_once(long_ws: Path, tmp_path: Path, args: list[str]) -> None:
    # `flowctx ws </dev/null >out` once drew escape codes into the pipe until killed
    argv = [a.replace("{ws}", str(long_ws)) for a in args]
    done = run_piped(argv, cwd=tmp_path, env=clean_env())
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    m = REFUSAL.match(lines[0])
    assert m and m["why"] == "standard output is not a terminal", lines[0]


def test_the_app_refuses_stdin_from_dev_null(tmp_path: Path) -> None:
    run = run_in_pty([], cwd=tmp_path, env=clean_env(), stdin_is_tty=False)
    assert run.returncode == 2
    assert ESCAPE.search(run.output) is None
    m = REFUSAL.match(run.output.strip())
    assert m and m["why"] == "standard input is not a terminal", run.output


def test_the_app_refuses_a_dumb_terminal(tmp_path: Path) -> None:
    run = run_in_pty([], cwd=tmp_path, env=clean_env(TERM="dumb"))
    assert run.returncode == 2
    assert "\x1b" not in run.output
    m = REFUSAL.match(run.output.strip())
    assert m and "TERM=dumb" in m["why"], run.output
