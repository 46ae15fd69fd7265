"""Witnesses: inputs that make a rule no test reaches win, found by search and confirmed by
the engine, or the reason none exists.

The search tries values for the names a rule's condition reads (the constants it compares
with, their neighbours, booleans, null, empty and non-empty strings and lists), one name at a
time and then in combination, each candidate routed by ``decide`` exactly as a test case would
be. A witness is only ever printed after the engine made the rule win with it. Before
searching, two cheap proofs can say that no witness exists: a rule before it from the same
source always holds (``after_turn``, a path with no condition), or the condition is a
conjunction of numeric bounds on one name that no number satisfies. The search is bounded in
candidates and time and says when it gave up.
"""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from flowctx_core.base.secrets import is_secret_key, mask_text
from flowctx_core.model.matrix import Matrix
from flowctx_core.routing import RouteDecision, Routes, decide
from flowctx_core.testing.coverage import RuleCoverage

#: the default bounds of one rule's search
MAX_TRIES = 20_000
MAX_SECONDS = 2.0

_DOLLAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_MJ_PATH = re.compile(
    r"(?<![\w.$])(context|data|payload|stepResult|flowContext)((?:\.[A-Za-z_$][\w$]*)+)"
)
_NUMBER = re.compile(r"(?<![\w.$])-?\d+(?:\.\d+)?(?![\w.])")
_STRING = re.compile(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"")
_BOUND = re.compile(
    r"^\s*(?P<name>\$\{\w+\}|[A-Za-z_][\w.]*)\s*(?P<op><=|>=|<|>|===|==)\s*(?P<num>-?\d+(?:\.\d+)?)\s*$"
)
_FLIPPED = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "===": "==="}
_BOUND_REVERSED = re.compile(
    r"^\s*(?P<num>-?\d+(?:\.\d+)?)\s*(?P<op><=|>=|<|>|===|==)\s*(?P<name>\$\{\w+\}|[A-Za-z_][\w.]*)\s*$"
)
_ROOT_PARAM = {
    "context": "context_overrides",
    "data": "data",
    "payload": "payload",
    "stepResult": "step_result",
    "flowContext": "flow_context",
}
_CASE_KEY = {
    "context_overrides": "context",
    "data": "data",
    "payload": "payload",
    "step_result": "stepResult",
    "flow_context": "flowContext",
    "tools_called": "tools_called",
}


@dataclass(frozen=True)
class Witness:
    rule: RuleCoverage
    #: the decide() inputs that made the rule win (None when none was found)
    inputs: Mapping[str, Any] | None
    reason: str
    tried: int = 0
    seconds: float = 0.0
    proof: bool = False  # the reason is a proof that no witness exists
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def found(self) -> bool:
        return self.inputs is not None

    def case_yaml(self) -> str:
        """A ready-to-paste test case (a list item under ``cases:``)."""
        r = self.rule
        lines = [f"- name: {json.dumps(f'{r.source} to {r.target} (rule {r.number})')}"]
        for param, value in (self.inputs or {}).items():
            if value in (None, {}, [], ()):
                continue
            key = _CASE_KEY[param]
            shown = list(value) if isinstance(value, tuple) else value
            lines.append(f"  {key}: {mask_text(json.dumps(shown, ensure_ascii=False))}")
        lines.append("  expect:")
        lines.append(
            f"    route: {{from: {json.dumps(r.source)}, rule: {r.number}}}  # to {r.target}"
        )
        return "\n".join(lines)


def _literals(text: str) -> list[Any]:
    out: list[Any] = []
    for m in _NUMBER.finditer(text):
        n = float(m.group(0)) if "." in m.group(0) else int(m.group(0))
        out += [n, n + 1, n - 1]
    for m in _STRING.finditer(text):
        out.append(m.group(1) if m.group(1) is not None else m.group(2))
    return out


_GENERIC: tuple[Any, ...] = (True, False, None, 0, 1, "", "x", [], ["x"], {})


def _domain(text: str) -> list[Any]:
    seen: list[Any] = []
    keys: set[str] = set()
    for value in (*_literals(text), *_GENERIC):
        key = json.dumps(value, sort_keys=True) + type(value).__name__
        if key not in keys:
            keys.add(key)
            seen.append(value)
    return seen


def _names(condition: str, dialect: str | None) -> list[tuple[str, tuple[str, ...]]]:
    """(decide() parameter, path) for each name the condition reads."""
    found: dict[tuple[str, tuple[str, ...]], None] = {}
    if dialect == "mj":
        for m in _MJ_PATH.finditer(condition):
            parts = tuple(p for p in m.group(2).split(".") if p)
            if parts and parts[-1] in ("length", "includes", "indexOf", "toLowerCase"):
                parts = parts[:-1]
            if parts:
                found[(_ROOT_PARAM[m.group(1)], parts)] = None
    else:
        for m in _DOLLAR.finditer(condition):
            found[("context_overrides", (m.group(1),))] = None
    return list(found)


def never_holds(condition: str) -> str | None:
    """Why a conjunction of numeric bounds on names can never hold, or None."""
    if re.search(r"\|\||\bor\b|!(?!=)|\bnot\b", condition):
        return None
    parts = re.split(r"&&|\band\b", condition)
    bounds: dict[str, tuple[float, bool, float, bool]] = {}
    for part in parts:
        part = part.strip()
        while part.startswith("(") and part.endswith(")"):
            part = part[1:-1].strip()
        m = _BOUND.match(part)
        op = None
        if m:
            op = m.group("op")
        else:
            m = _BOUND_REVERSED.match(part)
            if m:
                op = _FLIPPED[m.group("op")]
        if m is None or op is None:
            continue
        name, num = m.group("name"), float(m.group("num"))
        lo, lo_open, hi, hi_open = bounds.get(name, (float("-inf"), True, float("inf"), True))
        if op in ("<", "<="):
            if num < hi or (num == hi and op == "<"):
                hi, hi_open = num, op == "<"
        elif op in (">", ">="):
            if num > lo or (num == lo and op == ">"):
                lo, lo_open = num, op == ">"
        else:
            if num > lo or (num == lo and lo_open):
                lo, lo_open = num, False
            if num < hi or (num == hi and hi_open):
                hi, hi_open = num, False
        bounds[name] = (lo, lo_open, hi, hi_open)
        if lo > hi or (lo == hi and (lo_open or hi_open)):
            return f"the condition can never hold: no value of {name} satisfies `{condition}`"
    return None


def _set(target: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    node = target
    for part in path[:-1]:
        nxt = node.get(part)
        if not isinstance(nxt, dict):
            nxt = {}
            node[part] = nxt
        node = nxt
    node[path[-1]] = value


def _inputs(assignment: Mapping[tuple[str, tuple[str, ...]], Any], tools: tuple[str, ...]) -> dict:
    out: dict[str, Any] = {}
    for (param, path), value in assignment.items():
        slot = out.setdefault(param, {})
        _set(slot, path, value)
    if tools:
        out["tools_called"] = tools
    return out


def _assignments(
    names: list[tuple[str, tuple[str, ...]]], domain: list[Any]
) -> Iterator[dict[tuple[str, tuple[str, ...]], Any]]:
    yield {}
    for name in names:
        for value in domain:
            yield {name: value}
    if len(names) > 1:
        for values in itertools.product(domain, repeat=len(names)):
            yield dict(zip(names, values, strict=True))


def _wins(decisions: list[RouteDecision], rule: RuleCoverage) -> bool:
    return any(
        d.kind == rule.kind and d.winner is not None and d.winner.index == rule.index
        for d in decisions
    )


def find_witness(
    routes: Routes,
    matrix: Matrix,
    rule: RuleCoverage,
    *,
    max_tries: int = MAX_TRIES,
    max_seconds: float = MAX_SECONDS,
    deadline: float | None = None,
) -> Witness:
    """Inputs that make ``rule`` win from its source, confirmed by routing them, or why not.

    The search stops after ``max_seconds`` or at ``deadline`` (a ``time.monotonic()`` value,
    the caller's bound on every rule it searches), whichever comes first; the deadline also
    stops the condition being evaluated when it passes. A search that would route through a
    condition reading a secret stops there, withheld: whether a value makes the rule win
    would be a bit of the secret."""
    from flowctx_core.expressions import budget

    started = time.monotonic()
    stop = started + max_seconds if deadline is None else min(deadline, started + max_seconds)
    with budget.until(stop):
        return _search(routes, matrix, rule, max_tries, started, stop)


def _search(
    routes: Routes,
    matrix: Matrix,
    rule: RuleCoverage,
    max_tries: int,
    started: float,
    stop: float,
) -> Witness:
    from flowctx_core.testing.taint import (
        matrix_secrets,
        source_secret,
        withheld_text,
        without_secrets,
    )

    # only a matrix holding a secret can make a decision read one (the values tried are
    # flowctx's own): the costlier traced check is skipped otherwise
    guarded = bool(matrix_secrets(matrix)) or any(
        is_secret_key(r.name) or r.secret for r in matrix.rows
    )

    def withheld(inputs: Mapping[str, Any]) -> Witness | None:
        """Asked before each decision: one that would read a secret is never made."""
        if not guarded:
            return None
        given = {k: v for k, v in inputs.items() if k != "tools_called"}
        secret = source_secret(routes, matrix, rule.source, **given)
        if secret is None:
            return None
        return Witness(rule, None, f"no suggestion: {withheld_text(secret)}")

    # what is read off these (a rule that always wins first, one no value can reach) does not
    # depend on values: decided over no secret
    base = [d for d in decide(routes, without_secrets(matrix), rule.source) if d.kind == rule.kind]
    for decision in base:
        for number, cand in enumerate(decision.candidates, 1):
            if number >= rule.number:
                break
            if cand.outcome == "always":
                what = cand.condition or "no condition"
                return Witness(
                    rule,
                    None,
                    f"unreachable: rule {number} ({what}, to {cand.target}, {cand.loc}) always "
                    "wins first",
                    proof=True,
                )
    if rule.condition is not None:
        why = never_holds(rule.condition)
        if why is not None:
            return Witness(rule, None, why, proof=True)
    target = next((c for d in base for c in d.candidates if c.index == rule.index), None)
    if target is not None and target.outcome == "not evaluable":
        note = target.note or "it cannot be evaluated before the run"
        return Witness(rule, None, f"cannot be predicted: {note}", proof=True)
    # the rules before it must fail for it to win: their names and constants are searched too
    before = [
        c
        for d in base
        for number, c in enumerate(d.candidates, 1)
        if number < rule.number and c.condition is not None
    ]
    names: list[tuple[str, tuple[str, ...]]] = []
    tools: tuple[str, ...] = ()
    for cand in [*before, *([target] if target is not None else [])]:
        found, cand_tools = _rule_inputs(
            routes, rule.kind, cand.index, cand.condition, cand.dialect
        )
        names += [n for n in found if n not in names]
        if cand is target:
            tools = cand_tools
    texts = " ".join(c.condition or "" for c in (*before, target) if c is not None)
    domain = _domain(texts)
    tried = 0
    held: str | None = None  # the rule's condition held but the runtime passed it over: why
    for assignment in _assignments(names, domain):
        if tried >= max_tries or time.monotonic() > stop:
            spent = time.monotonic() - started
            return Witness(
                rule,
                None,
                f"no witness found: gave up after {tried} candidates in {spent:.1f} s "
                "(the search is bounded; write the case by hand)",
                tried,
                spent,
            )
        tried += 1
        inputs = _inputs(assignment, tools)
        told = withheld(inputs)
        if told is not None:
            return told
        decisions = decide(routes, matrix, rule.source, **inputs)
        if time.monotonic() > stop:
            continue  # stopped inside: its answer is not one (the check above gives up)
        if _wins(decisions, rule):
            return Witness(rule, inputs, "found", tried, time.monotonic() - started)
        if held is None:
            held = _passed_over(decisions, rule)
    spent = time.monotonic() - started
    if held is not None:
        return Witness(
            rule,
            None,
            f"unreachable: its condition can hold, but the runtime passes it over ({held})",
            tried,
            spent,
            proof=True,
        )
    return Witness(
        rule,
        None,
        f"no witness found among {tried} candidates ({spent:.1f} s): the values tried for "
        f"{', '.join('.'.join(p) for _, p in names) or 'its inputs'} never make it win",
        tried,
        spent,
    )


def _passed_over(decisions: list[RouteDecision], rule: RuleCoverage) -> str | None:
    for d in decisions:
        if d.kind != rule.kind:
            continue
        for cand in d.candidates:
            if cand.index == rule.index and cand.outcome == "true" and d.winner is not cand:
                return cand.note or "another rule wins"
    return None


def _rule_inputs(
    routes: Routes, kind: str, index: int, condition: str | None, dialect: str | None
) -> tuple[list[tuple[str, tuple[str, ...]]], tuple[str, ...]]:
    names = _names(condition or "", dialect)
    tools: tuple[str, ...] = ()
    if kind == "transition_graph" and routes.transitions is not None:
        entry = next((e for e in routes.transitions.rules if e.index == index), None)
        model = entry.model if entry is not None else None
        if model is not None:
            if model.condition_type == "context_equals" and model.condition_key:
                names = [("context_overrides", (model.condition_key,))]
            elif model.condition_type == "tool_called" and model.tool_name:
                tools = (model.tool_name,)
    return names, tools
