"""``flowctx test`` on MemberJunction agents: cases judged by the 5.51.3 step machine.

A test file names a flow agent as its ``workflow``; each case gives the flow's inputs
(``payload``, ``data``, ``context`` as params.context, ``stepResult``, ``flowContext``) and
expects a ``route`` from a step (``to`` a step, the Nth candidate as ``rule``, or that the run
``ends`` there: it completes, fails or chats), a ``condition``'s value over the same path
context, and/or ``problems`` (how many ``flowctx check`` reports for the agent). ``from:
start`` asks for the starting step. Without ``stepResult`` the step gives the result 5.51.3
stores for its type. Context-variable expectations (``values``, ``refused``, ``prompt``,
``env``, ``launch``, ``scenario``) belong to Mozaiks workflows and are located problems here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from flowctx_core.base.diagnostics import Diagnostic, did_you_mean, suggest
from flowctx_core.memberjunction.agents import MjWorkspace
from flowctx_core.memberjunction.flow import machine
from flowctx_core.memberjunction.flow.checks import agent_problems
from flowctx_core.memberjunction.flow.model import Agent
from flowctx_core.model.matrix import Loc
from flowctx_core.testing.model import Case, TestFile
from flowctx_core.testing.run import CaseResult, TestRun, Verdict

START = "start"
_MOZAIKS_ONLY = ("values", "refused", "prompt")


def _loc(tf: TestFile, path: tuple[str | int, ...], *, key: bool = True) -> Loc:
    line, col = tf.where(path, key=key)
    return Loc(tf.display, line, col)


def _hop(agent: Agent, source: str, case: Case) -> tuple[machine.Hop | None, str]:
    context = case.context or None
    if source.lower() == START:
        return machine.start(agent, case.payload, case.data, context), ""
    step = agent.step_named(source)
    if step is None:
        names = [s.name for s in agent.steps]
        return None, (
            f"no step named '{source}' in flow agent '{agent.name}'"
            f"{did_you_mean(source, names)}; steps: {', '.join(names)}"
        )
    result = case.stepResult
    if result is None:
        result = machine.default_result(step, case.payload)
    hop = machine.next_hop(agent, step, result, case.payload, case.data, context, case.flowContext)
    return hop, ""


def _actual(hop: machine.Hop) -> str:
    if hop.winner is not None:
        fails = f" (fails once entered: {hop.entered_failure})" if hop.entered_failure else ""
        return f"to {hop.winner.name}{fails} ({hop.reason})"
    return f"the run {'fails' if hop.failed else 'ends'} ({hop.reason})"


def _reads_context(text: str | None) -> bool:
    """Whether a condition reads ``context`` (params.context: API keys, secrets)."""
    if not text:
        return False
    from flowctx_core.expressions import ExpressionError, compile_expression

    try:
        return "context" in compile_expression(text, "mj").names
    except ExpressionError:
        return False


SECRET = "context (the case's context holds a secret-looking key)"


def _secret_context(context: Any) -> bool:
    """Whether the case's context holds a secret-looking key (``apiKey``, ``password``...),
    at any depth: a verdict decided by reading that context is then withheld."""
    from flowctx_core.base.secrets import is_secret_key

    if isinstance(context, dict):
        return any(is_secret_key(str(k)) or _secret_context(v) for k, v in context.items())
    if isinstance(context, list):
        return any(_secret_context(v) for v in context)
    return False


def _judge(tf: TestFile, index: int, case: Case, agent: Agent, reveal: bool = False) -> CaseResult:
    base: tuple[str | int, ...] = ("cases", index)
    here = _loc(tf, base)
    problems: list[Diagnostic] = []
    for key in ("env", "launch", "context_removed", "tools_called"):
        if getattr(case, key):
            problems.append(
                tf.diag(
                    (*base, key),
                    f"'{key}' is for Mozaiks workflows; a "
                    "MemberJunction flow agent does not read it",
                )
            )
    if case.scenario is not None:
        problems.append(
            tf.diag(
                (*base, "scenario"),
                "saved scenarios are for Mozaiks workflows; give the flow's inputs in the case",
            )
        )
    for key in _MOZAIKS_ONLY:
        if getattr(case.expect, key) is not None:
            problems.append(
                tf.diag(
                    (*base, "expect", key),
                    f"'{key}' expectations are for Mozaiks workflows (context variables)",
                )
            )
    if problems:
        return CaseResult(tf.display, case.name, agent.name, here, problems=tuple(problems))
    verdicts: list[Verdict] = []
    want = case.expect.route
    if want is not None:
        where = _loc(tf, (*base, "expect", "route"))
        hop, why = _hop(agent, want.from_, case)
        if hop is None:
            problems.append(tf.diag((*base, "expect", "route", "from"), why, key=False))
        else:
            if want.to is not None:
                passed = hop.winner is not None and hop.winner.name == want.to
                expected = f"from {want.from_} to {want.to}"
            elif want.ends is not None:
                passed = (hop.winner is None) == want.ends
                expected = f"the run {'ends' if want.ends else 'goes on'} after {want.from_}"
            else:
                cands = hop.candidates
                won = [i for i, c in enumerate(cands, 1) if c.note.endswith("chosen")]
                passed = hop.winner is not None and won == [want.rule]
                expected = f"from {want.from_}, candidate {want.rule}"
            secret = ""
            if not reveal and _secret_context(case.context):
                # a verdict decided by a condition over the case's context would tell bits of it
                read = [a.candidates for a in hop.attempts]
                if any(_reads_context(c.condition) for cands in read for c in cands):
                    secret = SECRET
            if secret:
                verdicts.append(
                    Verdict("route", True, expected, "withheld", where, withheld=secret)
                )
            else:
                verdicts.append(Verdict("route", passed, expected, _actual(hop), where))
    for n, cond in enumerate(case.expect.conditions()):
        from flowctx_core.expressions import evaluate

        path = (
            ("expect", "condition") if case.expect.condition is cond else ("expect", "condition", n)
        )
        where = _loc(tf, (*base, *path))
        state = machine.FlowState.seeded(agent.id, case.flowContext)
        scope = machine.condition_scope(case.payload, state, case.data, case.context or None)
        result = case.stepResult
        source = agent.step_named(want.from_) if want is not None else None
        if result is None and source is not None:
            # the route's step gives the result 5.51.3 stores for its type
            result = machine.default_result(source, case.payload)
        scope["stepResult"] = result
        got = evaluate(cond.expression, scope, cond.dialect)
        value = bool(got.value) if got.success else None
        shown = "an error" if value is None else str(value).lower()
        expected = "an error" if cond.value is None else str(cond.value).lower()
        if not reveal and _secret_context(case.context) and _reads_context(cond.expression):
            said = f"{cond.expression} is {expected}"
            verdicts.append(Verdict("condition", True, said, "withheld", where, withheld=SECRET))
            continue
        verdicts.append(
            Verdict(
                "condition",
                value == cond.value,
                f"{cond.expression} is {expected}",
                f"{shown}" + (f" ({got.error.message})" if got.error else ""),
                where,
            )
        )
    if case.expect.problems is not None:
        where = _loc(tf, (*base, "expect", "problems"))
        found = agent_problems(agent)
        errors = sum(1 for p in found if p.severity == "error")
        warnings = len(found) - errors
        exp = case.expect.problems
        passed = (exp.errors is None or exp.errors == errors) and (
            exp.warnings is None or exp.warnings == warnings
        )
        expected = json.dumps(
            {k: v for k, v in (("errors", exp.errors), ("warnings", exp.warnings)) if v is not None}
        )
        verdicts.append(
            Verdict(
                "problems", passed, expected, f"{errors} error(s), {warnings} warning(s)", where
            )
        )
    return CaseResult(tf.display, case.name, agent.name, here, tuple(verdicts), tuple(problems))


def run_mj_tests(
    ws: MjWorkspace,
    files: Iterable[TestFile],
    *,
    workflow: str | None = None,
    keyword: str | None = None,
    reveal: bool = False,
) -> TestRun:
    """Every case of ``files`` against the workspace's flow agents; a verdict decided by a
    condition that reads the case's ``context`` is withheld unless ``reveal``."""
    results: list[CaseResult] = []
    problems: list[Diagnostic] = []
    kept: list[TestFile] = []
    known = ws.workflows()
    for tf in files:
        kept.append(tf)
        if tf.model is None:
            problems.extend(tf.problems)
            continue
        agent = ws.flow(tf.model.workflow)
        if workflow is not None and (agent is None or agent.name != workflow):
            continue
        if agent is None:
            hint, fix = suggest(tf.model.workflow, known)
            problems.append(
                tf.diag(
                    ("workflow",),
                    f"no flow agent named '{tf.model.workflow}'{hint}; known: {', '.join(known)}",
                    fix=fix,
                )
            )
            continue
        for i, case in enumerate(tf.model.cases):
            if keyword is not None and keyword.casefold() not in case.name.casefold():
                continue
            results.append(_judge(tf, i, case, agent, reveal))
    return TestRun(tuple(results), tuple(problems), tuple(kept))


def mj_test_files(root: Path) -> list[Path]:
    """``.flowctx/tests/*.yaml`` at the MJ workspace's root (the folder PATH names)."""
    from flowctx_core.testing.model import test_files

    return test_files(root)
