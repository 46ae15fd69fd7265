"""The commands on MemberJunction MetadataSync metadata: ``check``, ``routes`` and ``graph``.

A PATH that holds agent metadata (an entity folder whose ``.mj-sync.json`` names
``MJ: AI Agents``, a folder above one, or one record file) opens as an MJ workspace: each Flow
agent is a workflow named by its ``Name``, judged by the ``memberjunction-5.51.3`` profile.
A folder that also holds a Mozaiks ``workflows/`` folder is both: ``--workflow`` naming a flow
agent picks MemberJunction, anything else Mozaiks.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flowctx_core.base.diagnostics import Diagnostic, did_you_mean
from flowctx_core.base.oneline import one_line
from flowctx_tui.cli.common import UsageError, fail, load_json_arg, load_json_object_arg
from flowctx_tui.cli.paint import CHECK_RULES, ROUTES_RULES, TEST_RULES, print_painted

if TYPE_CHECKING:
    from flowctx_core.memberjunction.agents import MjWorkspace
    from flowctx_core.memberjunction.flow.machine import Hop
    from flowctx_core.memberjunction.flow.model import Agent, Step
    from flowctx_core.routing.decision import RouteDecision

RUNTIME = "memberjunction-5.51.3"
_RUNTIME_NAMES = ("memberjunction-5.51.3", "memberjunction", "mj")


def mj_path(
    given: str | None, workflow: str | None = None, runtime: str | None = None
) -> Path | None:
    """The MJ workspace PATH names, or None when it is not one (or is a Mozaiks workspace
    too, and neither ``workflow`` names one of its flow agents nor ``runtime`` asks for
    MemberJunction)."""
    from flowctx_core.memberjunction.metadata import is_metadata

    if not given:
        # no PATH: the folder the user is in, when it is MJ metadata itself (an entity folder,
        # a sync root, a repository root with metadata/agents/) and no Mozaiks workspace
        from flowctx_core.model.workspace_root import WorkspaceNotFound, find_root

        cwd = Path.cwd()
        try:
            find_root(cwd)
        except WorkspaceNotFound:
            return cwd if is_metadata(cwd, depth=2) else None
        return None
    path = Path(given)
    if not path.exists():
        return None
    if (path / "workflows").is_dir():
        # a Mozaiks workspace: MemberJunction only when asked for (the runtime, or a -w that
        # is no Mozaiks workflow), so Mozaiks commands never search the tree for metadata
        asked = bool(runtime and runtime.strip().lower() in _RUNTIME_NAMES)
        named = bool(workflow) and not (path / "workflows" / str(workflow)).is_dir()
        if not (asked or named) or not is_metadata(path, depth=3):
            return None
        if asked:
            return path
        from flowctx_core.memberjunction.agents import open_mj

        return path if open_mj(path).flow(str(workflow)) is not None else None
    return path if is_metadata(path) else None


def check_runtime(args: argparse.Namespace) -> None:
    wanted = getattr(args, "runtime", None)
    if wanted and wanted.strip().lower() not in _RUNTIME_NAMES:
        raise UsageError(
            f"MemberJunction agents are judged by the {RUNTIME} runtime profile; "
            f"'{wanted}' is not one for them"
        )


def env_inputs(args: argparse.Namespace) -> dict[str, str]:
    """``@env:`` values: only what ``--env`` gives, never the process's environment."""
    from flowctx_tui.cli.launch_args import parse_env_overrides

    return parse_env_overrides(getattr(args, "env", None) or [])


def open_workspace(path: Path, args: argparse.Namespace) -> MjWorkspace:
    from flowctx_core.memberjunction.agents import open_mj

    check_runtime(args)
    return open_mj(path, env_inputs(args))


def pick_agent(ws: MjWorkspace, wanted: str | None) -> Agent:
    names = ws.workflows()
    if not wanted:
        if not names:
            raise UsageError(
                f"{ws.root}: no flow agents found (agents: "
                f"{', '.join(a.name for a in ws.agents) or 'none'})"
            )
        return ws.flows[names[0]]
    found = ws.flow(wanted)
    if found is not None:
        return found
    for agent, why in ws.others:
        if agent.name.lower() == wanted.lower():
            raise UsageError(f"agent '{agent.name}' is not a flow agent: {why}")
    hint = did_you_mean(wanted, names)
    raise UsageError(
        f"no flow agent named '{wanted}' in {ws.root}{hint} (flow agents: "
        f"{', '.join(names) or 'none'})"
    )


def pick_step(agent: Agent, wanted: str) -> Step:
    step = agent.step_named(wanted) or agent.step(wanted)
    if step is None:
        names = [s.name for s in agent.steps]
        raise UsageError(
            f"no step of the name given to --from in flow agent '{agent.name}'"
            f"{did_you_mean(wanted, names)}; steps: {', '.join(names) or 'none'}"
        )
    return step


# -- check -----------------------------------------------------------------------------------
def run_check(args: argparse.Namespace, path: Path) -> int:
    from flowctx_core.check import count_problems

    try:
        ws = open_workspace(path, args)
        wanted = args.workflow or []
        for w in wanted:
            pick_agent(ws, w)
    except UsageError as exc:
        return fail(str(exc))
    names = [n for n in ws.workflows() if not wanted or any(n.lower() == w.lower() for w in wanted)]
    problems = ws.problems() if not wanted else [p for n in names for p in ws.problems(n)]
    counted = count_problems(problems)
    failed = bool(counted.errors) or (args.strict and bool(counted.warnings))
    kept = [p for p in problems if p.severity == "error" or not args.quiet]
    if args.format == "json":
        doc = {
            "workspace": str(ws.root),
            "workflows": names,
            "discovered": names,
            "not_flow_agents": [
                {"name": a.name, "reason": why, "location": str(a.loc)} for a, why in ws.others
            ],
            "ok": not failed,
            "errors": counted.errors,
            "warnings": counted.warnings,
            "runtime": RUNTIME,
            "refused": {},
            "problems": [_problem_json(p) for p in kept],
        }
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    elif args.format == "github":
        from flowctx_core.base.repo_paths import report_base
        from flowctx_core.report.github import problem_annotations

        for line in problem_annotations(kept, ws.root, report_base(ws.root)):
            print(line)
        print(_summary(names, counted, failed))
    else:
        lines = [p.format() for p in kept]
        for a, why in ws.others:
            if not args.quiet:
                lines.append(
                    one_line(f"{a.loc}: note: agent '{a.name}' is not a flow agent ({why})")
                )
        lines.append(_summary(names, counted, failed))
        print_painted("\n".join(lines), CHECK_RULES)
    return 1 if failed else 0


def _summary(names: list[str], counted: Any, failed: bool) -> str:
    return (
        f"{'FAILED' if failed else 'ok'}: {len(names)} workflow(s), {counted.errors} "
        f"error(s), {counted.warnings} warning(s) [runtime {RUNTIME}]"
    )


def _problem_json(p: Diagnostic) -> dict[str, object]:
    doc = p.to_json()
    keys = ("file", "line", "column", "severity", "code", "message")
    return {k: doc.get(k, "") for k in keys}


# -- routes ----------------------------------------------------------------------------------
def hop_inputs(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "payload": load_json_arg(args.payload, "--payload", negative_zero=True),
        "data": load_json_arg(args.data, "--data", negative_zero=True),
        "context": load_json_arg(args.context, "--context", negative_zero=True),
        "step_result": load_json_arg(args.step_result, "--step-result", negative_zero=True),
        "flow_context": load_json_object_arg(args.flow_context, "--flow-context"),
    }


def decide(agent: Agent, source: Step | None, inputs: dict[str, Any]) -> Hop:
    from flowctx_core.memberjunction.flow import machine

    if source is None:
        return machine.start(agent, inputs["payload"], inputs["data"], inputs["context"])
    result = inputs["step_result"]
    if result is None:
        result = machine.default_result(source, inputs["payload"])
    return machine.next_hop(
        agent,
        source,
        result,
        inputs["payload"],
        inputs["data"],
        inputs["context"],
        inputs["flow_context"],
    )


def as_decision(hop: Hop) -> RouteDecision:
    from flowctx_core.memberjunction.flow.views import hop_decision

    return hop_decision(hop)


def _masked(value: Any) -> Any:
    """Every leaf of ``context`` hidden: it may hold API keys (``--reveal`` shows them)."""
    from flowctx_core.base.secrets import MASK

    if isinstance(value, dict):
        return {k: _masked(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_masked(v) for v in value]
    return value if value is None or isinstance(value, bool) else MASK


def action_inputs(hop: Hop, inputs: dict[str, Any], reveal: bool) -> Any:
    """The params the entered Action step's action receives (ActionInputMapping resolved)."""
    from flowctx_core.memberjunction.flow.actions import action_params

    step = hop.winner
    if step is None or step.type != "Action":
        return None
    context = inputs.get("context") if reveal else _masked(inputs.get("context"))
    return action_params(step.input_mapping, hop.payload, inputs.get("data"), context)


def hop_json(hop: Hop, reveal: bool, inputs: dict[str, Any] | None = None) -> dict[str, Any]:
    from flowctx_core.base.secrets import mask_text

    d = as_decision(hop)
    doc = d.to_json(reveal=reveal)
    if hop.source is None:
        doc["source"] = None
        doc["winner_index"] = None
        doc["file"] = hop.agent.file
    doc["winner_id"] = hop.winner.id if hop.winner is not None else None
    doc["winner_type"] = hop.winner.type if hop.winner is not None else None
    doc["entered_failure"] = hop.entered_failure
    doc["chat"] = hop.chat
    doc["message"] = mask_text(hop.message) if hop.message is not None else None
    doc["action_params"] = action_inputs(hop, inputs or {}, reveal)
    doc["attempts"] = [
        {
            "outcome": a.outcome,
            "message": mask_text(a.message),
            "step_result_step": a.step_result.get("step")
            if isinstance(a.step_result, dict)
            else None,
        }
        for a in hop.attempts
    ]
    return doc


def run_routes(args: argparse.Namespace, path: Path, render_text: Callable[..., str]) -> int:
    """``flowctx routes`` on MJ metadata; ``render_text``: routes' own text renderer."""
    try:
        ws = open_workspace(path, args)
        agent = pick_agent(ws, args.workflow)
        source = pick_step(agent, args.source) if args.source is not None else None
        inputs = hop_inputs(args)
    except UsageError as exc:
        return fail(str(exc))
    problems = ws.problems(agent.name)
    for p in problems:
        if p.severity == "error":
            print(p.format(), file=sys.stderr)
    hop = decide(agent, source, inputs)
    if args.format == "json":
        doc = {
            "workflow": agent.name,
            "runtime": RUNTIME,
            "refused": None,
            "source": source.name if source is not None else None,
            "decisions": [hop_json(hop, args.reveal, inputs)],
            "problems": [p.to_json() for p in problems],
        }
        print(json.dumps(doc, indent=2, default=str, ensure_ascii=False))
    else:
        if source is None:
            print(one_line(f"{agent.name}: MemberJunction flow ({agent.file}), the starting step"))
            if hop.winner is not None:
                said = f"winner: {one_line(hop.winner.name)} ({one_line(hop.reason)})"
            else:
                said = f"no route: {one_line(hop.reason)}"
            print_painted(said, ROUTES_RULES)
        else:
            print_painted(
                render_text(agent.name, [as_decision(hop)], reveal=args.reveal), ROUTES_RULES
            )
        params = action_inputs(hop, inputs, args.reveal)
        if params is not None:
            shown = json.dumps(params, ensure_ascii=False, default=str)
            print(one_line(f"action params (ActionInputMapping): {shown}"))
    if hop.winner is not None:
        return 0
    return 1 if hop.failed else 0


# -- graph -----------------------------------------------------------------------------------
def run_graph(args: argparse.Namespace, path: Path, paint: Callable[[str, str], str]) -> int:
    """``flowctx graph`` on MJ metadata; ``paint``: graph's own colours."""
    from flowctx_core.memberjunction.flow.graph import build_graph
    from flowctx_core.routing.graph_render import to_dot, to_json, to_mermaid, to_text
    from flowctx_tui.cli.terminal import colour_wanted, table_width

    try:
        ws = open_workspace(path, args)
        agent = pick_agent(ws, args.workflow)
        inputs = hop_inputs(args)
        start = pick_step(agent, args.source) if args.source else None
    except UsageError as exc:
        return fail(str(exc))
    for p in ws.problems(agent.name):
        if p.severity == "error":
            print(p.format(), file=sys.stderr)
    graph = build_graph(agent, inputs)
    if start is not None:
        graph = graph.reachable(start.name)
    given = [
        n
        for n, v in (
            ("--data", args.data),
            ("--context", args.context),
            ("--payload", args.payload),
            ("--step-result", args.step_result),
            ("--flow-context", args.flow_context),
        )
        if v
    ]
    default = "default (each step gives the result 5.51.3 stores for its type)"
    header = [
        f"flowctx graph: workflow {agent.name}, runtime {RUNTIME}",
        f"scenario: {', '.join(given) if given else default}",
    ]
    if args.format != "json":  # what the drawings' marks mean
        header.insert(
            2,
            f"{'★' if args.format == 'text' else '★ and a thick line'}: the route each step takes "
            "under the scenario",
        )
    if args.format == "json":
        print(json.dumps(to_json([graph], header), indent=2, ensure_ascii=False))
    elif args.format == "mermaid":
        print(to_mermaid([graph], header))
    elif args.format == "dot":
        print(to_dot([graph], header))
    else:
        width = table_width(sys.stdout, args.width) or 100
        colour = paint if colour_wanted(sys.stdout) else None
        print(to_text([graph], header, width, colour))
    return 0


# -- test ------------------------------------------------------------------------------------
def run_test(args: argparse.Namespace, path: Path) -> int:
    from flowctx_core.report.testrun import render_text, to_json, to_junit
    from flowctx_core.testing.mj import mj_test_files, run_mj_tests
    from flowctx_core.testing.model import load_test_file

    try:
        ws = open_workspace(path, args)
        if args.workflow is not None:
            pick_agent(ws, args.workflow)
        if args.coverage or args.suggest or args.format == "sarif":
            raise UsageError(
                "--coverage, --suggest and --format sarif are for Mozaiks "
                "workflows; MemberJunction agents take the cases' verdicts"
            )
    except UsageError as exc:
        return fail(str(exc))
    paths = [Path(p) for p in args.file] or mj_test_files(ws.root)
    for p in paths:
        if not p.is_file():
            return fail(f"--file: no test file at {p}")
    if not paths:
        return fail(f"{ws.root}: no test files (.flowctx/tests/*.yaml); see `flowctx test --help`")
    files = []
    for p in paths:
        try:
            display = p.resolve().relative_to(ws.root.resolve()).as_posix()
        except ValueError:
            display = p.as_posix()
        files.append(load_test_file(p, display))
    chosen = ws.flow(args.workflow) if args.workflow else None
    name = chosen.name if chosen is not None else None
    test_run = run_mj_tests(ws, files, workflow=name, keyword=args.keyword, reveal=args.reveal)
    if args.format == "json":
        print(json.dumps(to_json(test_run, RUNTIME, None, []), indent=2, ensure_ascii=False))
    elif args.format == "junit":
        print(to_junit(test_run, RUNTIME))
    else:
        print_painted(render_text(test_run, None, []), TEST_RULES)
    return test_run.exit_code


# -- trace -----------------------------------------------------------------------------------
def run_trace(
    args: argparse.Namespace,
    path: Path,
    render_text: Callable[..., str],
    parse_turn: Callable[[str], Any],
) -> int:
    """``flowctx trace`` on MJ metadata: each ``--turn STEP=JSON`` is what the next step the
    run enters returns (an Action's ``{"success", "outputs"}``, a Prompt's ``{"reply"}``, a
    Sub-Agent's ``{"success", "payload"}``, a loop's ``{"payload"}``, or ``{"result": ...}``,
    the raw stepResult)."""
    from flowctx_core.memberjunction.flow.run import run_flow
    from flowctx_core.memberjunction.flow.views import as_trace

    try:
        ws = open_workspace(path, args)
        agent = pick_agent(ws, args.workflow)
        start = pick_step(agent, args.source) if args.source else None
        turns = [parse_turn(t) for t in args.turn]
        if args.script:
            raise UsageError(
                "--script is for Mozaiks workflows; give MJ steps' outcomes with --turn STEP=JSON"
            )
        payload = load_json_arg(args.payload, "--payload", negative_zero=True)
        data = load_json_arg(args.data, "--data", negative_zero=True)
        context = load_json_arg(args.context, "--context", negative_zero=True)
        if args.max_turns is not None and args.max_turns < 1:
            raise UsageError("--max-turns must be at least 1")
    except UsageError as exc:
        return fail(str(exc))
    mismatch: list[str] = []

    def outcome(step: Step, used: int) -> Any:
        if used >= len(turns):
            return None
        turn = turns[used]
        if turn.agent is not None and turn.agent != step.name:
            mismatch.append(
                f"turn {used + 1} is for '{turn.agent}', but the run enters '{step.name}'"
            )
            return None
        if turn.result is not None:
            return {"stepResult": turn.result}
        return dict(turn.set)

    run = run_flow(
        agent, outcome, payload, data, context, max_steps=args.max_turns or 100, start_at=start
    )
    result = as_trace(run)
    if mismatch:
        from dataclasses import replace

        result = replace(result, notes=(*result.notes, *mismatch))
    if args.format == "json":
        doc = {
            "runtime": RUNTIME,
            "refused": None,
            "max_turns": args.max_turns or 100,
            **result.to_json(),
            "payload": run.payload if run.end != "failed" else None,
        }
        from flowctx_core.base.secrets import mask_text

        print(mask_text(json.dumps(doc, indent=2, default=str, ensure_ascii=False)))
    else:
        print(render_text(result, RUNTIME))
    return 1 if result.run_failed else 0


# -- diff ------------------------------------------------------------------------------------
def run_diff(args: argparse.Namespace, path: Path) -> int:
    """``flowctx diff`` on MJ metadata: each flow agent's starting step and step decisions
    (under the results 5.51.3 stores), then check's problems, base against head."""
    from flowctx_core.review.mj import MjSideError, compare_mj, read_mj_side

    try:
        check_runtime(args)
        env = env_inputs(args) if hasattr(args, "env") else {}
        base = read_mj_side(args.base, path, env)
        head = read_mj_side(args.head, path, env)
    except (UsageError, MjSideError) as exc:
        return fail(str(exc))
    diff = compare_mj(base, head, args.workflow)
    if args.format == "json":
        print(json.dumps(diff.to_json(), indent=2, ensure_ascii=False))
    else:
        out = [f"flowctx diff: {diff.base} → {diff.head}", f"runtime: {RUNTIME}", ""]
        for a in diff.agents:
            if a.status != "changed":
                out.append(f"{'+' if a.status == 'added' else '-'} {a.name}: flow agent {a.status}")
                continue
            out.append(f"~ {a.name}")
            if a.start is not None:
                out.append(one_line(f"    starting step: {a.start[0]} → {a.start[1]}"))
            for step, before, after in a.steps:
                out.append(one_line(f"    after {step}: {before or '(no such step)'}"))
                out.append(one_line(f"      now: {after or '(no such step)'}"))
        for sign, problems in (("+", diff.added), ("-", diff.removed)):
            for file, severity, message in problems:
                out.append(one_line(f"{sign} {file}: {severity}: {message}"))
        if not diff.changed:
            out.append("no change to the flow agents' routing or problems")
        print("\n".join(out))
    return 1 if args.exit_code and diff.changed else 0
