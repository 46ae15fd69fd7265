"""Terminal control characters from workspace files and arguments (issue 13).

An escape sequence in a variable name, a default, a file path or an agent name was printed raw
by ``flowctx matrix`` and ``prompt``: it could clear the screen, retitle the window or hide the
lines above it. Every command's output now shows such characters as visible ``\\uXXXX`` escapes
(which are also valid inside JSON strings), and the table's own colours still work.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from flowctx_tui.cli.matrix_cmd import render_table
from flowctx_tui.cli.terminal import SafeStream, escape_controls, safe_output
from tests.conftest import write_tree
from tests.reliability.harness import run_cli

CONTRACT = "workflows/W/context_variables.yaml"
ESC = "\x1b"
CLEAR = f"{ESC}[2J{ESC}[H"
TITLE = f"{ESC}]0;owned\x07"
#: any character a terminal acts on, other than newline and tab
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def yaml_str(text: str) -> str:
    """A double-quoted YAML scalar holding ``text`` (control characters as YAML escapes)."""
    return json.dumps(text)  # JSON string escapes are YAML double-quoted escapes


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    name = f"n{CLEAR}ame"
    agent = f"Ag{TITLE}ent"
    path = f"data/f{ESC}[31mile.json"
    root = write_tree(
        tmp_path / "ws",
        {
            path: '{"k": "v\\u001b[5mblink\\u009b"}',
            CONTRACT: (
                "definitions:\n"
                f"  {yaml_str(name)}: {{type: string, source: {{type: config, "
                f"default: {yaml_str('d' + CLEAR + 'x' + chr(0x202E) + 'rtl')}}}}}\n"
                f"  doc: {{type: object, source: {{type: file, path: {yaml_str(path)}}}}}\n"
                f"  gone: {{type: object, source: {{type: file, path: {yaml_str(path + 'x')}, "
                "default: {}}}\n"
                "agents:\n"
                f"  {yaml_str(agent)}: {{variables: [{yaml_str(name)}, doc, gone]}}\n"
            ),
        },
    )
    return root


COMMANDS = [
    ["matrix"],
    ["matrix", "--width", "100"],
    ["matrix", "--format", "json"],
    ["prompt"],
    ["prompt", "--format", "json"],
    ["check"],
    ["check", "--format", "json"],
    ["trigger", "--user", f"hello{CLEAR}"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_no_command_prints_a_raw_control_character(
    args: list[str], hostile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, err = run_cli([args[0], str(hostile), *args[1:]], capsys)
    assert not RAW_CONTROL.search(out + err), repr(out + err)
    # shown, escaped: the user sees something is there (trigger quotes the message with repr)
    assert "\\u001b" in out + err or "\\x1b" in out + err
    if "json" in args:
        json.loads(out)  # still JSON


def test_the_matrix_table_shows_each_hostile_name_value_and_path_escaped(
    hostile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run_cli(["matrix", str(hostile)], capsys)
    assert "n\\u001b[2J\\u001b[Hame" in out
    assert "d\\u001b[2J\\u001b[Hx\\u202ertl" in out
    assert "data/f\\u001b[31mile.json" in out
    assert "v\\u001b[5mblink\\u009b" in out
    _, out, _ = run_cli(["prompt", str(hostile)], capsys)
    assert "Ag\\u001b]0;owned\\u0007ent" in out


def test_an_eval_expression_with_escapes_is_echoed_escaped(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run_cli(["eval", f"1 +{CLEAR}"], capsys)
    assert code == 3
    assert not RAW_CONTROL.search(out + err), repr(out + err)


def test_the_table_keeps_its_own_colours_and_escapes_the_rest(hostile: Path) -> None:
    from flowctx_core.session import open_session

    matrix = open_session(hostile, env={}).matrix("W")
    table = render_table(matrix, reveal=False, width=None, colour=True)
    sequences = set(re.findall(f"{ESC}\\[[0-9;]*m", table))
    assert sequences and sequences <= {f"{ESC}[32m", f"{ESC}[36m", f"{ESC}[0m", f"{ESC}[33m"}
    assert CLEAR not in table and TITLE not in table
    # the columns still line up: the escaped name is as wide as its column says
    # (a REFUSED line may come first: the escaped name is no identifier for mozaiks 0.2.0's
    # authority policy, so its context load fails with context_authority.empty_key)
    lines = table.splitlines()
    at = next(i for i, line in enumerate(lines) if "SOURCE" in line)
    header, first = lines[at], lines[at + 1]
    assert header.index("SOURCE") == first.index("config")


def test_the_stream_wrapper_escapes_everything_but_newlines_and_tabs() -> None:
    raw = io.StringIO()
    stream = SafeStream(raw)
    stream.write(f"a\tb\nc{ESC}d\r\x00\x9b\ud800\u2066")
    assert raw.getvalue() == "a\tb\nc\\u001bd\\u000d\\u0000\\u009b\\ud800\\u2066"
    assert escape_controls("plain ünïcode ✓") == "plain ünïcode ✓"
    with safe_output():
        import sys

        assert isinstance(sys.stdout, SafeStream) and isinstance(sys.stderr, SafeStream)


def test_flowctx_colours_survive_the_escaping_but_injected_sequences_do_not() -> None:
    # diff and graph colour their own words through terminal.sgr; a name from a workspace
    # file that carries an escape sequence (or imitates an SGR by hand) stays visible text
    from flowctx_tui.cli.terminal import safe_text, sgr

    shown = safe_text(sgr("32", "+") + " name\x1b[2J\x1b]0;owned\x07")
    assert shown.startswith("\x1b[32m+\x1b[0m name")
    assert "\x1b[2J" not in shown and "\\u001b[2J" in shown and "\x07" not in shown
    forged = "\ue000[8m hidden"  # private-use characters without this process's token
    assert safe_text(forged) == forged
