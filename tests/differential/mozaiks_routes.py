"""The route differential that exercises every rule: flowctx's ``Router`` and ``trace`` beside
mozaiks 0.2.0's own ``compile_transition_rules_to_graph`` + ``resolve_next_agent`` (AG2's
``WorkflowAdapter`` under it), hop by hop and turn by turn.

For each graph, for every source agent and every rule, contexts are searched (over the values
the rules of that source compare with, and a pool of boundary values) that make that rule the
first match in the runtime's priority order, every earlier rule false; each found context is
then varied (a key missing, ``None``, of another type, a number as a string and back), tool
calls are tried in both orders, and multi-turn traces are played from the graph's speakers.
Every case is asked of both sides; the answer compared is the next speaker (``terminate`` and
``user`` included) or that the routing call raised, and for traces every step and the reason
the run closed. Which rules each side saw win is kept, so the coverage of the comparison
itself is reported.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import yaml

from flowctx_core.base.yamlmarks import parse_yaml_text
from flowctx_core.expressions import ExpressionError, compile_expression
from flowctx_core.model.matrix import Matrix
from flowctx_core.model.profiles import MOZAIKS
from flowctx_core.routing import Router
from flowctx_core.routing.model import Routes, parse_transition_graph
from flowctx_core.routing.trace import Trace, Turn, trace
from flowctx_core.routing.transitions import rule_order

EMPTY = Matrix("", "W", ())
#: values tried besides the rules' own literals: missing, None, booleans, numbers, strings,
#: containers (type confusion and boundaries)
POOL: tuple[Any, ...] = (None, True, False, 0, 1, 2, -1, 3.5, "", "x", "1", [], [1], {}, {"k": 1})
MISSING = object()
_LITERAL = re.compile(r"'([^'\\]*)'|\"([^\"\\]*)\"|(?<![\w.])(-?\d+(?:\.\d+)?)(?![\w.])")


@dataclass
class Graph:
    """One transition graph to compare: its raw rules (what the runtime compiles), the agents
    it declares and flowctx's parse of the same text."""

    label: str
    text: str
    agents: list[str]
    initial: str | None = None
    max_turns: int | None = None
    routes: Routes = field(init=False)
    rules: list[dict[str, Any]] = field(init=False)

    def __post_init__(self) -> None:
        doc, problems = parse_yaml_text(self.text, f"{self.label}/transition_graph.yaml")
        assert doc is not None, problems
        parsed = parse_transition_graph(doc, problems)
        self.routes = Routes(self.label, transitions=parsed, runtime=MOZAIKS)
        data = yaml.safe_load(self.text) or {}
        self.rules = list(data.get("transition_rules") or [])


@dataclass
class Tally:
    agreed: int = 0
    disagreements: list[str] = field(default_factory=list)
    #: (graph label, rule index) -> times it was the expected (and agreed) winner
    won: dict[tuple[str, int], int] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    def count(self, kind: str) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1


def _literals(rule: dict[str, Any]) -> list[Any]:
    out: list[Any] = []
    if "condition_value" in rule:
        out.append(rule["condition_value"])
    text = str(rule.get("context_expression") or "")
    for single, double, number in _LITERAL.findall(text):
        if number:
            out.append(float(number) if "." in number else int(number))
            out.append(number)
        else:
            out.append(single or double)
    for word, value in (("True", True), ("False", False), ("None", None)):
        if word in text:
            out.append(value)
    return out


def _reads(rule: dict[str, Any]) -> list[str]:
    if rule.get("condition_key"):
        return [str(rule["condition_key"]).strip()]
    text = rule.get("context_expression")
    if not text:
        return []
    try:
        return sorted(compile_expression(str(text).strip(), "mozaiks").names)
    except ExpressionError:
        return []


def _holding(raw: Any, rng: random.Random, cap: int = 4000) -> list[dict[str, Any]]:
    """Assignments of the names a context_expression reads under which it holds (searched
    over each name's truth values and the expression's own literals), at most 20."""
    from itertools import islice, product

    from flowctx_core.expressions import evaluate

    if not isinstance(raw, dict) or not raw.get("context_expression"):
        return []
    text = str(raw["context_expression"]).strip()
    names = _reads(raw)
    if not names or len(names) > 7:
        return []
    values = [MISSING, True, False, None, 0, 1, "", [1], *_literals(raw)]
    unique: list[Any] = []
    for v in values:
        if not any(type(v) is type(u) and v == u for u in unique if u is not MISSING) and (
            v is not MISSING or MISSING not in unique
        ):
            unique.append(v)
    out: list[dict[str, Any]] = []
    combos: Iterable[tuple[Any, ...]]
    if len(unique) ** len(names) <= cap:
        combos = product(unique, repeat=len(names))
    else:  # too many to walk: a random sample of them
        combos = (tuple(rng.choice(unique) for _ in names) for _ in range(cap))
    for combo in islice(combos, cap):
        assignment = dict(zip(names, combo, strict=True))
        result = evaluate(text, _ctx(assignment), "mozaiks")
        if result.success and result.value:
            out.append(assignment)
            if len(out) >= 20:
                break
    rng.shuffle(out)
    return out


def _tools(graph: Graph) -> list[str]:
    return sorted(
        {
            str(r["tool_name"]).strip()
            for r in graph.rules
            if isinstance(r, dict) and r.get("tool_name")
        }
    )


def predict_hop(graph: Graph, source: str, context: dict[str, Any], tools: list[str]) -> Any:
    """flowctx's answer, in the runtime's terms, and the winning rule's index (or None)."""
    decisions = Router(graph.routes, EMPTY, context_overrides=context, tools_called=tools).decide(
        source
    )
    read = [d for d in decisions if not d.unread]
    if not read:
        return "terminate", None
    decision = read[0]
    if decision.failed:
        return {"error": decision.reason}, None
    if decision.winner is None:
        return "terminate", None
    return decision.winner.target, decision.winner.index


def _same(mine: Any, theirs: Any) -> bool:
    if isinstance(mine, dict) or isinstance(theirs, dict):
        return isinstance(mine, dict) and isinstance(theirs, dict)
    return bool(mine == theirs)


def _ctx(assignment: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in assignment.items() if v is not MISSING}


def _variants(
    context: dict[str, Any], names: list[str], rng: random.Random, keep: int = 8
) -> list[dict[str, Any]]:
    """The found context with one name missing, None, another type, a number as a string."""
    out: list[dict[str, Any]] = []
    for name in names:
        value = context.get(name, MISSING)
        swaps: list[Any] = [MISSING, None]
        if isinstance(value, bool):
            swaps += [int(value), str(value).lower()]
        elif isinstance(value, (int, float)):
            swaps += [str(value), float(value) + 0.5, bool(value)]
        elif isinstance(value, str):
            swaps += [1, value.upper(), f" {value}"]
            if value.lstrip("-").isdigit():
                swaps.append(int(value))
        elif isinstance(value, (list, dict)):
            swaps += ["x", len(value)]
        else:
            swaps += ["", 0]
        for swap in swaps:
            varied = dict(context)
            if swap is MISSING:
                varied.pop(name, None)
            else:
                varied[name] = swap
            out.append(varied)
    rng.shuffle(out)
    return out[:keep]


@dataclass
class Case:
    graph: Graph
    source: str
    context: dict[str, Any]
    tools: list[str]
    expected_rule: int | None  # the rule flowctx says wins (index), when searched for


def hop_cases(graph: Graph, rng: random.Random, tries: int = 120, variants: int = 8) -> list[Case]:
    """For every source and rule: a context that makes the rule win in runtime order, its
    variants, and tool calls in both orders."""
    cases: list[Case] = []
    graph_tools = _tools(graph)
    sources: dict[str, None] = {}
    for entry in graph.routes.transitions.rules if graph.routes.transitions else ():
        if entry.model is not None:
            sources.setdefault(
                "user" if entry.model.source.strip().lower() == "user" else entry.model.source, None
            )
    for source in sources:
        tried = rule_order(graph.routes.transitions, source, MOZAIKS.routing.order)  # type: ignore[arg-type]
        raws = [graph.rules[e.index] for e in tried]
        names = sorted({n for r in raws if isinstance(r, dict) for n in _reads(r)})
        pools: dict[str, list[Any]] = {n: [MISSING, *POOL] for n in names}
        for raw in raws:
            if not isinstance(raw, dict):
                continue
            for n in _reads(raw):
                pools[n].extend(_literals(raw))
        for entry, raw in zip(tried, raws, strict=True):
            found: tuple[dict[str, Any], list[str]] | None = None
            own = str(raw.get("tool_name") or "").strip() if isinstance(raw, dict) else ""
            holding: list[dict[str, Any]] | None = None
            for attempt in range(tries):
                if holding is None and attempt >= tries // 2:
                    # the plain draw did not find one: start from assignments under which the
                    # rule itself holds
                    holding = _holding(raw, rng)
                assignment: dict[str, Any] = {}
                for n in names:
                    if isinstance(raw, dict) and raw.get("condition_key") == n and attempt % 2 == 0:
                        assignment[n] = raw.get("condition_value")
                    else:
                        assignment[n] = rng.choice(pools[n])
                if holding and attempt % 2:
                    # half the tries start from an assignment under which the rule itself holds
                    assignment.update(rng.choice(holding))
                context = _ctx(assignment)
                tools = (
                    [own]
                    if own
                    else ([] if attempt % 3 else [rng.choice(graph_tools)] if graph_tools else [])
                )
                _, index = predict_hop(graph, source, context, tools)
                if index == entry.index:
                    found = (context, tools)
                    break
            if found is None:
                continue
            context, tools = found
            cases.append(Case(graph, source, context, tools, entry.index))
            for varied in _variants(context, names, rng, variants):
                cases.append(Case(graph, source, varied, tools, None))
            if own:
                for other in graph_tools:
                    if other != own:
                        cases.append(Case(graph, source, context, [other, own], None))
                        cases.append(Case(graph, source, context, [own, other], None))
                        break
    return cases


def trace_cases(
    graph: Graph, cases: list[Case], rng: random.Random, count: int = 3
) -> list[dict[str, Any]]:
    """Multi-turn scripts: from a source with rules, each turn sets a context that made some
    rule of the speaker win (or nothing), with its tool calls."""
    by_source: dict[str, list[Case]] = {}
    for case in cases:
        by_source.setdefault(case.source, []).append(case)
    # a run starts from an agent the runner registered (agents.yaml), or from the human
    agents = [s for s in by_source if s in graph.agents]
    if not agents:
        return []
    out = []
    for _ in range(count):
        start = graph.initial if graph.initial in by_source else rng.choice(agents)
        turns = []
        for _ in range(rng.randint(1, 7)):
            pick = rng.choice(cases)
            turns.append({"set": dict(pick.context), "tools": list(pick.tools)})
        out.append({"start": start, "context": {}, "turns": turns})
    return out


def request(
    graphs: list[Graph], hops: dict[str, list[Case]], traces: dict[str, list[dict[str, Any]]]
) -> dict[str, Any]:
    return {
        "kind": "routes",
        "graphs": [
            {
                "rules": g.rules,
                "agents": g.agents,
                "initial": g.initial,
                "max_turns": g.max_turns,
                "hops": [
                    {"source": c.source, "context": c.context, "tools": c.tools}
                    for c in hops[g.label]
                ],
                # a user re-entry start: the contexts that route the human
                "entries": _entries(g, hops[g.label]),
                "traces": traces[g.label],
            }
            for g in graphs
        ],
    }


def _entries(graph: Graph, cases: list[Case]) -> list[dict[str, Any]]:
    if not graph.initial or graph.initial.strip().lower() != "user":
        return []
    return [c.context for c in cases if c.source == "user" and not c.tools]


def _flowctx_entry(graph: Graph, context: dict[str, Any]) -> str:
    """flowctx's first speaker for ``initial_agent: user``: the trace's start, or ``user`` when
    it refuses (the runtime keeps the symbolic name, which its runner then refuses)."""
    run = trace(
        graph.routes, EMPTY, [], initial_agent=graph.initial, context=context, agents=graph.agents
    )
    if run.outcome == "failed":
        return "error"
    return "user" if run.outcome == "refused" else run.start


def _flowctx_trace(graph: Graph, spec: dict[str, Any]) -> Trace:
    turns = [Turn(None, t["set"], (), tuple(t["tools"])) for t in spec["turns"]]
    return trace(
        graph.routes,
        EMPTY,
        turns,
        start=spec["start"],
        max_turns=graph.max_turns,
        context=spec["context"],
        agents=graph.agents,
    )


def compare(
    graphs: list[Graph],
    hops: dict[str, list[Case]],
    traces: dict[str, list[dict[str, Any]]],
    answers: list[Any],
    tally: Tally,
) -> None:
    for graph, answer in zip(graphs, answers, strict=True):
        refused = _refused(graph)
        if answer.get("compile") is not None or refused:
            tally.count("compile")
            if bool(answer.get("compile")) == bool(refused):
                tally.agreed += 1
            else:
                tally.disagreements.append(
                    f"{graph.label}: compile: flowctx {refused or 'compiles'} | "
                    f"runtime {answer.get('compile') or 'compiles'}"
                )
            continue
        for case, theirs in zip(hops[graph.label], answer["hops"], strict=True):
            mine, index = predict_hop(graph, case.source, case.context, case.tools)
            tally.count("hop" if not case.tools else "hop+tools")
            if _same(mine, theirs):
                tally.agreed += 1
                if case.expected_rule is not None and index == case.expected_rule:
                    key = (graph.label, case.expected_rule)
                    tally.won[key] = tally.won.get(key, 0) + 1
            else:
                tally.disagreements.append(
                    f"{graph.label}: from {case.source} context "
                    f"{json.dumps(case.context, default=str)} tools {case.tools}: "
                    f"flowctx {mine} | runtime {theirs}"
                )
        entries = _entries(graph, hops[graph.label])
        for context, theirs in zip(entries, answer["entries"], strict=True):
            tally.count("entry")
            mine = _flowctx_entry(graph, context)
            if mine == theirs:
                tally.agreed += 1
            else:
                tally.disagreements.append(
                    f"{graph.label}: initial_agent user under {json.dumps(context, default=str)}: "
                    f"flowctx starts at {mine} | runtime at {theirs}"
                )
        for spec, theirs in zip(traces[graph.label], answer["traces"], strict=True):
            tally.count("trace")
            mine_trace = _flowctx_trace(graph, spec)
            mine_steps = [
                {"source": s.source, "next": "terminate" if s.ended else s.winner}
                for s in mine_trace.steps
                if not s.failed
            ]
            closed = {"failed": "error", "uncovered": None}.get(
                mine_trace.outcome, mine_trace.closed
            )
            if "harness_error" in theirs:
                tally.disagreements.append(
                    f"{graph.label}: trace harness error {theirs['harness_error']}"
                )
                continue
            their_steps = [s for s in theirs["steps"] if "error" not in s]
            if mine_steps == their_steps and closed == theirs["closed"]:
                tally.agreed += 1
            else:
                tally.disagreements.append(
                    f"{graph.label}: trace from {spec['start']} "
                    f"{json.dumps(spec['turns'], default=str)[:300]}: flowctx {mine_steps} "
                    f"closed {closed} | runtime {their_steps} closed {theirs['closed']}"
                )


def _refused(graph: Graph) -> str:
    """Why flowctx says the runtime does not compile this graph ("" when it does)."""
    from flowctx_core.routing.model import rule_problems, target_problems
    from flowctx_core.routing.transitions import compile_problem

    tg = graph.routes.transitions
    if tg is None:
        return "no graph"
    for entry in tg.rules:
        if entry.model is None:
            return f"rule {entry.index} is invalid"
        broken = [m for _, m in rule_problems(entry.model)] + target_problems(entry.model.target)
        if broken:
            return "; ".join(broken)
        target = entry.model.target
        if (
            target.type in ("AgentTarget", "AgentNameTarget")
            and target.agent not in graph.agents
            and target.agent.strip().lower() != "user"
        ):
            return f"target {target.agent} is not a declared agent"
    problem = compile_problem(tg)
    return f"rule {problem[0]} does not compile" if problem else ""


def every_rule(graphs: Iterable[Graph]) -> dict[tuple[str, int], str]:
    """Every rule of the graphs: (label, index) -> its source."""
    out = {}
    for g in graphs:
        for entry in g.routes.transitions.rules if g.routes.transitions else ():
            if entry.model is not None:
                out[(g.label, entry.index)] = entry.model.source
    return out


# -- generated graphs: rule orders that mix after_turn fallbacks and condition rules --------

_AGENTS = ("PlannerAgent", "ReviewAgent", "WriterAgent", "UserProxy")
_KEYS = ("status", "approved", "retries", "phase", "items")
_VALUES: tuple[Any, ...] = (True, False, None, 0, 1, 3, "3", "ready", "", 2.5, [1], {"a": 1})
_ATOMS = (
    "${{{k}}}",
    "not ${{{k}}}",
    "${{{k}}} == {v}",
    "${{{k}}} != {v}",
    "${{{k}}} > {n}",
    "${{{k}}} <= {n}",
    "${{{k}}} is None",
    "${{{k}}} is not None",
    "${{{k}}} in [{v}, {w}]",
    "len(${{{k}}}) > {n}",
    "${{ {k} }} == {v}",
)
#: texts the runtime's compiler refuses (the workflow does not start)
_BROKEN = (
    "${status} > -1",
    "!${approved}",
    "${status} & ${phase}",
    "${status} +",
    "max(${retries})",
)
_LIT = ("'ready'", "'3'", "3", "0", "True", "False", "None", "2.5", "''")


def _expression(rng: random.Random) -> str:
    def atom() -> str:
        return rng.choice(_ATOMS).format(
            k=rng.choice(_KEYS),
            v=rng.choice(_LIT),
            w=rng.choice(_LIT),
            n=rng.choice(("0", "1", "2")),
        )

    text = atom()
    for _ in range(rng.randint(0, 2)):
        text = f"{text} {rng.choice(('and', 'or'))} {atom()}"
    if rng.random() < 0.15:
        text = f"not ({text})"
    return text


def generated_graph(n: int, rng: random.Random) -> Graph:
    agents = list(_AGENTS[: rng.randint(2, 4)])
    sources = [*agents[:3], "user"]
    tools = ("go_a", "go_b", "go_c")
    rules: list[dict[str, Any]] = []
    for _ in range(rng.randint(3, 10)):
        source = rng.choice(sources)
        if source == "user" and rng.random() < 0.3:
            source = rng.choice((" User ", "USER"))
        target = rng.choice([*agents, "user", "terminate"])
        rule: dict[str, Any] = {"source_agent": source, "target_agent": target}
        kind = rng.choices(("after_turn", "equals", "expression", "tool"), (3, 3, 3, 2))[0]
        if kind == "after_turn":
            rule["transition_type"] = "after_turn"
        else:
            rule["transition_type"] = "condition"
            if kind == "equals":
                rule.update(
                    condition_type=rng.choice(("context_equals", "Context_Equals")),
                    condition_key=rng.choice(_KEYS),
                    condition_value=rng.choice(_VALUES),
                )
            elif kind == "expression":
                text = rng.choice(_BROKEN) if rng.random() < 0.02 else _expression(rng)
                rule.update(condition_type="context_expression", context_expression=text)
            else:
                rule.update(condition_type="tool_called", tool_name=rng.choice(tools))
        if target == "terminate":
            if rng.random() < 0.5:
                rule["termination_reason"] = rng.choice(("workflow_complete", "workflow_failed"))
            rule["transition_target"] = "TerminateTarget"
        elif target == "user" and rng.random() < 0.5:
            rule["transition_target"] = "RevertToUserTarget"
        rules.append(rule)
    # now and then a name or target the compiler reads its own way, or refuses
    if rng.random() < 0.08:
        rule = rules[rng.randrange(len(rules))]
        twist = rng.randrange(6)
        if twist == 0:
            rule["target_agent"] = "GhostAgent"  # not a declared agent
        elif twist == 1:
            rule["source_agent"] = f" {rule['source_agent'].strip()} "
        elif twist == 2:
            rule["transition_target"] = rng.choice(
                ("AgentNameTarget", "RevertToUserTarget", "agenttarget", "StayTarget")
            )
        elif twist == 3:
            rule["transition_type"] = rule["transition_type"].title()
        elif twist == 4:
            rule["target_agent"] = rng.choice(("USER", "Terminate", "UserProxy"))
        else:
            rule["source_agent"] = "UserProxy"
    # rule order mixes after_turn fallbacks and condition rules: an after_turn rule written
    # before a later condition rule of the same source
    if not any(r["transition_type"] == "after_turn" for r in rules[:-1]):
        rules.insert(
            0,
            {
                "source_agent": rules[-1]["source_agent"],
                "target_agent": "terminate",
                "transition_type": "after_turn",
            },
        )
    first_after = next(i for i, r in enumerate(rules) if r["transition_type"] == "after_turn")
    rules.append(
        {
            "source_agent": rules[first_after]["source_agent"],
            "target_agent": rng.choice(agents),
            "transition_type": "condition",
            "condition_type": "context_expression",
            "context_expression": _expression(rng),
        }
    )
    text = yaml.safe_dump({"transition_rules": rules}, sort_keys=False)
    max_turns = rng.choice((None, 3, 5, 8, 50))
    initial = "user" if rng.random() < 0.2 else rng.choice(agents[:3])
    return Graph(f"generated:{n}", text, agents, initial, max_turns)


def mixes_orders(graph: Graph) -> bool:
    """Some source has an after_turn rule written before one of its condition rules."""
    seen_after: set[str] = set()
    for raw in graph.rules:
        source = str(raw.get("source_agent", "")).strip().lower()
        if raw.get("transition_type") == "after_turn":
            seen_after.add(source)
        elif source in seen_after:
            return True
    return False


#: shapes the compiler reads its own way, or refuses (each compared like any graph)
EDGE_RULES: tuple[list[dict[str, Any]], ...] = (
    [
        {
            "source_agent": " PlannerAgent ",
            "target_agent": " ReviewAgent ",
            "transition_type": "after_turn",
        }
    ],
    [
        {"source_agent": "PlannerAgent", "target_agent": "USER", "transition_type": "after_turn"},
        {"source_agent": "User", "target_agent": "PlannerAgent", "transition_type": "after_turn"},
    ],
    [
        {
            "source_agent": "PlannerAgent",
            "target_agent": "Terminate",
            "transition_type": "after_turn",
        }
    ],
    [
        {
            "source_agent": "PlannerAgent",
            "target_agent": "user",
            "transition_type": "after_turn",
            "transition_target": "TerminateTarget",
        }
    ],
    [
        {
            "source_agent": "PlannerAgent",
            "target_agent": "ReviewAgent",
            "transition_type": "after_turn",
            "transition_target": "RevertToUserTarget",
        }
    ],
    [
        {
            "source_agent": "PlannerAgent",
            "target_agent": "ReviewAgent",
            "transition_type": "after_turn",
            "transition_target": "AgentNameTarget",
        }
    ],
    [
        {
            "source_agent": "PlannerAgent",
            "target_agent": "ReviewAgent",
            "transition_type": "condition",
            "condition_type": "context_equals",
            "condition_key": "x",
        }
    ],
    [
        {
            "source_agent": "PlannerAgent",
            "target_agent": "ReviewAgent",
            "transition_type": "condition",
            "condition_type": "tool_called",
            "tool_name": "  go  ",
        }
    ],
    [
        {
            "source_agent": "PlannerAgent",
            "target_agent": "ReviewAgent",
            "transition_type": "condition",
            "condition_type": "context_expression",
            "context_expression": "  ${x} == 'a'  ",
        }
    ],
    [
        {
            "source_agent": "PlannerAgent",
            "target_agent": "ReviewAgent",
            "transition_type": "condition",
            "condition_type": "context_expression",
            "context_expression": "${x} == 'a'",
            "condition_value": None,
        }
    ],
    [
        {
            "source_agent": "PlannerAgent",
            "target_agent": "UserProxy",
            "transition_type": "after_turn",
        }
    ],
    [{"source_agent": "UserProxy", "target_agent": "ReviewAgent", "transition_type": "after_turn"}],
    [
        {
            "source_agent": "PlannerAgent",
            "target_agent": "ReviewAgent",
            "transition_type": "condition",
            "condition_type": "context_equals",
            "condition_key": "x",
            "condition_value": "null",
        }
    ],
    [
        {
            "source_agent": "PlannerAgent",
            "target_agent": "ReviewAgent",
            "transition_type": "After_Turn",
        }
    ],
    [
        {
            "source_agent": "PlannerAgent",
            "target_agent": "ReviewAgent",
            "transition_type": "condition",
            "condition_type": "context_expression",
            "context_expression": "${x} > 1 if ${y} else 0",
        }
    ],
    [
        {
            "source_agent": "PlannerAgent",
            "target_agent": "ReviewAgent",
            "transition_type": "condition",
            "condition_type": "context_expression",
            "context_expression": "${x}.upper() == 'A'",
        }
    ],
    [
        {
            "source_agent": "PlannerAgent",
            "target_agent": "ReviewAgent",
            "transition_type": "condition",
            "condition_type": "context_expression",
            "context_expression": "'a' in ${x}",
        }
    ],
    [
        {
            "source_agent": "PlannerAgent",
            "target_agent": "ReviewAgent",
            "transition_type": "condition",
            "condition_type": "context_expression",
            "context_expression": "len(${x}) > 1",
        }
    ],
    # YAML values that are not strings: the runtime reads each as its text, str(value)
    # (`context_expression: yes` is the expression True, `condition_key: 1` the key "1")
    *(
        [
            {
                "source_agent": "PlannerAgent",
                "target_agent": "ReviewAgent",
                "transition_type": "condition",
                "condition_type": "context_expression",
                "context_expression": value,
            }
        ]
        for value in (True, False, 1, 0, 2.5, [1], [], {"a": 1}, float("inf"))
    ),
    *(
        [
            {
                "source_agent": "PlannerAgent",
                "target_agent": "ReviewAgent",
                "transition_type": "condition",
                "condition_type": "context_equals",
                "condition_key": key,
                "condition_value": 1,
            }
        ]
        for key in (1, True, 1.5)
    ),
    [
        {
            "source_agent": "PlannerAgent",
            "target_agent": "ReviewAgent",
            "transition_type": "condition",
            "condition_type": "tool_called",
            "tool_name": 1,
        }
    ],
    # a false transition_target declares none (str(value or "")); the text null is a value
    # to the runtime's model and none to its graph compiler
    *(
        [
            {
                "source_agent": "PlannerAgent",
                "target_agent": "ReviewAgent",
                "transition_type": "after_turn",
                "transition_target": value,
            }
        ]
        for value in (False, 0, [], {}, 0.0, True, "null")
    ),
    [
        {
            "source_agent": "PlannerAgent",
            "target_agent": "ReviewAgent",
            "transition_type": "condition",
            "condition_type": "context_equals",
            "condition_key": " NULL ",
            "condition_value": 1,
        }
    ],
    [
        {
            "source_agent": "PlannerAgent",
            "target_agent": "ReviewAgent",
            "transition_type": "condition",
            "condition_type": "tool_called",
            "tool_name": "null",
        }
    ],
    [
        {
            "source_agent": "PlannerAgent",
            "target_agent": "ReviewAgent",
            "transition_type": "condition",
            "condition_type": "tool_called",
            "tool_name": "go",
            "condition_key": "null",
        }
    ],
    [
        {
            "source_agent": "PlannerAgent",
            "target_agent": "ReviewAgent",
            "transition_type": "after_turn",
            "context_expression": "Null",
        }
    ],
    # with a termination_reason the runtime's model wants target_agent exactly 'terminate'
    *(
        [
            {
                "source_agent": "PlannerAgent",
                "target_agent": target,
                "transition_type": "after_turn",
                "termination_reason": "workflow_failed",
            }
        ]
        for target in ("Terminate", " TERMINATE ", " terminate ", "terminate")
    ),
)
EDGE_CONTEXTS: tuple[dict[str, Any], ...] = (
    {},
    {"x": 1},
    {"x": "a"},
    {"x": None},
    {"x": "null"},
    {"x": [1, "a"]},
    {"x": 2, "y": True},
    {"x": "A"},
    {"1": 1},
    {"True": 1, "1.5": 1},
)


def edge_graphs() -> tuple[list[Graph], dict[str, list[Case]]]:
    graphs = [
        Graph(
            f"edge:{i}",
            yaml.safe_dump({"transition_rules": r}, sort_keys=False),
            ["PlannerAgent", "ReviewAgent"],
            "PlannerAgent",
            5,
        )
        for i, r in enumerate(EDGE_RULES)
    ]
    hops = {
        g.label: [
            Case(g, source, dict(c), tools, None)
            for source in ("PlannerAgent", "user", "ReviewAgent", "UserProxy")
            for c in EDGE_CONTEXTS
            for tools in ([], ["go"], ["1"])
        ]
        for g in graphs
    }
    return graphs, hops
