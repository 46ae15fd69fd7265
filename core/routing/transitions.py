"""Mozaiks transition_graph.yaml: the first rule for the agent whose condition holds wins.

Rules are tried in file order (position is priority) and evaluation stops at the first match,
as in the runtime, so later rules are listed as skipped. ``after_turn`` always holds;
``context_expression`` is the ``mozaiks`` dialect (the runtime's own ``${name}`` evaluator,
core/expressions/mozaiks.py) over the context variables, where a missing variable reads as
None; ``tool_called`` holds when the scenario says the tool was called. Nothing matched: the
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

from collections.abc import Collection, Mapping
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
    real = graph.shape == TRANSITION_RULES_KEY
    if real and is_user(agent):
        agent = "user"
    out = []
    for entry in graph.rules:
        if entry.model is not None:
            source = entry.model.source
        else:
            source = _raw(entry, "source_agent" if real else "source")
            if real and isinstance(source, str):
                source = "user" if is_user(source) else source.strip()
        if source == agent:
            out.append(entry)
    return out


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
    broken = compile_problem(graph)
    if broken is not None:
        return _not_started(graph, agent, *broken)
    candidates: list[Candidate] = []
    winner: Candidate | None = None
    for entry in rules_for(graph, agent):
        if winner is not None:
            candidates.append(
                _candidate(entry, agent, "skipped", note="not evaluated: an earlier rule matched")
            )
            continue
        cand = _evaluate_rule(entry, agent, context, tools_called, roots)
        rule = entry.model
        if (
            cand.outcome == "error"
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
                for later in rules_for(graph, agent)
                if later.index > entry.index
            )
            reason = (
                f"{graph.shape}[{entry.index}]'s condition raises ({cand.error_message}): the "
                "routing call raises and the run fails"
            )
            return RouteDecision(
                "transition_graph", agent, tuple(candidates), None, reason, False, failed=True
            )
        if cand.outcome in ("true", "always"):
            cand = chosen(cand)
            winner = cand
        candidates.append(cand)
    if winner is None:
        return RouteDecision("transition_graph", agent, tuple(candidates), None, NO_MATCH, True)
    why = "after_turn always holds" if winner.outcome == "always" else "its condition holds"
    reason = f"{graph.shape}[{winner.index}] is the first rule that matches: {why}"
    ended = winner.target == "terminate"
    if ended and graph.shape == TRANSITION_RULES_KEY:
        rule = graph.rules[winner.index].model
        reason += f"; the run ends ({(rule and rule.termination_reason) or 'workflow_complete'})"
    return RouteDecision("transition_graph", agent, tuple(candidates), winner, reason, ended)


def _not_started(
    graph: TransitionGraphFile, agent: str, index: int, exc: ExpressionError
) -> RouteDecision:
    """No rule runs: the runtime refused the graph before the first turn."""
    entry = graph.rules[index]
    line = entry.loc.line
    where = f"{graph.shape}[{index}]" + (f" (line {line})" if line else "")
    candidates = []
    for mine in rules_for(graph, agent):
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
