"""Hostile inputs on the review outputs: ``flowctx diff`` (text/json/markdown), ``flowctx
graph`` (mermaid/dot/text), ``flowctx check --format github|sarif`` and the app's Changes and
Graph tabs.

Secrets are generated per run (never stored) and planted where a review shows text that came
from a workspace: an env-sourced secret, a state default read as context, a URI password in a
default, a data_reference secret field, each changed between two git revisions and quoted in
route conditions. Then names and conditions carry control characters and markup meant to
break a markdown table, a mermaid or dot file, or forge a GitHub annotation; then sizes.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from flowctx_core.review.diff import read_side
from flowctx_core.session import open_session
from flowctx_tui.app import FlowctxApp
from tests.conftest import until, write_tree
from tests.core.test_routing_graph_mermaid import mermaid_root  # noqa: F401 (a fixture)
from tests.core.test_routing_graph_mermaid import parse as mermaid_parse
from tests.diff_repo import git
from tests.reliability.harness import cost, record, run_cli
from tests.tui.conftest import FIXED_NOW

# --- 1. secrets in the review outputs ----------------------------------------------------------


def _secret() -> str:
    return secrets.token_hex(12)


def _forms(secret: str) -> list[str]:
    """What a leak may look like: any 10-character window, upper- or lower-cased (a cell
    truncates, a renderer changes case)."""
    windows = [secret[i : i + 10] for i in range(len(secret) - 9)]
    return sorted({w for window in windows for w in (window, window.upper(), window.lower())})


def _leaks(text: str, planted: dict[str, str]) -> list[str]:
    return sorted(name for name, s in planted.items() if any(f in text for f in _forms(s)))


def _contract(env_var: str, uri_pw: str, default: str) -> str:
    return f"""
definitions:
  openai_api_key:
    type: string
    source: {{type: config, env_var: {env_var}, required: true, default: "{default}"}}
  archive_url:
    type: string
    source: {{type: config, default: "mongodb://admin:{uri_pw}@db.internal/x"}}
  account:
    type: object
    source:
      {{type: data_reference, database_name: default, collection: accounts,
        fields: [name, api_key]}}
  session_token:
    type: string
    source: {{type: state, default: "{uri_pw}-st"}}
agents:
  Planner:
    variables: [openai_api_key, archive_url, account, session_token]
  Builder:
    variables: [archive_url]
"""


def _transitions(key: str, uri_pw: str, token: str) -> str:
    return f"""
transitions:
  - source: Planner
    transition_type: condition
    condition_type: context_expression
    condition: "${{openai_api_key}} == '{key}' or ${{archive_url}} == 'mongodb://admin:{uri_pw}@h/x'"
    target: Builder
  - source: Planner
    transition_type: condition
    condition_type: context_equals
    condition_key: session_token
    condition_value: "{token}"
    target: Builder
  - source: Planner
    transition_type: after_turn
    target: {{type: RevertToUserTarget}}
"""


def _flow(key: str) -> str:
    return f"""
steps:
  - {{name: Start, type: Action, starting: true}}
  - {{name: Paid, type: Action}}
  - {{name: Free, type: Action}}
paths:
  - from: Start
    to: Paid
    condition: "context.openai_api_key === '{key}' || context.password === '{key}'"
    priority: 5
  - {{from: Start, to: Free, condition: "context.session_token.startsWith('{key[:6]}')"}}
"""


def _write_side(ws: Path, planted: dict[str, str], side: str, other: str) -> None:
    env_var = "OPENAI_API_KEY"
    contract = _contract(env_var, planted[f"uri_{side}"], planted[f"dflt_{side}"])
    profile = f"env:\n  {env_var}: {planted[f'env_{side}']}\nlaunch:\n  app_id: app-1\n"
    write_tree(
        ws,
        {
            "workflows/Agents/context_variables.yaml": contract,
            # the head's conditions quote the base's secrets (a rotated key left behind), so
            # the route decisions change and every side's secret is in some condition
            "workflows/Agents/transition_graph.yaml": _transitions(
                planted[f"env_{other}"], planted[f"uri_{other}"], planted[f"uri_{side}"] + "-st"
            ),
            "workflows/Flow/context_variables.yaml": contract,
            "workflows/Flow/flow.yaml": _flow(planted[f"env_{side}"]),
            "seed/default/accounts.json": [
                {"app_id": "app-1", "name": "acme", "api_key": planted[f"seed_{side}"]}
            ],
            "flowctx.yaml": profile,
        },
    )


@pytest.fixture
def secret_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, dict[str, str]]:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    for name in list(os.environ):
        if name.startswith(("MOZAIKS_", "FLOWCTX_", "CONTEXT_", "OPENAI_")):
            monkeypatch.delenv(name)
    planted = {
        f"{kind}_{side}": _secret()
        for kind in ("env", "uri", "seed", "dflt")
        for side in ("a", "b")
    }
    planted["ctx"] = _secret()
    ws = tmp_path / "ws"
    _write_side(ws, planted, "a", "b")
    git(ws, "init", "-q")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "base")
    _write_side(ws, planted, "b", "a")
    monkeypatch.chdir(tmp_path)
    return ws, planted


def _review_commands(ws: str, ctx: str) -> list[list[str]]:
    out = [["diff", ws, "--base", "HEAD", "--format", fmt] for fmt in ("text", "json", "markdown")]
    for workflow in ("Agents", "Flow"):
        for fmt in ("mermaid", "dot", "text"):
            out.append(["graph", ws, "-w", workflow, "--format", fmt])
            out.append(["graph", ws, "-w", workflow, "--format", fmt, "--context", ctx])
    for fmt in ("github", "sarif", "json", "text"):
        out.append(["check", ws, "--format", fmt])
    return out


def test_no_review_output_shows_a_secret(
    secret_repo: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    ws, planted = secret_repo
    ctx = json.dumps({"password": planted["ctx"], "note": f"https://u:{planted['ctx']}@x/"})
    found: dict[str, list[str]] = {}
    printed: dict[str, str] = {}
    for argv in _review_commands(str(ws), ctx):
        code, out, err = run_cli(argv, capsys)
        assert "Traceback" not in out + err, argv
        assert code in (0, 1), (argv, out, err)
        printed[" ".join(argv[:1] + argv[2:])] = out
        if leaked := _leaks(out + err, planted):
            found[" ".join(argv)] = leaked
    assert found == {}, json.dumps(found, indent=1)
    # the reviews did see the changes, so the scan above looked at real reports
    diff_text = printed["diff --base HEAD --format text"]
    assert "openai_api_key" in diff_text and "***" in diff_text
    assert "routes" in diff_text


def _review_app(ws: Path, workflow: str) -> FlowctxApp:
    side = read_side("HEAD", ws, {})
    return FlowctxApp(
        open_session(ws, env={}),
        workflow,
        watch=False,
        clock=lambda: FIXED_NOW,
        cursor_blink=False,
        base=side,
    )


@pytest.mark.parametrize("workflow", ["Agents", "Flow"])
async def test_the_changes_and_graph_tabs_show_no_secret(
    secret_repo: tuple[Path, dict[str, str]], workflow: str
) -> None:
    from flowctx_tui.widgets.graph import GraphView

    ws, planted = secret_repo
    app = _review_app(ws, workflow)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.result is not None, "the first load", timeout=20)
        await until(
            pilot,
            lambda: app.comparison is not None and app.comparison.workflow == app.workflow,
            "the comparison",
            timeout=20,
        )
        await until(pilot, lambda: bool(app.query("TabPane#changes")), "the tab", timeout=20)
        await pilot.press("6")
        await until(pilot, lambda: app.query_one("#tabs").active == "changes", "changes")
        view = app._changes_view()
        assert view is not None
        changes = "\n".join(view.lines())
        assert "Compared with" in changes
        await pilot.press("4")
        await until(pilot, lambda: app.query("#graph-view"), "the graph view", timeout=20)
        graph = app.query_one("#graph-view", GraphView)
        await until(
            pilot, lambda: graph.graphs is not None and not graph.pending, "the graph", timeout=20
        )
        drawn = "\n".join(graph.lines())
        assert "→" in drawn
        screen = app.export_screenshot()
    assert _leaks(changes, planted) == []
    assert _leaks(drawn, planted) == []
    assert _leaks(screen, planted) == []


# --- 2. control characters and markup injection ----------------------------------------------

#: what a name or a condition may hold to break out of a table cell, an HTML block, a mermaid
#: label or comment, a dot string, a workflow command, or the terminal
HOSTILE = (
    'E|v`il</details><img src=x>-->"%0A%0D\x1b[31m\x1b]8;;http://x\x07\r\n::error::forged'
    "\n| a | b |\n</summary>``\u2028\u202e;%%{init}%% ]] end"
)


def _hostile_tree(ws: Path, tail: str) -> None:
    agent, var, step = f"A{HOSTILE}", f"v{HOSTILE}", f"S{HOSTILE}"
    contract = {
        "definitions": {
            var: {"type": "string", "source": {"type": "config", "default": f"d{HOSTILE}{tail}"}},
            f"new{tail}{HOSTILE}": {"type": "string", "source": {"type": "config", "default": "1"}},
            "plain": {"type": "string", "source": {"type": "config", "default": tail}},
        },
        "agents": {agent: {"variables": [var, "plain"]}, "B": {"variables": ["plain"]}},
    }
    graph = {
        "transitions": [
            {
                "source": agent,
                "transition_type": "condition",
                "condition_type": "context_expression",
                "condition": "${plain} == '2' or ${plain} == '" + HOSTILE.replace("'", "") + "'",
                "target": f"B{HOSTILE}" if tail == "2" else "B",
            },
            {
                "source": agent,
                "transition_type": "condition",
                "condition_type": "context_equals",
                "condition_key": var,
                "condition_value": f"d{HOSTILE}",
                "target": "B",
            },
        ]
    }
    quoted = json.dumps(HOSTILE.replace("`", ""))  # a JS string literal with every escape
    flow = {
        "steps": [
            {"name": step, "type": "Action", "starting": True},
            {"name": f"T{HOSTILE}", "type": "Action"},
            {"name": "U", "type": "Action"},
        ],
        "paths": [
            {"from": step, "to": f"T{HOSTILE}", "condition": f"context.plain === {quoted}"},
            {"from": step, "to": "U", "condition": f"context.plain === '{tail}'", "priority": 2},
        ],
    }
    files: dict[str, Any] = {
        "workflows/W/context_variables.yaml": yaml.safe_dump(contract),
        "workflows/W/transition_graph.yaml": yaml.safe_dump(graph),
        "workflows/F/context_variables.yaml": yaml.safe_dump(contract),
        "workflows/F/flow.yaml": yaml.safe_dump(flow),
    }
    for name, text in files.items():
        (ws / name).parent.mkdir(parents=True, exist_ok=True)
        (ws / name).write_text(text, encoding="utf-8")


@pytest.fixture
def hostile_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    ws = tmp_path / "ws"
    ws.mkdir()
    _hostile_tree(ws, "1")
    git(ws, "init", "-q")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "base")
    _hostile_tree(ws, "2")
    monkeypatch.chdir(tmp_path)
    return ws


_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _outside_code(line: str) -> str:
    """The line with its code spans cut out (what markdown reads as markup)."""
    return _CODE_SPAN.sub("", line)


def test_diff_markdown_stays_one_table_row_per_change(
    hostile_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["diff", str(hostile_repo), "--base", "HEAD", "--format", "markdown"]
    code, out, err = run_cli(argv, capsys)
    assert code == 0 and "Traceback" not in err, err
    assert not _CONTROL.search(out), repr(_CONTROL.search(out))
    lines = out.split("\n")
    rows = [line for line in lines if line.startswith("|")]
    assert len(rows) >= 2 * 4  # a header, a rule and changed rows for both workflows
    for row in rows:
        # every cell separator is a bare |; an escaped \| is cell content
        cells = re.split(r"(?<!\\)\|", row)
        assert len(cells) == 6, row  # | a | b | c | d |  -> 4 cells between 5 bars
    for line in lines:
        markup = _outside_code(line)
        # the only HTML is flowctx's own details blocks
        tags = re.findall(r"<[^>]*>?", markup)
        assert all(t in ("<details>", "</details>", "<summary>", "</summary>") for t in tags), line
        assert not line.startswith(("::", "<img", "-->")), line
    markup = "\n".join(_outside_code(line) for line in lines)
    assert markup.count("<details>") == markup.count("</details>") >= 2
    # a code span never opens and fails to close on the same line
    for line in lines:
        assert _outside_code(line).count("`") == 0, line
    assert "forged" in out  # the hostile names are shown, escaped, not dropped


def test_graph_mermaid_parses_and_dot_stays_well_formed(
    hostile_repo: Path,
    capsys: pytest.CaptureFixture[str],
    mermaid_root: Path,  # noqa: F811 (the fixture imported above)
) -> None:
    diagrams = []
    for workflow in ("W", "F"):
        code, out, err = run_cli(
            ["graph", str(hostile_repo), "-w", workflow, "--format", "mermaid"], capsys
        )
        assert code == 0 and "Traceback" not in err, err
        assert not _CONTROL.search(out)
        assert "forged" in out
        diagrams.append(out)
        code, dot, err = run_cli(
            ["graph", str(hostile_repo), "-w", workflow, "--format", "dot"], capsys
        )
        assert code == 0, err
        assert not _CONTROL.search(dot)
        _assert_dot_well_formed(dot)
        code, text, err = run_cli(
            ["graph", str(hostile_repo), "-w", workflow, "--format", "text"], capsys
        )
        assert code == 0 and not _CONTROL.search(text), repr(text)
    answers = mermaid_parse(mermaid_root, diagrams)
    assert answers == [{"ok": True, "type": "flowchart-v2"}] * len(diagrams)


_DOT_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|[^"\s]+|\s+')


def _assert_dot_well_formed(dot: str) -> None:
    """Every quoted string closes on its line, and braces and brackets balance outside them."""
    depth = {"{": 0, "[": 0}
    for token in _DOT_TOKEN.findall(dot):
        assert not token.startswith('"') or (token.endswith('"') and len(token) >= 2), token
        if token.startswith(('"', "//")):
            continue
        assert '"' not in token, token
        for ch in token:
            if ch in "{[":
                depth[ch] += 1
            elif ch in "}]":
                depth["{" if ch == "}" else "["] -= 1
                assert min(depth.values()) >= 0, dot
    assert depth == {"{": 0, "[": 0}, dot
    assert dot.startswith("digraph ") and dot.rstrip().endswith("}")


def test_github_annotations_cannot_be_forged_and_sarif_stays_json(
    hostile_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, doc, _ = run_cli(["check", str(hostile_repo), "--format", "json"], capsys)
    problems = len(json.loads(doc)["problems"])
    # a workflow the runtime refuses is one more annotation (the hostile variable name is not
    # a name mozaiks 0.2.0's authority policy holds: context_authority.empty_key)
    refusals = len(json.loads(doc)["refused"])
    assert problems >= 2
    code, out, err = run_cli(["check", str(hostile_repo), "--format", "github"], capsys)
    assert "Traceback" not in err and code in (0, 1), err
    assert not _CONTROL.search(out)
    lines = out.rstrip("\n").split("\n")
    commands = [line for line in lines if line.startswith("::")]
    # one command per problem, none forged by a name or condition, and every other line is
    # the summary (no command starts in the middle of another)
    assert len(commands) == problems + refusals, out
    assert all(re.match(r"::(error|warning|notice)( [^:]*)?::", c) for c in commands)
    assert [line for line in lines if not line.startswith("::")] == [lines[-1]]
    code, out, err = run_cli(["check", str(hostile_repo), "--format", "sarif"], capsys)
    assert "Traceback" not in err, err
    assert not _CONTROL.search(out)
    sarif = json.loads(out)
    results = sarif["runs"][0]["results"]
    assert len(results) == problems
    assert any("forged" in r["message"]["text"] for r in results)


# --- 3. hostile sizes ---------------------------------------------------------------------------

#: the 175-character condition from issue 13 that took 21.7 s and 262 MB before the budget
BLOW_UP = (
    "['00000000000000000000'.split('').map(c => '00000000000000000000').join('').split('')"
    ".slice(0, 400)].map(L => [L.map(x => L)].map(M => String(M.map(y => M)).length))[0][0] > 0"
)


def _many_paths(ws: Path, count: int, default: int) -> None:
    steps = [{"name": "Start", "type": "Action", "starting": True}]
    steps += [{"name": f"S{i}", "type": "Action"} for i in range(count)]
    paths = [
        {"from": "Start", "to": f"S{i}", "condition": f"context.n === {i}"} for i in range(count)
    ]
    paths.append({"from": "Start", "to": "S1", "condition": BLOW_UP, "priority": 99})
    contract = (
        f"definitions:\n  n: {{type: integer, source: {{type: config, default: {default}}}}}\n"
    )
    write_tree(
        ws,
        {
            "workflows/F/flow.yaml": yaml.safe_dump({"steps": steps, "paths": paths}),
            "workflows/F/context_variables.yaml": contract + "agents: {}\n",
        },
    )


def test_a_step_with_a_thousand_paths_draws_a_bounded_picture(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Each line needs a lane of two columns on every row: 1,000 overlapping paths made a
    picture of 1,000 lanes (gigabytes; the CLI was killed after minutes at 3,000)."""
    from flowctx_core.routing import load_routes
    from flowctx_core.routing.graph import build_graphs
    from flowctx_core.routing.graph_draw import MAX_LANES, draw, plain

    ws = tmp_path / "ws"
    _many_paths(ws, 1000, 5)
    session = open_session(ws, env={})
    graphs = build_graphs(load_routes(session.load("F")), session.matrix("F"))

    measured = cost(lambda: plain(draw(graphs[0], 100)))
    record(request, "draw 1,000 paths", measured)
    assert measured.within_bounds(), str(measured)
    lines = measured.result.split("\n")
    assert max(len(line) for line in lines) <= 100 + 2 * MAX_LANES + 8
    assert re.match(r"\((9\d\d) edges listed in their boxes are drawn without a line", lines[-1])
    # every path is still listed in the box, by target
    assert sum("→ S" in line for line in lines) == 1001


def test_review_commands_on_thousands_of_rules_and_the_blow_up_finish(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    ws = tmp_path / "ws"
    _many_paths(ws, 600, 5)
    git(ws, "init", "-q")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "base")
    _many_paths(ws, 600, 7)  # the winner moves from S5 to S7
    monkeypatch.chdir(tmp_path)
    for argv in (
        ["diff", str(ws), "--base", "HEAD", "--format", "json"],
        ["graph", str(ws), "--format", "text"],
        ["graph", str(ws), "--format", "mermaid"],
        ["check", str(ws), "--format", "sarif"],
    ):
        code, out, err = run_cli(argv, capsys)
        assert "Traceback" not in err and code in (0, 1), (argv, err)
        if argv[0] == "diff":
            routes = json.loads(out)["workflows"][0]["routes"]
            assert routes, out[:500]
        if argv[0] == "graph":
            # the blow-up condition is cut off by the evaluation budget, as an error
            assert "error" in out


def test_a_hostile_base_revision_is_a_located_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    ws = tmp_path / "ws"
    contract = "definitions:\n  a: {type: string, source: {type: config, default: x}}\n"
    write_tree(
        ws,
        {
            "workflows/W/context_variables.yaml": contract + "agents:\n  P: {variables: [a]}\n",
            "workflows/W/transition_graph.yaml": (
                "transitions:\n  - &r {source: P, transition_type: after_turn, target: *r}\n"
            ),
            "workflows/B/context_variables.yaml": (
                "definitions:\n  n: {type: integer, source: {type: config, default: "
                + "9" * 5000
                + "}}\nagents: {}\n"
            ),
            "workflows/H/context_variables.yaml": (
                'definitions:\n  a: {type: string, source: {type: config, default: "'
                + "x" * 6_000_000
                + '"}}\nagents: {}\n'
            ),
        },
    )
    git(ws, "init", "-q")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "base")
    write_tree(
        ws,
        {
            "workflows/W/transition_graph.yaml": (
                "transitions:\n  - {source: P, transition_type: after_turn, target: P}\n"
            ),
            "workflows/B/context_variables.yaml": "definitions: {}\nagents: {}\n",
            "workflows/H/context_variables.yaml": "definitions: {}\nagents: {}\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    for fmt in ("text", "json", "markdown"):
        code, out, err = run_cli(["diff", str(ws), "--base", "HEAD", "--format", fmt], capsys)
        assert code == 0 and "Traceback" not in out + err, err
        if fmt == "json":
            removed = [p for w in json.loads(out)["workflows"] for p in w["problems"]["removed"]]
            found = {(p["file"], p["line"]) for p in removed}
            assert ("workflows/W/transition_graph.yaml", 2) in found, removed
            assert ("workflows/B/context_variables.yaml", 2) in found, removed
            continue
        located = r"workflows/{}:2:\d+.*{}"
        assert re.search(located.format("W/transition_graph.yaml", "recursive YAML alias"), out)
        assert re.search(located.format("B/context_variables.yaml", "more than 4,300 digits"), out)
        assert re.search(r"workflows/H/context_variables\.yaml\S* .*-byte limit", out)


# --- 4. long operator chains -------------------------------------------------------------------

CHAINS = {
    "plus": "a" + "+a" * 499,
    "ones": "1" + "+1" * 499,
    "nots": "!" * 998 + "1",
    "parens": "(" * 499 + "1" + ")" * 499,
    "members": "a" + ".b" * 499,
    "calls": "f" + "()" * 499,
    "arrows": "x => " * 199 + "x",
    "minus": "-" * 999 + "1",
    "subscripts": "a" + "[0]" * 333,
    "nots_py": "not " * 249 + "1",
}


@pytest.mark.parametrize("dialect", ["mj", "python", "mozaiks", "ag2"])
def test_long_chains_answer_or_name_a_limit(
    dialect: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every chain fits the 1000-character limit. None may die with an internal error: each
    is evaluated (as the real engine would) or refused with a located, named reason."""
    for name, text in CHAINS.items():
        for fmt in ("text", "json"):
            argv = ["eval", "-d", dialect, "--format", fmt, "--explain", "--", text]
            code, out, err = run_cli(argv, capsys)
            shown = out + err
            assert "Traceback" not in shown and "Internal error" not in shown, (name, shown[-300:])
            assert code in (0, 1, 3), (name, code, err)
            if fmt == "json":
                doc = json.loads(out)
                assert "engine" in json.dumps(doc)  # every answer names its engine
    # mj answers as MemberJunction does (tests/differential/test_mj_long_chains.py runs them
    # in the real evaluator): the plus chain is a ReferenceError, the ones sum to 500
    if dialect == "mj":
        _, out, _ = run_cli(["eval", "-d", "mj", "--format", "json", CHAINS["ones"]], capsys)
        assert json.loads(out)["value"] is True


def test_a_long_chain_in_a_flow_file_is_checked_and_drawn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flow = {
        "steps": [
            {"name": "Start", "type": "Action", "starting": True},
            {"name": "T", "type": "Action"},
        ],
        "paths": [
            {"from": "Start", "to": "T", "condition": "context.n" + " + context.n" * 80 + " > 0"},
            {"from": "Start", "to": "T", "condition": "context" + ".n" * 490},
        ],
    }
    ws = write_tree(
        tmp_path / "ws",
        {
            "workflows/F/flow.yaml": yaml.safe_dump(flow),
            "workflows/F/context_variables.yaml": (
                "definitions:\n  n: {type: integer, source: {type: config, default: 1}}\n"
                "agents: {}\n"
            ),
        },
    )
    for argv in (
        ["check", str(ws), "--format", "github"],
        ["graph", str(ws), "--format", "text"],
        ["routes", str(ws), "-w", "F", "--from", "Start"],
    ):
        code, out, err = run_cli(argv, capsys)
        assert "Traceback" not in out + err and "Internal error" not in out + err, argv
        assert "RecursionError" not in out + err
        assert code in (0, 1), (argv, err)
