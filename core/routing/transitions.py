"""Mozaiks transition_graph.yaml: the first rule for the agent whose condition holds wins.

Rules are tried in file order (position is priority) and evaluation stops at the first match,
as in the runtime, so later rules are listed as skipped. ``after_turn`` always holds;
``context_equals`` compares values as JSON values (``True`` is not ``1``); ``context_expression``
is the ag2 dialect over the context variables; ``tool_called`` holds when the scenario says the
tool was called. Nothing matched: the conversation terminates (``no_transition_matched``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from core.expressions import ExplainNode
from core.routing.decision import (
    Candidate,
    Explainer,
    RouteDecision,
    chosen,
    evaluate_explained,
    is_secret_name,
    value_node,
    verdict_node,
)
from core.routing.model import (
    Entry,
    TransitionGraphFile,
    TransitionRule,
    rule_problems,
    target_problems,
)

DIALECT = "ag2"
NO_MATCH = "no_transition_matched"


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
    out = []
    for entry in graph.rules:
        source = entry.model.source if entry.model else _raw(entry, "source")
        if source == agent:
            out.append(entry)
    return out


def _raw(entry: Entry[Any], name: str) -> Any:
    return entry.raw.get(name) if isinstance(entry.raw, dict) else None


def _target_label(entry: Entry[TransitionRule], agent: str) -> str:
    if entry.model is not None:
        return entry.model.target.label(agent)
    raw = _raw(entry, "target")
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
        (value_node(f"${{{key}}}", actual, secret=secret, reveal=reveal),),
    )


def _evaluate_rule(
    entry: Entry[TransitionRule],
    agent: str,
    context: Mapping[str, Any],
    tools_called: Collection[str],
    secret_roots: frozenset[str],
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
        secret = is_secret_name(key, secret_roots)

        def explainer(reveal: bool) -> ExplainNode:
            return _equals_tree(key, actual, expected, holds, secret, reveal)

        note = "" if present else f"'{key}' is not in context (reads as None)"
        return _candidate(
            entry,
            agent,
            "true" if holds else "false",
            explained=explainer,
            note=note,
            dialect=DIALECT,
        )
    if rule.condition_type == "tool_called":
        called = rule.tool_name in tools_called
        listed = ", ".join(sorted(tools_called)) or "none"
        return _candidate(
            entry,
            agent,
            "true" if called else "false",
            explained=verdict_node(f"tool_called({rule.tool_name!r})", called),
            note=f"tools called in this scenario: {listed}",
        )
    # context_expression
    assert rule.condition is not None
    result, explainer_fn = evaluate_explained(rule.condition, context, DIALECT, secret_roots)
    if not result.success:
        return _candidate(
            entry,
            agent,
            "error",
            explained=explainer_fn,
            error=result.error,
            note="the condition failed: treated as not holding",
            dialect=DIALECT,
        )
    return _candidate(
        entry,
        agent,
        "true" if result.value else "false",
        explained=explainer_fn,
        dialect=DIALECT,
    )


def route_transitions(
    graph: TransitionGraphFile,
    agent: str,
    context: Mapping[str, Any],
    tools_called: Collection[str] = (),
    *,
    secret_names: Collection[str] | None = None,
) -> RouteDecision:
    """The next speaker after ``agent``'s turn over the context variables ``context``.

    ``secret_names``: context names whose values are masked in explain output (``None``:
    every name in ``context``, the safe default).
    """
    roots = frozenset(context if secret_names is None else secret_names)
    candidates: list[Candidate] = []
    winner: Candidate | None = None
    for entry in rules_for(graph, agent):
        if winner is not None:
            candidates.append(
                _candidate(entry, agent, "skipped", note="not evaluated: an earlier rule matched")
            )
            continue
        cand = _evaluate_rule(entry, agent, context, tools_called, roots)
        if cand.outcome in ("true", "always"):
            cand = chosen(cand)
            winner = cand
        candidates.append(cand)
    if winner is None:
        return RouteDecision("transition_graph", agent, tuple(candidates), None, NO_MATCH, True)
    why = "after_turn always holds" if winner.outcome == "always" else "its condition holds"
    reason = f"transitions[{winner.index}] is the first rule that matches: {why}"
    ended = winner.target == "terminate"
    return RouteDecision("transition_graph", agent, tuple(candidates), winner, reason, ended)
