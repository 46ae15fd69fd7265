"""``flowctx check`` on MemberJunction flow agents: what 5.51.3 would refuse or surprise with.

Every problem is located in the JSON (the ``Condition`` string, the ``StartingStep`` value, the
step's ``StepType``); warnings are the runtime's surprises: a condition on
``stepResult.step === 'Success'`` after an Action step (5.51.3 stores ``'Retry'`` there), a
step name compared with ``flowContext`` (which holds ids), paths whose tie is decided by the
database's order, a second starting step that never runs, loops and ``Human`` steps that
fail as soon as they are entered.
"""

from __future__ import annotations

import re
from dataclasses import replace

from flowctx_core.base.diagnostics import Diagnostic, Fix
from flowctx_core.memberjunction.flow.machine import enter, sorted_paths, starting_steps
from flowctx_core.memberjunction.flow.model import Agent, Step, StepPath
from flowctx_core.model.matrix import Loc

PATH_NAMES = ("payload", "stepResult", "flowContext", "data", "context")
_SUCCESS = re.compile(
    r"stepResult\s*(?:\.\s*step|\[\s*['\"]step['\"]\s*\])\s*={2,3}\s*['\"]Success['\"]"
    r"|['\"]Success['\"]\s*={2,3}\s*stepResult\s*\.\s*step"
)
_FLOW_CONTEXT = re.compile(r"flowContext\s*\.\s*(currentStepId|completedSteps|executionPath)")
_STRING = re.compile(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"")


def _diag(
    loc: Loc, message: str, severity: str = "error", code: str = "", fix: Fix | None = None
) -> Diagnostic:
    return Diagnostic(loc.file, loc.line, loc.column, message, severity, code=code, fix=fix)  # type: ignore[arg-type]


def _condition_problems(agent: Agent, path: StepPath, origin: Step | None) -> list[Diagnostic]:
    from flowctx_core.expressions import ExpressionError, compile_expression

    out: list[Diagnostic] = []
    cond = path.condition
    if not cond:
        return out
    where = path.at("Condition")
    if not cond.strip():
        out.append(
            _diag(
                where,
                "a condition of only whitespace is evaluated by 5.51.3 (it is "
                "not empty): it is false, so this path is never taken",
                "warning",
            )
        )
        return out
    try:
        compiled = compile_expression(cond, "mj")
    except ExpressionError as exc:
        start = exc.error.start
        at = replace(where, column=where.column + 1 + start) if start is not None else where
        if exc.kind == "security":
            out.append(
                replace(
                    _diag(at, f"security: {exc.error.message}; flowctx never evaluates it"),
                    code="security",
                )
            )
        else:
            out.append(
                _diag(
                    at,
                    f"condition does not parse: {exc.error.message}; 5.51.3 logs "
                    "'Path condition failed' and skips the path",
                )
            )
        return out
    from flowctx_core.expressions.mj import assignment_fix

    assigns = assignment_fix(compiled) if compiled.warnings else None
    for w in compiled.warnings:
        # an assignment meant as a comparison: its warning carries the fix (=== for =)
        fix = assigns[1] if assigns is not None and w == assigns[0] else None
        out.append(_diag(where, w, "warning", fix=fix))
    for name in sorted(set(compiled.names) - set(PATH_NAMES)):
        out.append(
            _diag(
                where,
                f"the condition reads '{name}', which a path condition cannot "
                f"see; it can read {', '.join(PATH_NAMES)}",
            )
        )
    if origin is not None and origin.type == "Action" and _SUCCESS.search(cond):
        out.append(
            _diag(
                where,
                f"'{origin.name}' is an Action step: 5.51.3 stores its result "
                "with step 'Retry' (never 'Success', even when the action succeeds), "
                "so this condition never holds; test stepResult.priorStepResult[0]."
                "success or the payload instead",
                "warning",
            )
        )
    if _FLOW_CONTEXT.search(cond):
        names = {s.name for s in agent.steps}
        for m in _STRING.finditer(cond):
            lit = m.group(1) if m.group(1) is not None else m.group(2)
            if lit in names:
                out.append(
                    _diag(
                        where,
                        f"flowContext holds step ids, not names: comparing it "
                        f"with '{lit}' never holds",
                        "warning",
                    )
                )
    return out


LOOP_NAMES = ("payload", "results", "errors")


def _while_problems(step: Step) -> list[Diagnostic]:
    """A While loop's condition: BaseAgent evaluates it before every iteration, the first
    included, over ``{payload, results, errors}`` only; an error or a falsy value stops."""
    from flowctx_core.expressions import ExpressionError, compile_expression

    cfg = step.config if isinstance(step.config, dict) else {}
    cond = cfg.get("condition")
    where = step.at("Configuration")
    if not isinstance(cond, str) or not cond.strip():
        return [
            _diag(
                where,
                f"While '{step.name}' has no condition: 5.51.3 evaluates nothing "
                "and the loop stops before its first iteration",
                "warning",
            )
        ]
    try:
        compiled = compile_expression(cond, "mj")
    except ExpressionError as exc:
        return [
            _diag(
                where,
                f"While '{step.name}': the condition does not parse "
                f"({exc.error.message}): the loop stops before its first iteration",
            )
        ]
    out = []
    for name in sorted(set(compiled.names) - set(LOOP_NAMES)):
        out.append(
            _diag(
                where,
                f"While '{step.name}': its condition reads '{name}', but a "
                "While condition sees only payload, results and errors (no data, "
                "context, stepResult or flowContext)",
                "warning",
            )
        )
    return out


def agent_problems(agent: Agent) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    if agent.status != "Active":
        why = "" if agent.status_given else " (Status is omitted: the database stores Pending)"
        out.append(
            _diag(
                agent.locs.get("Status", agent.loc),
                f"agent '{agent.name}' is {agent.status}{why}: BaseAgent refuses to run it",
                "warning",
            )
        )
    starts = starting_steps(agent)
    if not [s for s in agent.steps if s.starting]:
        out.append(
            _diag(
                agent.loc,
                f"agent '{agent.name}' has no starting step: the run fails "
                "('No starting steps defined for flow agent')",
            )
        )
    elif not starts:
        out.append(
            _diag(
                agent.loc,
                f"agent '{agent.name}' has no Active starting step: the run "
                "fails ('No starting steps defined for flow agent')",
            )
        )
    for s in starts[1:]:
        out.append(
            _diag(
                s.at("StartingStep"),
                f"starting step '{s.name}' never runs: 5.51.3 "
                f"runs only the first in localeCompare order, '{starts[0].name}'",
                "warning",
            )
        )
    seen: dict[str, Step] = {}
    for s in agent.steps:
        if s.name in seen:
            out.append(
                _diag(
                    s.at("Name"),
                    f"two steps are named '{s.name}': @lookup by Name finds only the first",
                    "warning",
                )
            )
        seen.setdefault(s.name, s)
        failure = enter(s)
        if s.type == "Human" or (failure.failure or "").startswith("Unknown step type"):
            out.append(
                _diag(
                    s.at("StepType"),
                    f"step '{s.name}': 5.51.3 has no step type "
                    f"{s.type!r}; entering it fails ('{failure.failure}')",
                    "warning",
                )
            )
        elif s.type in ("ForEach", "While") and s.loop_body == "Prompt":
            out.append(
                _diag(
                    s.at("LoopBodyType"),
                    f"{s.type} '{s.name}' has a Prompt body: "
                    "5.51.3 fails as soon as it enters the loop ('Prompt loop bodies "
                    "not yet fully supported')",
                    "warning",
                )
            )
        elif failure.failure is not None:
            out.append(
                _diag(
                    s.at("StepType"),
                    f"step '{s.name}' fails as soon as it is entered: {failure.failure}",
                    "warning",
                )
            )
        if failure.fatal is not None:
            out.append(
                _diag(
                    s.at("Configuration"),
                    f"step '{s.name}': {failure.fatal}; entering it ends the run with an error",
                )
            )
        if s.type == "While":
            out += _while_problems(s)
        if s.type in ("ForEach", "While") and failure.failure is None and failure.fatal is None:
            cfg = s.config if isinstance(s.config, dict) else {}
            if not cfg.get("itemVariable"):
                out.append(
                    _diag(
                        s.at("Configuration"),
                        f"loop '{s.name}' has no itemVariable: BaseAgent refuses to run the loop",
                        "warning",
                    )
                )
            if s.type == "ForEach" and not cfg.get("collectionPath"):
                out.append(
                    _diag(
                        s.at("Configuration"),
                        f"ForEach '{s.name}' has no "
                        "collectionPath: BaseAgent refuses to run the loop",
                        "warning",
                    )
                )
    for s in agent.steps:
        ordered = sorted_paths(agent, s.id)
        by_prio: dict[int, list[StepPath]] = {}
        for p in ordered:
            by_prio.setdefault(p.priority, []).append(p)
        for prio, group in by_prio.items():
            if len(group) > 1:
                targets = ", ".join(f"'{agent.name_of(p.destination)}'" for p in group)
                for p in group[1:]:
                    out.append(
                        _diag(
                            p.at("Priority"),
                            f"paths from '{s.name}' share priority "
                            f"{prio} ({targets}): when more than one is valid the "
                            "database's row order decides; flowctx assumes the files' "
                            "order",
                            "warning",
                        )
                    )
        for p in ordered:
            out += _condition_problems(agent, p, s)
            dest = agent.step(p.destination)
            if p.destination is not None and dest is None:
                out.append(
                    _diag(
                        p.at("DestinationStepID"),
                        f"the destination of a path from "
                        f"'{s.name}' is not a step of agent '{agent.name}': taking it "
                        "fails ('Destination step not found')",
                    )
                )
            elif dest is not None and dest.status != "Active":
                out.append(
                    _diag(
                        p.at("DestinationStepID"),
                        f"path to '{dest.name}', which is "
                        f"{dest.status}: 5.51.3 passes over it to the next valid path "
                        "to an Active step",
                        "warning",
                    )
                )
    return out
