"""One convention for every command, read from the parsers ``flowctx`` itself builds.

PATH is the first positional wherever a command takes one, and ``flowctx --help`` names the
commands that take none; ``--format`` is spelled the same everywhere (``text`` first and the
default, its choices explicit and described); every option with choices lists them in its help;
``--scenario``, ``--runtime`` and ``--now`` exist on every command that resolves or routes and
say the same; an option shared by several commands has one metavar; a file kind is the file's
own name, with or without ``.yaml``. Then the behaviour behind the words: a saved scenario does
the same on every command, ``--format table`` still works, an unknown command is said so.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import pytest

from flowctx_tui.cli import COMMANDS, NO_PATH, build_parser, main
from tests.conftest import WriteWorkspace

#: the commands that resolve a workflow or route it: each takes a saved scenario, a runtime
#: profile and an instant, and they mean the same everywhere
RESOLVING = ("matrix", "check", "routes", "graph", "prompt", "trigger")
#: the commands that evaluate under a runtime and a clock but take no saved scenario: a test
#: file's cases carry their own inputs, and a diff compares two revisions of the workspace,
#: each with its own saved scenarios
CLOCKED = ("test", "diff", "eval")
#: an option name two commands use for different things (each said in its help)
DIFFERENT_MEANINGS = {
    "--file": {"graph": "a routing file kind", "test": "a test file's path"},
    "--agent": {"prompt": "an agent to preview", "trigger": "an agent NAME and what it says"},
}


def parsers() -> dict[str, argparse.ArgumentParser]:
    return {name: build_parser(name)[1] for name in COMMANDS}


def options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {o: a for a in parser._actions for o in a.option_strings if o.startswith("--")}


def positionals(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions if not a.option_strings]


@pytest.fixture(autouse=True)
def _plain_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith(("FLOWCTX_", "MOZAIKS_")):
            monkeypatch.delenv(name, raising=False)


def test_path_is_the_first_positional_wherever_it_exists() -> None:
    takes_path = set()
    for name, parser in parsers().items():
        dests = [a.dest for a in positionals(parser)]
        if "path" in dests:
            takes_path.add(name)
            assert dests[0] == "path", (name, dests)
            assert positionals(parser)[0].metavar == "PATH", name
    assert takes_path == set(COMMANDS) - set(NO_PATH)


def test_positionals_are_named_in_capitals_as_the_help_and_docs_write_them() -> None:
    for name, parser in parsers().items():
        for action in positionals(parser):
            shown = action.metavar or action.dest
            assert isinstance(shown, str) and shown.isupper(), (name, shown)


def test_every_option_that_takes_a_value_names_it_as_the_docs_do() -> None:
    # argparse's default is the option's name in capitals: 'serve --public-url PUBLIC_URL'
    # where its page wrote 'URL'
    unnamed = [
        (name, action.option_strings[-1])
        for name, parser in parsers().items()
        for action in parser._actions
        if action.option_strings
        and action.nargs != 0
        and action.metavar is None
        and action.choices is None
    ]
    assert unnamed == []
    public_url = options(parsers()["serve"])["--public-url"]
    assert public_url.metavar == "URL"


def test_top_level_help_names_the_commands_without_path(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert (
        "PATH comes first wherever a command takes one "
        "(all but eval, schema, lsp, completion and config)" in text
    )
    assert "PATH (every command)" not in text


def test_format_is_one_option_text_first_and_default_with_described_choices() -> None:
    with_format = []
    for name, parser in parsers().items():
        action = options(parser).get("--format")
        if action is None:
            continue
        with_format.append(name)
        if name == "schema":  # a JSON Schema is JSON: json is its one format
            assert (action.choices, action.default) == (("json",), "json")
            assert action.help and action.help.startswith("output format (default: json)")
            continue
        assert action.dest == "format", name
        assert action.default == "text", name
        assert action.choices is not None and next(iter(action.choices)) == "text", name
        assert action.help and action.help.startswith("output format (default: text)"), name
        for choice in action.choices:
            assert f"{choice}: " in action.help, (name, choice)
    # every command that prints a result a script may read
    assert set(with_format) == {
        "matrix", "check", "eval", "routes", "graph", "authority", "trigger", "prompt", "test",
        "diff", "trace", "config", "init", "schema",
    }  # fmt: skip


def test_every_option_and_positional_has_help_and_lists_its_choices() -> None:
    for name, parser in parsers().items():
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, (name, action.dest)
            for choice in action.choices or ():
                assert str(choice) in action.help, (name, action.dest, choice)


def test_eval_dialect_lists_its_choices(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "the engine whose answer to predict: mj (MemberJunction path conditions)" in text
    for dialect in ("ag2", "mozaiks", "python"):
        assert f"{dialect} (" in text


def test_scenario_runtime_and_now_on_every_command_that_resolves_or_routes() -> None:
    all_parsers = parsers()
    for option in ("--scenario", "--runtime", "--now"):
        commands = RESOLVING if option == "--scenario" else (*RESOLVING, *CLOCKED)
        seen = {name: options(all_parsers[name]).get(option) for name in commands}
        missing = [name for name, action in seen.items() if action is None]
        assert missing == [], (option, missing)
        # the same metavar and the same words: they do the same thing
        assert len({(a.metavar, a.help) for a in seen.values() if a}) == 1, option


def test_an_option_shared_by_commands_has_one_metavar() -> None:
    metavars: dict[str, dict[str, object]] = {}
    for name, parser in parsers().items():
        for option, action in options(parser).items():
            if option in DIFFERENT_MEANINGS and name in DIFFERENT_MEANINGS[option]:
                continue
            if action.nargs == 0:
                continue
            metavars.setdefault(option, {})[name] = action.metavar
    split = {o: m for o, m in metavars.items() if len(set(map(str, m.values()))) > 1}
    assert split == {}
    assert {m for m in metavars["--width"].values()} == {"COLUMNS"}


@pytest.mark.parametrize(
    ("argv", "given", "parsed"),
    [
        (["schema"], "transition_graph", "transitions"),
        (["schema"], "transition_graph.yaml", "transitions"),
        (["schema"], "context_variables.yaml", "contract"),
        (["schema"], "flow.yaml", "flow"),
        (["schema"], "transitions", "transitions"),  # the name it took before
        (["graph", "--file"], "flow.yaml", "flow"),
        (["graph", "--file"], "transition_graph", "transition_graph"),
        (["graph", "--file"], "handoffs.yaml", "handoffs"),
    ],
)
def test_a_file_kind_is_the_file_s_own_name(argv: list[str], given: str, parsed: str) -> None:
    name, *option = argv
    ns = build_parser(name)[1].parse_args([*option, given])
    assert (ns.kind if name == "schema" else ns.file) == parsed


def test_an_unknown_file_kind_lists_the_names_the_same_way(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["schema", "transition"])
    schema_err = capsys.readouterr().err
    assert (
        "unknown file kind; give context_variables, flow, transition_graph, handoffs or "
        "context (with or without .yaml)"
    ) in schema_err
    with pytest.raises(SystemExit):
        main(["graph", "--file", "flow.yml"])
    graph_err = capsys.readouterr().err
    assert "unknown file kind; give flow, transition_graph or handoffs (with or without .yaml)" in (
        graph_err
    )
    for command in ("schema", "graph"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "(with or without .yaml)" in " ".join(capsys.readouterr().out.split())


def test_matrix_format_table_is_a_deprecated_name_of_text(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from flowctx_tui.cli.workspace_args import demo_path

    demo = str(demo_path())
    code_text = main(["matrix", demo, "-w", "Approvals", "--format", "text", "--width", "100"])
    text = capsys.readouterr()
    code_table = main(["matrix", demo, "-w", "Approvals", "--format", "table", "--width", "100"])
    table = capsys.readouterr()
    assert code_table == code_text
    assert table.out == text.out and text.out.startswith("Approvals  (")
    assert text.err == ""
    assert table.err == "flowctx: --format table is now --format text (table still works)\n"
    with pytest.raises(SystemExit):
        main(["matrix", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--format {text,json}" in help_text


SCENARIO_CONTRACT = """
definitions:
  region:
    type: string
    source: {type: config, env_var: REGION}
  approved:
    type: boolean
    source: {type: state, default: false}
agents:
  Planner: {variables: [region, approved]}
  Reviewer: {variables: [region, approved]}
"""
SCENARIO_GRAPH = """
transition_rules:
  - source_agent: Planner
    target_agent: Reviewer
    transition_type: condition
    condition_type: context_equals
    condition_key: approved
    condition_value: true
  - source_agent: Planner
    target_agent: user
    transition_type: after_turn
"""


def test_a_saved_scenario_does_the_same_on_every_command(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root: Path = workspace(
        {
            "workflows/W/context_variables.yaml": SCENARIO_CONTRACT,
            "workflows/W/transition_graph.yaml": SCENARIO_GRAPH,
            "workflows/W/orchestrator.yaml": (
                "schema_version: mozaiks.orchestrator.v1\nworkflow_name: W\n"
                "workflow_startup_mode: AgentDriven\n"
            ),
            "workflows/W/agents.yaml": (
                "agents:\n"
                "  - {name: Planner, system_message: plan, structured_outputs_required: false}\n"
                "  - {name: Reviewer, system_message: review, structured_outputs_required: false}\n"
            ),
            ".flowctx/scenarios/W/eu.json": json.dumps(
                {
                    "format": "flowctx-scenario/1",
                    "env": {"REGION": "eu-west"},
                    "context": {"approved": True},
                }
            ),
        }
    )
    base = [str(root), "-w", "W", "--scenario", "eu"]
    # resolution: the scenario's environment, everywhere
    assert main(["matrix", *base, "--format", "json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)["variables"]}
    assert rows["region"]["value"] == "eu-west"
    assert main(["prompt", *base, "--agent", "Planner", "--raw"]) == 0
    assert "REGION: eu-west" in capsys.readouterr().out
    assert main(["check", *base, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["errors"] == 0
    assert main(["trigger", *base, "--user", "hi", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["workflow"] == "W"
    # routing: its route inputs too; an option given wins over the scenario's part
    assert main(["routes", *base, "--from", "Planner"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("winner: Reviewer")
    assert main(["routes", *base, "--from", "Planner", "--context", '{"approved": false}']) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("winner: user")
    assert main(["graph", *base, "--format", "mermaid"]) == 0
    assert "saved scenario 'eu'" in capsys.readouterr().out
    # without it, the resolved values alone
    assert main(["routes", str(root), "-w", "W", "--from", "Planner"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("winner: user")
    # an unknown name is the same message everywhere
    for command in RESOLVING:
        extra = {"routes": ["--from", "Planner"], "trigger": ["--user", "hi"]}.get(command, [])
        code = main([command, str(root), "-w", "W", "--scenario", "us", *extra])
        err = capsys.readouterr().err
        assert code == 2, command
        assert "no scenario named 'us'" in err and "(saved: eu)" in err, (command, err)
        # the option it came from, not a made-up line:column of a file that does not exist
        assert err.startswith("flowctx: --scenario: .flowctx/scenarios/W/us.json: "), err
        assert ":0:0" not in err, err


def test_check_with_a_scenario_needs_one_workflow(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/A/context_variables.yaml": "definitions: {}\n",
            "workflows/B/context_variables.yaml": "definitions: {}\n",
        }
    )
    assert main(["check", str(root), "--scenario", "eu"]) == 2
    err = capsys.readouterr().err
    assert "--scenario: a saved scenario belongs to one workflow; give --workflow NAME" in err


def test_an_unknown_command_is_not_taken_for_a_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["tset"]) == 2
    assert capsys.readouterr() == ("", "flowctx: no command 'tset'; did you mean 'test'?\n")
    assert main(["xyzzy"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("flowctx: no command or folder 'xyzzy' (commands: init, matrix,")
    # a folder of that name is a PATH, as always (the app then wants a terminal)
    (tmp_path / "tset").mkdir()
    assert main(["tset"]) == 2
    assert "no command" not in capsys.readouterr().err


def test_a_saved_scenario_s_masked_secret_stands_for_the_resolved_value(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    """A scenario file never holds a secret: ``***`` is written in its place, and read back
    as the value the workspace resolves (as the app reads it), in routes and graph alike."""
    root: Path = workspace(
        {
            "workflows/F/context_variables.yaml": (
                "definitions:\n"
                "  service_token: {type: string, source: {type: state, default: tok-1}}\n"
                "  approved: {type: boolean, source: {type: state, default: false}}\n"
                "agents:\n  A: {variables: [service_token, approved]}\n"
            ),
            "workflows/F/flow.yaml": (
                "steps:\n"
                "  - {name: Start, type: Prompt, starting: true}\n"
                "  - {name: Allowed, type: Action}\n"
                "  - {name: Denied, type: Action}\n"
                "paths:\n"
                "  - {from: Start, to: Allowed, priority: 20,\n"
                "     condition: \"context.service_token === 'tok-1' && context.approved\"}\n"
                "  - {from: Start, to: Denied, priority: 10}\n"
            ),
            ".flowctx/scenarios/F/ok.json": json.dumps(
                {
                    "format": "flowctx-scenario/1",
                    "context": {"service_token": "***", "approved": True},
                }
            ),
        }
    )
    assert main(["routes", str(root), "-w", "F", "--from", "Start", "--scenario", "ok"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1].startswith("winner: Allowed")
    # read, never shown
    assert "context.service_token === 'tok-1' -> true (got *** (secret: key looks secret))" in out
    assert main(["graph", str(root), "-w", "F", "--scenario", "ok", "--format", "mermaid"]) == 0
    mermaid = capsys.readouterr().out
    # the thick, starred edge is the route taken: to Allowed
    taken = [line.strip() for line in mermaid.splitlines() if "==>" in line]
    assert len(taken) == 1 and taken[0].startswith('step_Start ==>|"★ 1.')
    assert taken[0].endswith("step_Allowed")


# --- -q/--quiet and -v/--verbose, errors on standard error, colour on a terminal ---

#: a demo invocation of each one-shot command that reads a workspace (what it needs besides)
DEMO_RUNS: dict[str, list[str]] = {
    "matrix": ["-w", "Approvals"],
    "check": [],
    "routes": ["-w", "AppGenerator", "--from", "InterviewAgent"],
    "trace": ["-w", "Approvals"],
    "graph": ["-w", "Approvals"],
    "prompt": ["-w", "AppGenerator", "--agent", "InterviewAgent"],
    "trigger": ["-w", "AppGenerator", "--user", "hi"],
    "test": [],
}


def test_quiet_and_verbose_on_every_command() -> None:
    from flowctx_tui.cli.verbosity import QUIET_HELP, VERBOSE_HELP

    for name, parser in parsers().items():
        found = options(parser)
        quiet, verbose = found.get("--quiet"), found.get("--verbose")
        assert quiet is not None and "-q" in quiet.option_strings, name
        assert verbose is not None and "-v" in verbose.option_strings, name
        assert verbose.help == VERBOSE_HELP, name
        # check's own --quiet also drops warnings, and says so
        assert quiet.help == ("print errors only" if name == "check" else QUIET_HELP), name


@pytest.mark.parametrize("command", list(DEMO_RUNS))
def test_verbose_says_what_was_used_and_changes_no_result(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [command, "--demo", *DEMO_RUNS[command]]
    code = main(argv)
    plain = capsys.readouterr()
    assert main([*argv, "-v"]) == code
    told = capsys.readouterr()
    assert told.out == plain.out  # results are the same; only standard error says more
    assert "flowctx: workspace " in told.err and "(3 workflows); runtime " in told.err
    assert "flowctx: workspace " not in plain.err
    assert f"flowctx: {command} finished with exit status {code} in " in told.err
    # --quiet: nothing on standard error but errors (the demo has none of these)
    assert main([*argv, "-q"]) == code
    assert "finished with" not in capsys.readouterr().err


def test_quiet_silences_notes_but_never_errors(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["matrix", "--demo", "-w", "Approvals", "--format", "table"]
    assert main(argv) == 0
    assert capsys.readouterr().err == (
        "flowctx: --format table is now --format text (table still works)\n"
    )
    assert main([*argv, "-q"]) == 0
    assert capsys.readouterr().err == ""
    # an error is said whatever the level
    assert main(["matrix", "--demo", "-w", "Nope", "-q"]) == 2
    assert "no workflow named 'Nope'" in capsys.readouterr().err


def test_eval_writes_the_engine_s_error_to_standard_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["eval", "payload.x.y"]) == 3
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines()[0] == "error: Cannot read properties of null (reading 'x')"
    # the JSON document is the result: it stays on standard output, error and all
    assert main(["eval", "payload.x.y", "--format", "json"]) == 3
    out, err = capsys.readouterr()
    assert json.loads(out)["error"] == "Cannot read properties of null (reading 'x')"


def _on_a_terminal(argv: list[str], env: dict[str, str]) -> str:
    """What ``flowctx argv`` writes to a real pseudo-terminal."""
    import pty
    import subprocess
    import sys

    leader, follower = pty.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "flowctx", *argv],
            stdin=subprocess.DEVNULL,
            stdout=follower,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed: the command ended
                break
            if not chunk:
                break
            chunks.append(chunk)
        proc.wait(timeout=120)
    finally:
        os.close(leader)
    return b"".join(chunks).decode()


@pytest.mark.parametrize(
    ("argv", "coloured"),
    [
        (["check", "--demo"], ["\x1b[1;31mFAILED:\x1b[0m", "\x1b[1;33mwarning: \x1b[0m"]),
        (
            ["routes", "--demo", "-w", "AppGenerator", "--from", "InterviewAgent"],
            ["\x1b[1;32mwinner:\x1b[0m"],
        ),
        (["test", "--demo"], ["\x1b[32mPASS\x1b[0m", "\x1b[1;32m17 passed, 0 failed\x1b[0m"]),
    ],
)
def test_check_routes_and_test_colour_a_terminal_unless_no_color(
    argv: list[str], coloured: list[str]
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    env["TERM"] = "xterm-256color"
    shown = _on_a_terminal(argv, env)
    for part in coloured:
        assert part in shown, (part, shown[-600:])
    plain = _on_a_terminal(argv, {**env, "NO_COLOR": "1"})
    assert "\x1b[" not in plain
    # the same text under the colours
    import re

    assert re.sub(r"\x1b\[[0-9;]*m", "", shown) == plain


def test_graph_init_and_schema_print_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # graph: every edge with its outcome; the winner of each source is the one the text stars
    assert main(["graph", "--demo", "-w", "AppGenerator", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["header"][0].startswith("flowctx graph: workflow AppGenerator, runtime ")
    assert not any("★" in line for line in doc["header"])  # the drawings' legend only
    graph = doc["graphs"][0]
    names = {n["name"] for n in graph["nodes"]}
    assert all(e["source"] in names and e["target"] in names for e in graph["edges"])
    assert {e["outcome"] for e in graph["edges"]} <= {
        "true", "false", "error", "always", "not evaluable", "skipped"
    }  # fmt: skip
    winners = [e for e in graph["edges"] if e["winner"]]
    assert winners and all(e["location"]["line"] > 0 for e in winners)
    assert main(["graph", "--demo", "-w", "AppGenerator"]) == 0
    drawn = capsys.readouterr().out
    assert len(winners) == drawn.count("★") - 1  # the legend's star
    # MemberJunction metadata: the same document
    assert main(["graph", "--demo", "-w", "Approvals", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["graphs"][0]["start"] == "Validate"
    # init: what was written and what to try, nothing else on standard output
    target = tmp_path / "fresh"
    assert main(["init", str(target), "--format", "json"]) == 0
    written = json.loads(capsys.readouterr().out)
    assert written["workspace"] == str(target.resolve())
    assert all((target / rel).is_file() for rel in written["files"])
    assert written["next"][0]["command"].startswith("flowctx check ")
    # a failure is still an error on standard error
    assert main(["init", str(target), "--format", "json"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "init never overwrites a file" in err
    # schema: --format json is its one format, the JSON Schema
    assert main(["schema", "flow", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["$schema"].endswith("2020-12/schema")


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))


def test_dash_reads_standard_input_where_a_file_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", str(tmp_path / "ws"), "-q"]) == 0
    capsys.readouterr()
    root = tmp_path / "ws"
    monkeypatch.chdir(root)
    contract = root / "workflows/Hello/context_variables.yaml"
    # check -: an unsaved buffer of one of the workspace's files, checked in its workspace
    _stdin(monkeypatch, contract.read_text().replace("type: string", "type: strin", 1))
    rel = "workflows/Hello/context_variables.yaml"
    assert main(["check", "-", "--stdin-filename", rel]) == 0
    out = capsys.readouterr().out
    assert f"{rel}:4:11: warning: definitions.greeting_style.type: unknown type 'strin'" in out
    assert "type: string" in contract.read_text()  # the file itself is untouched
    assert main(["check", "-"]) == 2
    assert "say which with --stdin-filename FILE" in capsys.readouterr().err
    # test --file -: a test file from standard input, located as <stdin>
    _stdin(
        monkeypatch,
        "workflow: Hello\ncases:\n  - name: greets\n    expect:\n"
        "      route: {from: GreeterAgent, to: nowhere}\n",
    )
    assert main(["test", "--file", "-"]) == 2  # an invalid case
    out = capsys.readouterr().out
    assert "<stdin>:5:39: cases[0].expect.route.to: no rule from 'GreeterAgent'" in out
    _stdin(
        monkeypatch,
        "workflow: Hello\ncases:\n  - name: greets\n    expect:\n"
        "      route: {from: GreeterAgent, to: user}\n",
    )
    assert main(["test", "--file", "-"]) == 0
    assert "PASS  Hello: greets  (<stdin>:3:5)" in capsys.readouterr().out
    # trace --script -: the script from standard input; its errors located there too
    _stdin(monkeypatch, "turns: [\n")
    assert main(["trace", "--script", "-"]) == 2
    assert capsys.readouterr().err.startswith("<stdin>:1:8: YAML syntax error")
