"""Mozaiks transition_graph.yaml: the first rule for the agent whose condition holds wins.

Rules are tried in the runtime's order (``rule_order``: under mozaiks 0.2.0 every condition
rule before any ``after_turn`` fallback, each group in file order; under the older profiles
file order) and evaluation stops at the first match, as in the runtime, so later rules are
listed as skipped; a rule the runtime tries at another place than the file puts it carries a
note saying so. ``after_turn`` always holds;
``context_expression`` is the ``mozaiks`` dialect (the runtime's own ``${name}`` evaluator,
core/expressions/mozaiks.py) over the context variables, where a missing variable reads as
None; ``tool_called`` holds when the scenario says the tool was called (under mozaiks 0.2.0
only the first tool called that a rule of the graph names: ``routing_tool``). Nothing matched: the
conversation terminates (``no_transition_matched``).

The runtime compiles every expression of the graph when the workflow starts; one it cannot
compile raises ``WorkflowGraphCompileError`` and the workflow does not start, so then every
route says so and no rule is evaluated.

The two file shapes differ where the runtime that reads them differs:

* ``transitions:`` (flowctx's shape): ``context_equals`` compares JSON values (``True`` is not
  ``1``) and a missing key reads as None.
* ``transition_rules:`` (what the Mozaiks network runtime compiles, mozaiksai/core/workflow/
  execution/network_graph.py): ``context_equals`` is AG2's ``context.get(key) == value``, so
  ``1`` matches ``True`` (flowctx says so in the candidate's note). Agent names ``user``,
  ``user_proxy``, ``userproxy`` and ``userproxyagent`` (any case) are the human;
  ``terminate`` ends the run.

A condition that fails to evaluate (``len(None)``, ``None > 2``...) under ``transition_rules:``
fails the run, as the runtime's routing call raises; under ``transitions:`` it is shown as an
error that does not hold.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any

from flowctx_core.expressions import ENGINES, ExplainNode, ExpressionError, compile_expression
from flowctx_core.routing.decision import (
    Candidate,
    Explainer,
    RouteDecision,
    chosen,
    evaluate_explained,
    is_secret_name,
    secret_why,
    value_node,
    verdict_node,
)
from flowctx_core.routing.model import (
    TRANSITION_RULES_KEY,
    Entry,
    TransitionGraphFile,
    TransitionRule,
    is_user,
    rule_problems,
    target_problems,
)

DIALECT = "mozaiks"
NO_MATCH = "no_transition_matched"
NOT_STARTED = "the workflow would not start"


def json_equal(a: Any, b: Any) -> bool:
    """Equality of JSON values: booleans are not numbers, 1 equals 1.0, containers compare
    element by element with the same rule."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        if set(a) != set(b):
            return False
        return all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if type(a) is not type(b) and not (isinstance(a, str) and isinstance(b, str)):
        return False
    return bool(a == b)


def rules_for(graph: TransitionGraphFile, agent: str) -> list[Entry[TransitionRule]]:
    if graph.shape == TRANSITION_RULES_KEY and is_user(agent):
        agent = "user"
    return list(graph.rules_by_source.get(agent, ()))


def _raw(entry: Entry[Any], name: str) -> Any:
    return entry.raw.get(name) if isinstance(entry.raw, dict) else None


def _target_label(entry: Entry[TransitionRule], agent: str) -> str:
    if entry.model is not None:
        return entry.model.target.label(agent)
    raw = _raw(entry, "target") or _raw(entry, "target_agent")
    if isinstance(raw, str):
        return raw
    if isinstance(raw, dict):
        return str(raw.get("agent") or raw.get("type") or "?")
    return "?"


def _condition_text(rule: TransitionRule) -> str | None:
    if rule.transition_type == "after_turn":
        return None
    if rule.condition_type == "context_equals":
        return f"{rule.condition_key} == {rule.condition_value!r}"
    if rule.condition_type == "context_expression":
        return rule.condition
    if rule.condition_type == "tool_called":
        return f"tool_called({rule.tool_name!r})"
    return rule.condition


def _candidate(
    entry: Entry[TransitionRule],
    agent: str,
    outcome: Any,
    *,
    explained: ExplainNode | Explainer | None = None,
    error: Any = None,
    note: str = "",
    dialect: str | None = None,
) -> Candidate:
    rule = entry.model
    return Candidate(
        entry.index,
        rule.description if rule else _raw(entry, "description"),
        _condition_text(rule) if rule else None,
        dialect,
        outcome,
        _target_label(entry, agent),
        None,  # position is the priority
        explained,
        error,
        entry.loc,
        note,
    )


def _equals_tree(
    key: str, actual: Any, expected: Any, holds: bool, secret: bool, reveal: bool
) -> ExplainNode:
    return verdict_node(
        f"${{{key}}} == {expected!r}",
        holds,
        (value_node(f"${{{key}}}", actual, secret=secret, reveal=reveal, why=secret_why(key)),),
    )


def _evaluate_rule(
    entry: Entry[TransitionRule],
    agent: str,
    context: Mapping[str, Any],
    tools_called: Sequence[str] | Collection[str],
    secret_roots: frozenset[str],
    routed_tool: str | None = None,
    tool_routing: str = "any",
) -> Candidate:
    rule = entry.model
    if rule is None:
        problems = "; ".join(d.message for d in entry.problems) or "invalid rule"
        return _candidate(entry, agent, "error", error=f"invalid rule: {problems}")
    broken = [m for _, m in rule_problems(rule)] + target_problems(rule.target)
    if broken:
        return _candidate(entry, agent, "error", error="; ".join(broken))
    if rule.transition_type == "after_turn":
        return _candidate(entry, agent, "always", note="after_turn: holds after every turn")
    if rule.condition_type == "context_equals":
        key = rule.condition_key or ""
        present = key in context
        # the runtime reads context.get(key): a missing key reads as None
        actual = context[key] if present else None
        expected = rule.condition_value
        holds = json_equal(actual, expected)
        notes = [] if present else [f"'{key}' is not in context (reads as None)"]
        if rule.shape == TRANSITION_RULES_KEY:
            # the runtime compares with Python's ==, where True == 1 and False == 0
            python_holds = bool(actual == expected)
            if python_holds != holds:
                notes.append("the runtime compares with Python ==, where True == 1 and False == 0")
            holds = python_holds
        secret = is_secret_name(key, secret_roots)

        def explainer(reveal: bool) -> ExplainNode:
            return _equals_tree(key, actual, expected, holds, secret, reveal)

        note = "; ".join(notes)
        return _candidate(
            entry,
            agent,
            "true" if holds else "false",
            explained=explainer,
            note=note,
            dialect=DIALECT,
        )
    if rule.condition_type == "tool_called":
        listed = ", ".join(tools_called) or "none"
        if tool_routing == "first_graph_tool":
            called = rule.tool_name == routed_tool
            note = f"tools called in this scenario, in order: {listed}"
            if rule.tool_name in tools_called and not called:
                note += (
                    f"; the runtime routes on {routed_tool!r}, the first tool called that a "
                    "tool_called rule names, so this rule does not fire"
                )
        else:
            called = rule.tool_name in tools_called
            note = f"tools called in this scenario: {listed}"
        return _candidate(
            entry,
            agent,
            "true" if called else "false",
            explained=verdict_node(f"tool_called({rule.tool_name!r})", called),
            note=note,
        )
    # context_expression
    assert rule.condition is not None
    result, explainer_fn = evaluate_explained(rule.condition, context, DIALECT, secret_roots)
    notes = list(result.warnings)
    if not result.success:
        return _candidate(
            entry,
            agent,
            "error",
            explained=explainer_fn,
            error=result.error,
            note="; ".join(
                [
                    *notes,
                    "the condition raises: the runtime's routing call fails"
                    if rule.shape == TRANSITION_RULES_KEY
                    else "the condition failed: treated as not holding",
                ]
            ),
            dialect=DIALECT,
        )
    return _candidate(
        entry,
        agent,
        "true" if result.value else "false",
        explained=explainer_fn,
        note="; ".join(notes),
        dialect=DIALECT,
    )


def compile_problem(graph: TransitionGraphFile) -> tuple[int, ExpressionError] | None:
    """The first ``context_expression`` rule the runtime cannot compile (its index and why):
    the graph compiler raises WorkflowGraphCompileError there and the workflow does not start."""
    for entry in graph.rules:
        rule = entry.model
        if rule is None or rule.transition_type != "condition":
            continue
        if rule.condition_type != "context_expression" or rule.condition is None:
            continue
        try:
            compile_expression(rule.condition, DIALECT)
        except ExpressionError as exc:
            return entry.index, exc
    return None


def rule_order(
    graph: TransitionGraphFile, agent: str, order: str = "file"
) -> list[Entry[TransitionRule]]:
    """``agent``'s rules in the order the runtime tries them.

    ``conditions_first`` (mozaiks 0.2.0's graph compiler): a condition rule's priority is its
    position in the file, an ``after_turn`` rule's ``len(rules) + position``; lower first. So
    every condition rule is tried before any ``after_turn`` fallback, each group in file order.
    """
    mine = rules_for(graph, agent)
    if order != "conditions_first" or graph.shape != TRANSITION_RULES_KEY:
        return mine
    total = len(graph.rules)
    return sorted(mine, key=lambda entry: _priority(entry, total))


def _cached(graph: TransitionGraphFile, key: tuple[str, ...], make: Any) -> Any:
    """``make()`` worked out once per (immutable) file and key: routing asks the same source
    again for every hop of a trace, every source of a graph."""
    memo = graph.__dict__.setdefault("_route_memo", {})
    if key not in memo:
        memo[key] = make()
    return memo[key]


def _priority(entry: Entry[TransitionRule], total: int) -> int:
    rule = entry.model
    kind = rule.transition_type if rule is not None else str(_raw(entry, "transition_type") or "")
    return total + entry.index if kind.strip().lower() == "after_turn" else entry.index


def order_note(graph: TransitionGraphFile, agent: str, order: str = "file") -> dict[int, str]:
    """Rule index -> why the runtime tries it at another place than the file puts it (empty
    when both orders agree): an author reading the YAML top to bottom expects file order."""
    tried = rule_order(graph, agent, order)
    written = rules_for(graph, agent)
    if [e.index for e in tried] == [e.index for e in written]:
        return {}
    notes: dict[int, str] = {}
    for entry in written:
        rule = entry.model
        after = rule is not None and rule.transition_type == "after_turn"
        if after:
            later = [
                e
                for e in written
                if e.index > entry.index and _priority(e, len(graph.rules)) < len(graph.rules)
            ]
            if later:
                lines = ", ".join(str(e.loc.line) for e in later)
                notes[entry.index] = (
                    "runtime order differs from file order: this after_turn fallback is tried "
                    f"after every condition rule of {agent}, also those below it (line {lines})"
                )
        else:
            earlier = [
                e
                for e in written
                if e.index < entry.index and _priority(e, len(graph.rules)) >= len(graph.rules)
            ]
            if earlier:
                lines = ", ".join(str(e.loc.line) for e in earlier)
                notes[entry.index] = (
                    "runtime order differs from file order: this condition is tried before the "
                    f"after_turn fallback above it (line {lines}); condition rules come first"
                )
    return notes


def routing_tool(
    graph: TransitionGraphFile, tools_called: Sequence[str] | Collection[str], mode: str
) -> str | None:
    """The tool a ``tool_called`` rule reads under ``first_graph_tool``: the first called
    tool (in call order) that any ``tool_called`` rule of the graph names, whatever its
    source agent; later calls are not routed on."""
    if mode != "first_graph_tool" or not tools_called:
        return None  # no tool called (most decisions): no need to list the graph's tools
    named = {
        e.model.tool_name
        for e in graph.rules
        if e.model is not None
        and e.model.transition_type == "condition"
        and e.model.condition_type == "tool_called"
        and e.model.tool_name
    }
    return next((tool for tool in tools_called if tool in named), None)


def route_transitions(
    graph: TransitionGraphFile,
    agent: str,
    context: Mapping[str, Any],
    tools_called: Sequence[str] | Collection[str] = (),
    *,
    secret_names: Collection[str] | None = None,
    order: str = "file",
    tool_routing: str = "any",
) -> RouteDecision:
    """The next speaker after ``agent``'s turn over the context variables ``context``.

    ``tools_called``: the tools the agent called this turn, in call order. ``order`` and
    ``tool_routing`` are the runtime's (``RoutingRules``). Candidates are listed in the order
    the runtime tries them, and ``rule N`` is the Nth of them (as test files number rules).

    ``secret_names``: context names whose values are masked in explain output (``None``:
    every name in ``context``, the safe default).
    """
    roots = frozenset(context if secret_names is None else secret_names)
    broken: tuple[int, ExpressionError] | None = _startup_problem(graph)
    if broken is not None:
        return _not_started(graph, agent, *broken, order=order)
    tried = _cached(graph, ("order", agent, order), lambda: rule_order(graph, agent, order))
    moved = _cached(graph, ("note", agent, order), lambda: order_note(graph, agent, order))
    routed_tool = routing_tool(graph, tools_called, tool_routing)
    candidates: list[Candidate] = []
    winner: Candidate | None = None
    winner_no = 0
    for number, entry in enumerate(tried, 1):
        if winner is not None:
            cand = _candidate(
                entry, agent, "skipped", note="not evaluated: an earlier rule matched"
            )
        else:
            cand = _evaluate_rule(
                entry, agent, context, tools_called, roots, routed_tool, tool_routing
            )
        if entry.index in moved:
            cand = replace(cand, note="; ".join(n for n in (cand.note, moved[entry.index]) if n))
        rule = entry.model
        if (
            winner is None
            and cand.outcome == "error"
            and graph.shape == TRANSITION_RULES_KEY
            and rule is not None
            and rule.condition_type == "context_expression"
            and cand.explained is not None
        ):
            # the runtime's evaluator raises out of the routing call (mozaiks 0.2.0,
            # adapters/ag2_transition_conditions.py _MozaiksExpression under AG2's
            # WorkflowAdapter): the run fails here instead of trying the next rule
            candidates.append(cand)
            candidates.extend(
                _candidate(later, agent, "skipped", note="not evaluated: the routing call raised")
                for later in tried[number:]
            )
            reason = (
                f"rule {number}'s condition raises ({cand.error_message}): the "
                "routing call raises and the run fails"
            )
            return RouteDecision(
                "transition_graph", agent, tuple(candidates), None, reason, False, failed=True
            )
        if winner is None and cand.outcome in ("true", "always"):
            cand = chosen(cand)
            winner = cand
            winner_no = number
        candidates.append(cand)
    if winner is None:
        return RouteDecision("transition_graph", agent, tuple(candidates), None, NO_MATCH, True)
    why = "after_turn always holds" if winner.outcome == "always" else "its condition holds"
    where = f" (line {winner.loc.line})" if winner.loc.line else ""
    reason = f"rule {winner_no}{where} is the first rule that matches: {why}"
    ended = winner.target == "terminate"
    if ended and graph.shape == TRANSITION_RULES_KEY:
        rule = graph.rules[winner.index].model
        reason += f"; the run ends ({(rule and rule.termination_reason) or 'workflow_complete'})"
    return RouteDecision("transition_graph", agent, tuple(candidates), winner, reason, ended)


def _not_started(
    graph: TransitionGraphFile,
    agent: str,
    index: int,
    exc: ExpressionError,
    *,
    order: str = "file",
) -> RouteDecision:
    """No rule runs: the runtime refused the graph before the first turn."""
    entry = graph.rules[index]
    line = entry.loc.line
    where = f"{graph.shape}[{index}]" + (f" (line {line})" if line else "")
    candidates = []
    for mine in rule_order(graph, agent, order):
        if mine.index == index:
            candidates.append(
                _candidate(
                    mine,
                    agent,
                    "error",
                    error=exc.error,
                    note=f"{ENGINES[DIALECT]} cannot compile it",
                    dialect=DIALECT,
                )
            )
        else:
            candidates.append(
                _candidate(mine, agent, "skipped", note=f"not evaluated: {NOT_STARTED}")
            )
    reason = (
        f"{NOT_STARTED}: {where} does not compile (WorkflowGraphCompileError): "
        f"{exc.error.message.split(' (the graph does not compile')[0]}"
    )
    return RouteDecision(
        "transition_graph", agent, tuple(candidates), None, reason, False, failed=True
    )


def _startup_problem(graph: TransitionGraphFile) -> tuple[int, ExpressionError] | None:
    """``compile_problem`` of this file, worked out once per (immutable) file: routing asks it
    once per source. Kept on the file's own ``__dict__``, as ``cached_property`` would, from
    here: the file's model must not import the router (no import cycle)."""
    cached = graph.__dict__.get("_startup_problem", _UNSET)
    if cached is _UNSET:
        cached = compile_problem(graph)
        graph.__dict__["_startup_problem"] = cached
    return cached  # type: ignore[no-any-return]


_UNSET: Any = object()
