"""MemberJunction flow agents: which path ``getValidPaths`` takes from a step.

Paths leaving the step are sorted by priority, highest first (ties keep file order, as a stable
sort does); a path is valid when its condition is empty or evaluates truthy over the enhanced
path context (``flowctx_core.expressions.pathcontext``). Every condition is evaluated, as the
runtime does, so the user sees each outcome. The first valid path wins; a missing destination
fails the run; an inactive destination passes the turn to the next valid path that leads to an
Active step. No valid path ends the flow: there is no implicit fallback.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from flowctx_core.expressions.explain import SecretPaths
from flowctx_core.routing.decision import Candidate, RouteDecision, chosen, evaluate_explained
from flowctx_core.routing.model import Entry, FlowFile, FlowPath

DIALECT = "mj"
#: ``context`` may hold API keys: when the caller does not say which of its
#: values are secret, whatever is read through it is masked.
SECRET_ROOTS: Mapping[str, str] = {"context": "context may hold API keys"}


def _invalid_priority(entry: Entry[FlowPath]) -> int:
    raw = entry.raw.get("priority") if isinstance(entry.raw, dict) else None
    return raw if isinstance(raw, int) and not isinstance(raw, bool) else 0


def paths_from(flow: FlowFile, step: str) -> list[Entry[FlowPath]]:
    """The entries (valid or not) whose origin is ``step``, in evaluation order."""
    mine = flow.paths_by_origin.get(step, ())
    # sorted() is stable: equal priorities keep the order of the file
    return sorted(
        mine,
        key=lambda e: -(e.model.priority if e.model is not None else _invalid_priority(e)),
    )


def _raw_field(entry: Entry[Any], name: str) -> Any:
    return entry.raw.get(name) if isinstance(entry.raw, dict) else None


def _evaluate_path(
    entry: Entry[FlowPath], scope: Mapping[str, Any], secret: SecretPaths = SECRET_ROOTS
) -> Candidate:
    path = entry.model
    if path is None:
        problems = "; ".join(d.message for d in entry.problems) or "invalid path"
        to = _raw_field(entry, "to")
        return Candidate(
            entry.index,
            _raw_field(entry, "description"),
            _raw_field(entry, "condition")
            if isinstance(_raw_field(entry, "condition"), str)
            else None,
            DIALECT,
            "error",
            str(to) if to is not None else "?",
            _invalid_priority(entry),
            None,
            f"invalid path: {problems}",
            entry.loc,
            "skipped: the path is not valid",
        )
    condition = path.condition
    if condition is None or not condition.strip():
        return Candidate(
            entry.index,
            path.description,
            None,
            DIALECT,
            "always",
            path.to,
            path.priority,
            None,
            None,
            entry.loc,
            "no condition: always valid",
        )
    result, explainer = evaluate_explained(condition, scope, DIALECT, secret)
    if not result.success:
        return Candidate(
            entry.index,
            path.description,
            condition,
            DIALECT,
            "error",
            path.to,
            path.priority,
            explainer,
            result.error,
            entry.loc,
            "skipped: the condition failed",
        )
    return Candidate(
        entry.index,
        path.description,
        condition,
        DIALECT,
        "true" if result.value else "false",
        path.to,
        path.priority,
        explainer,
        None,
        entry.loc,
    )


def _with_note(c: Candidate, note: str) -> Candidate:
    return replace(c, note=note)


def route_flow(
    flow: FlowFile,
    step: str,
    path_context: Mapping[str, Any],
    secret_paths: SecretPaths = SECRET_ROOTS,
) -> RouteDecision:
    """The path the flow takes after ``step`` given the EnhancedPathContext ``path_context``;
    ``secret_paths``: where explains mask values (``context.db_password``: its reason)."""
    candidates = [_evaluate_path(e, path_context, secret_paths) for e in paths_from(flow, step)]
    valid = [i for i, c in enumerate(candidates) if c.outcome in ("true", "always")]
    errors = sum(1 for c in candidates if c.outcome == "error")
    erred = f" ({errors} condition(s) failed and were skipped)" if errors else ""

    def decision(
        winner: int | None, reason: str, *, ended: bool = False, failed: bool = False
    ) -> RouteDecision:
        return RouteDecision(
            "flow",
            step,
            tuple(candidates),
            candidates[winner] if winner is not None else None,
            reason,
            ended,
            failed,
        )

    if not valid:
        if not candidates:
            return decision(None, f"no path leaves '{step}': the flow ends", ended=True)
        return decision(None, f"no valid path: the flow ends{erred}", ended=True)

    first = valid[0]
    target = flow.step(candidates[first].target)
    if target is None:
        missing = candidates[first].target
        candidates[first] = _with_note(candidates[first], "destination step does not exist")
        return decision(
            None,
            f"the first valid path leads to step '{missing}', which does not exist: the run fails",
            ended=True,
            failed=True,
        )
    passed_over: list[str] = []
    for i in valid:
        dest = flow.step(candidates[i].target)
        if dest is None:
            candidates[i] = _with_note(candidates[i], "passed over: destination does not exist")
            continue
        if dest.status != "Active":
            passed_over.append(f"'{dest.name}' ({dest.status})")
            candidates[i] = _with_note(candidates[i], f"passed over: destination is {dest.status}")
            continue
        candidates[i] = chosen(candidates[i])
        winner = candidates[i]
        rank = "first valid path" if not passed_over else "next valid path to an Active step"
        skipped = f"; passed over inactive {', '.join(passed_over)}" if passed_over else ""
        why = "no condition" if winner.outcome == "always" else "condition is true"
        return decision(
            i, f"{rank}, priority {winner.priority}, {why}{skipped}{erred}", ended=False
        )
    return decision(
        None,
        f"no valid path leads to an Active step (passed over inactive {', '.join(passed_over)}): "
        "the flow ends",
        ended=True,
    )
