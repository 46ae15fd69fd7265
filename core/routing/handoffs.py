"""Legacy Mozaiks handoffs.yaml: what AG2 hands off to after an agent's turn.

The runtime meets the rules of an agent in phases, and the candidates are listed in that order:
expression conditions with ``condition_scope: pre`` are checked before the LLM runs; then the
model may pick one of the ``llm``/``string_llm`` handoffs (decided by the model, so they cannot
be evaluated here, only listed); then the other expression conditions, after the agent's work;
then ``after_work`` rules. Within a phase, file order. The first rule that holds wins and the
rest are not evaluated.

As the legacy runtime's HandoffManager (mozaiksai/core/workflow/handoffs.py) wires them: an
agent keeps only its last unconditional ``after_work`` rule (earlier ones are listed as
overridden); ``condition_type`` ``context_expression``/``context`` mean an expression,
``condition_scope`` ``before_reply``/``immediate``/``context_pre`` mean ``pre``; and the
targets ``User``, ``UserProxy``, ``user-agent``... are the human, ``end``/``stop`` (either
case) end the run.

An expression goes through HandoffManager's pre-step (``runtime_condition``: the text is
stripped and the words ``true``/``false``/``null``, any case, become ``True``/``False``/``None``
everywhere, inside quotes and ``${...}`` names too), then AG2's ContextExpression (the ``ag2``
dialect). A rewrite inside a string or a name is warned about, since it changes what the
author wrote. An expression ContextExpression refuses is logged and skipped by the runtime
("Context condition build failed"): the workflow still starts without that handoff.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any

from flowctx_core.routing.decision import Candidate, RouteDecision, chosen, evaluate_explained
from flowctx_core.routing.model import Entry, HandoffRule, HandoffsFile, handoff_problems

DIALECT = "ag2"
NO_MATCH = "no handoff rule applies"

PHASE_PRE, PHASE_LLM, PHASE_POST, PHASE_AFTER, PHASE_INVALID = range(5)
_PHASE_NOTES = {
    PHASE_PRE: "scope pre: checked before the LLM runs",
    PHASE_LLM: "decided by the model: cannot be evaluated",
    PHASE_POST: "scope post: checked after the agent's work",
    PHASE_AFTER: "after_work: holds when no other handoff fired",
    PHASE_INVALID: "",
}


def _raw(entry: Entry[Any], name: str) -> Any:
    return entry.raw.get(name) if isinstance(entry.raw, dict) else None


_LITERALS = {"true": "True", "false": "False", "null": "None"}
# HandoffManager._normalize_expression_literals: three word-bounded, case-insensitive
# substitutions; one pass does the same since no replacement makes another word
_LITERAL_WORD = re.compile(r"\b(true|false|null)\b", re.IGNORECASE)
# where a rewrite changes what the author meant: AG2's string literals and ${...} names
_QUOTED_OR_NAME = re.compile(r"""'[^']*'|"[^"]*"|\$\{[^}]*\}""")


def runtime_condition(text: str) -> str:
    """HandoffManager's pre-step: ``text`` stripped, with ``true``/``false``/``null`` (any case,
    anywhere) as ``True``/``False``/``None``. Every replacement keeps its length, so positions
    in the result are positions in the stripped text."""
    return _LITERAL_WORD.sub(lambda m: _LITERALS[m.group(1).lower()], text.strip())


def rewrite_warnings(text: str) -> list[str]:
    """The pre-step's rewrites that land inside a string literal or a ``${...}`` name."""
    stripped = text.strip()
    regions = [(m.start(), m.end(), m.group(0)) for m in _QUOTED_OR_NAME.finditer(stripped)]
    out = []
    for word in _LITERAL_WORD.finditer(stripped):
        inside = next((r for r in regions if r[0] <= word.start() < r[1]), None)
        if inside is None or word.group(0) == _LITERALS[word.group(1).lower()]:
            continue
        what = "the variable name" if inside[2].startswith("${") else "the string"
        out.append(
            f"HandoffManager rewrites '{word.group(0)}' to "
            f"'{_LITERALS[word.group(1).lower()]}' inside {what} {inside[2]} too"
        )
    return list(dict.fromkeys(out))


def phase(rule: HandoffRule) -> int:
    if rule.handoff_type == "after_work":
        return PHASE_AFTER
    if not rule.is_expression:
        return PHASE_LLM
    return PHASE_PRE if rule.is_pre else PHASE_POST


def overridden_after_works(entries: list[Entry[HandoffRule]]) -> set[int]:
    """Indexes of ``after_work`` rules a later one of the same agent replaces (the runtime
    keeps the last)."""
    after = [
        e.index for e in entries if e.model is not None and e.model.handoff_type == "after_work"
    ]
    return set(after[:-1])


def rules_for(handoffs: HandoffsFile, agent: str) -> list[Entry[HandoffRule]]:
    """The agent's rules in evaluation order (phase, then file order; sorted() is stable)."""
    mine = handoffs.rules_by_source.get(agent, ())
    return sorted(mine, key=lambda e: phase(e.model) if e.model else PHASE_INVALID)


def _candidate(
    entry: Entry[HandoffRule], outcome: Any, *, note: str = "", **extra: Any
) -> Candidate:
    rule = entry.model
    target = rule.target_label if rule else _raw(entry, "target_agent")
    return Candidate(
        index=entry.index,
        description=rule.description if rule else _raw(entry, "description"),
        condition=rule.condition if rule else None,
        dialect=DIALECT if rule is not None and rule.is_expression else None,
        outcome=outcome,
        target=str(target) if target is not None else "?",
        priority=None,
        explained=extra.get("explained"),
        error=extra.get("error"),
        loc=entry.loc,
        note=note,
    )


def _evaluate(
    entry: Entry[HandoffRule], context: Mapping[str, Any], secret_roots: frozenset[str]
) -> Candidate:
    rule = entry.model
    if rule is None:
        problems = "; ".join(d.message for d in entry.problems) or "invalid rule"
        return _candidate(entry, "error", error=f"invalid rule: {problems}")
    broken = handoff_problems(rule)
    if broken:
        return _candidate(entry, "error", error="; ".join(m for _, m in broken))
    where = phase(rule)
    note = _PHASE_NOTES[where]
    if where == PHASE_AFTER:
        return _candidate(entry, "always", note=note)
    if where == PHASE_LLM:
        return _candidate(entry, "not evaluable", note=note)
    assert rule.condition is not None
    text = runtime_condition(rule.condition)
    result, explainer = evaluate_explained(text, context, DIALECT, secret_roots)
    notes = [note, *rewrite_warnings(rule.condition), *result.warnings]
    if not result.success:
        return _candidate(
            entry,
            "error",
            note="; ".join([*notes, "the condition failed: treated as not holding"]),
            explained=explainer,
            error=result.error,
        )
    outcome = "true" if result.value else "false"
    return _candidate(entry, outcome, note="; ".join(notes), explained=explainer)


def route_handoffs(
    handoffs: HandoffsFile,
    agent: str,
    context: Mapping[str, Any],
    *,
    secret_names: Collection[str] | None = None,
) -> RouteDecision:
    """The handoff after ``agent``'s turn, as far as it can be decided without the model.

    ``secret_names``: context names masked in explain output (``None``: all of them).
    """
    roots = frozenset(context if secret_names is None else secret_names)
    candidates: list[Candidate] = []
    winner: Candidate | None = None
    winner_phase = PHASE_INVALID
    model_choices: list[str] = []
    mine = rules_for(handoffs, agent)
    replaced = overridden_after_works(mine)
    for entry in mine:
        if entry.index in replaced:
            candidates.append(
                _candidate(
                    entry,
                    "skipped",
                    note="overridden: the runtime keeps only the agent's last after_work rule",
                )
            )
            continue
        if winner is not None:
            candidates.append(
                _candidate(entry, "skipped", note="not evaluated: an earlier rule holds")
            )
            continue
        cand = _evaluate(entry, context, roots)
        if cand.outcome == "not evaluable":
            model_choices.append(cand.target)
        if cand.outcome in ("true", "always"):
            cand = chosen(cand)
            winner = cand
            winner_phase = phase(entry.model) if entry.model else PHASE_INVALID
        candidates.append(cand)
    if winner is None:
        reason = NO_MATCH
        if model_choices:
            reason += f" unless the model hands off to {', '.join(model_choices)}"
        return RouteDecision("handoffs", agent, tuple(candidates), None, reason, False)
    # numbered as test files and ``flowctx routes`` number rules: the Nth in evaluation order
    rule = f"rule {candidates.index(winner) + 1}"
    if winner_phase == PHASE_AFTER:
        why = f"{rule} (after_work) applies"
    elif winner_phase == PHASE_PRE:
        why = f"{rule} holds before the LLM runs"
    else:
        why = f"{rule} holds after the agent's work"
    if model_choices and winner_phase != PHASE_PRE:
        why += f", unless the model first hands off to {', '.join(model_choices)}"
    return RouteDecision(
        "handoffs",
        agent,
        tuple(candidates),
        winner,
        why,
        winner.target == "terminate",
    )
