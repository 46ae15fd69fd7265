"""Running test cases: each case's inputs resolved and routed by the core calls the CLI and
the app make, and each expectation judged against what they answer.

One snapshot and one matrix serve every case with the same environment and launch values
(cases usually differ only in context values and flow data, which routing overlays on the
matrix, as the scratchpad does), so a file of many cases costs little more than one
resolution. Secrets are compared, never shown: a value of a secret variable, or one the
expectation names under a secret-looking key, is printed as ``***``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from flowctx_core.base.diagnostics import Diagnostic, did_you_mean, suggest
from flowctx_core.base.secrets import MASK, is_secret_key, mask_text
from flowctx_core.check import count_problems, workflow_problems
from flowctx_core.model.inputs import ResolveInputs
from flowctx_core.model.matrix import Loc, Matrix
from flowctx_core.model.scenarios import Scenario, SecretGuard, load_scenario, secret_guard
from flowctx_core.model.widening import refused_env
from flowctx_core.model.workspace import WorkflowSnapshot
from flowctx_core.resolve import resolve
from flowctx_core.routing import (
    RouteDecision,
    Routes,
    decide,
    ends_the_run,
    matching_sources,
    sources,
)
from flowctx_core.runtime.exposure import agent_prompt
from flowctx_core.session import Session
from flowctx_core.snapshot import WorkspaceSnapshot
from flowctx_core.testing.model import Case, ConditionExpect, Expect, RouteExpect, TestFile
from flowctx_core.testing.taint import (
    clean_values,
    coerced_secret,
    condition_roots,
    decision_secret,
    matrix_secrets,
    row_secret,
    source_secret,
    withheld_text,
    without_secret_problems,
    without_secrets,
)

_SHOWN = 200


@dataclass(frozen=True)
class Verdict:
    """One expectation judged: what was expected, what the runtime would do, and why."""

    kind: str  # "route" | "values" | "refused" | "problems" | "prompt"
    passed: bool
    expected: str
    actual: str
    loc: Loc
    #: explain lines of the condition that decided (masked), and other context
    detail: tuple[str, ...] = ()
    #: the secret the judgement reads (``context.api_key``): the verdict is not shown, and
    #: ``passed`` says nothing (it is True, whatever the secret is); "" when none is read
    withheld: str = ""


@dataclass(frozen=True)
class CaseResult:
    file: str
    name: str
    workflow: str
    loc: Loc
    verdicts: tuple[Verdict, ...] = ()
    #: the case could not be run as written (an unknown agent, variable, scenario...)
    problems: tuple[Diagnostic, ...] = ()
    #: the route decisions the case made (coverage reads them)
    decisions: tuple[RouteDecision, ...] = field(default=(), compare=False, repr=False)
    #: the matrix the case was judged against (coverage reads which sources answered)
    matrix: Matrix | None = field(default=None, compare=False, repr=False)

    @property
    def passed(self) -> bool:
        return not self.problems and all(v.passed for v in self.verdicts)

    @property
    def withheld(self) -> tuple[str, ...]:
        """The secrets the case's withheld verdicts read, each once."""
        return tuple(dict.fromkeys(v.withheld for v in self.verdicts if v.withheld))

    @property
    def status(self) -> str:
        """ERROR, FAIL (a verdict that reads no secret failed), WITHHELD (the rest pass, and
        some read a secret: their outcome is not told) or PASS."""
        if self.problems:
            return "ERROR"
        if not self.passed:
            return "FAIL"
        return "WITHHELD" if self.withheld else "PASS"


@dataclass(frozen=True)
class TestRun:
    """Every case of every test file, with the files' own problems."""

    __test__ = False  # not a pytest test class, whatever its name

    results: tuple[CaseResult, ...]
    #: problems that make a test file unreadable or invalid (exit 2)
    problems: tuple[Diagnostic, ...]
    files: tuple[TestFile, ...] = ()
    #: workflow -> the routes its cases were run against (coverage lists every rule of them)
    routes: Mapping[str, Routes] = field(default_factory=dict)

    @property
    def passed(self) -> int:
        return sum(1 for r in self.results if r.status == "PASS")

    @property
    def failed(self) -> int:
        return sum(1 for r in self.results if r.status == "FAIL")

    @property
    def errors(self) -> int:
        return sum(1 for r in self.results if r.status == "ERROR")

    @property
    def withheld(self) -> int:
        return sum(1 for r in self.results if r.status == "WITHHELD")

    @property
    def exit_code(self) -> int:
        """0 when every case passes, 1 when any fails, 2 when a file or a case is invalid. A
        withheld verdict counts as neither: the exit status must not be a bit of a secret."""
        if self.problems or self.errors:
            return 2
        return 1 if self.failed else 0


class TestHost(Protocol):
    """What a test run asks of the workspace it runs against: a session (``SessionHost``) or
    one side of a review (``flowctx_core.review.diff``)."""

    #: the workspace folder env values from test files are judged against (None: a revision
    #: with no folder of its own, where only paths that stay inside by their text pass)
    root: Path | None

    def workflows(self) -> list[str]: ...

    def with_runtime(self, name: str) -> TestHost: ...

    def snapshot(
        self, workflows: list[str], env_overrides: Mapping[str, str]
    ) -> WorkspaceSnapshot: ...

    def inputs(
        self,
        env_overrides: Mapping[str, str] | None = None,
        launch: Mapping[str, Any] | None = None,
        *,
        overrides_from: str = "override",
        launch_from: str = "",
    ) -> ResolveInputs: ...

    def scenario(self, workflow: str, name: str) -> tuple[Scenario | None, list[Diagnostic]]: ...


class SessionHost:
    """A session as a test host: saved scenarios are read from its folder."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.root: Path | None = session.root

    def workflows(self) -> list[str]:
        return self.session.workflows()

    def with_runtime(self, name: str) -> SessionHost:
        return SessionHost(self.session.with_runtime(name))

    def snapshot(self, workflows: list[str], env_overrides: Mapping[str, str]) -> WorkspaceSnapshot:
        return self.session.snapshot(workflows, env_overrides)

    def inputs(
        self,
        env_overrides: Mapping[str, str] | None = None,
        launch: Mapping[str, Any] | None = None,
        *,
        overrides_from: str = "override",
        launch_from: str = "",
    ) -> ResolveInputs:
        return self.session.inputs(
            env_overrides, launch, overrides_from=overrides_from, launch_from=launch_from
        )

    def scenario(self, workflow: str, name: str) -> tuple[Scenario | None, list[Diagnostic]]:
        return load_scenario(self.session.root, workflow, name)


class _Inputs:
    """One snapshot and matrix per (env, launch), shared by the cases that give the same."""

    def __init__(self, session: TestHost, workflow: str, *, reveal: bool = False) -> None:
        self.session = session
        self.workflow = workflow
        #: judge expectations that read secrets and show their verdicts (the user asked)
        self.reveal = reveal
        self._cache: dict[str, tuple[WorkspaceSnapshot, Matrix, dict[str, str]]] = {}

    def get(
        self, env: Mapping[str, str], launch: Mapping[str, Any]
    ) -> tuple[WorkspaceSnapshot, Matrix, dict[str, str]]:
        import json

        key = json.dumps([sorted(env.items()), launch], sort_keys=True, default=repr)
        hit = self._cache.get(key)
        if hit is None:
            snap = self.session.snapshot([self.workflow], env)
            inputs = self.session.inputs(env, launch, overrides_from="test", launch_from="test")
            matrix = resolve(snap, inputs, self.workflow)
            hit = (snap, matrix, dict(inputs.env))
            self._cache[key] = hit
        return hit

    def problems(self, snap: WorkspaceSnapshot, matrix: Matrix, env: Mapping[str, str]) -> Any:
        inputs = self.session.inputs(env, None)
        wf = snap.workflow(self.workflow)
        return count_problems(workflow_problems(snap, inputs, {self.workflow: (wf, matrix)}))


def run_tests(
    host: Session | TestHost,
    files: Iterable[TestFile],
    *,
    workflow: str | None = None,
    keyword: str | None = None,
    reveal: bool = False,
) -> TestRun:
    """Run every case of ``files`` (only ``workflow``'s, and only cases whose name holds
    ``keyword``, when given) against the session's workspace (or a review's side).

    A verdict whose judgement reads a secret is withheld (``flowctx_core.testing.taint``)
    unless ``reveal``."""
    session: TestHost = SessionHost(host) if isinstance(host, Session) else host
    results: list[CaseResult] = []
    problems: list[Diagnostic] = []
    kept: list[TestFile] = []
    routes_by_workflow: dict[str, Routes] = {}
    known = session.workflows()
    for tf in files:
        kept.append(tf)
        if tf.model is None:
            problems.extend(tf.problems)
            continue
        name = tf.model.workflow
        if workflow is not None and name != workflow:
            continue
        if name not in known:
            hint, fix = suggest(name, known)
            listed = ", ".join(known) or "none"
            problems.append(
                tf.diag(
                    ("workflow",), f"no workflow named '{name}'{hint}; known: {listed}", fix=fix
                )
            )
            continue
        file_session = session
        if tf.model.runtime is not None:
            from flowctx_core.model.profiles import UnknownRuntime

            try:
                file_session = session.with_runtime(tf.model.runtime)
            except (UnknownRuntime, ValueError) as exc:
                problems.append(tf.diag(("runtime",), str(exc), key=False))
                continue
        inputs = _Inputs(file_session, name, reveal=reveal)
        for i, case in enumerate(tf.model.cases):
            if keyword is not None and keyword.casefold() not in case.name.casefold():
                continue
            result = _run_case(file_session, tf, i, case, inputs)
            results.append(result)
        if inputs._cache:
            snap = next(iter(inputs._cache.values()))[0]
            routes_by_workflow.setdefault(name, snap.routes[name])
    return TestRun(tuple(results), tuple(problems), tuple(kept), routes_by_workflow)


def _loc(tf: TestFile, path: tuple[str | int, ...], *, key: bool = True) -> Loc:
    line, col = tf.where(path, key=key)
    return Loc(tf.display, line, col)


def _run_case(
    session: TestHost, tf: TestFile, index: int, case: Case, inputs: _Inputs
) -> CaseResult:
    """One case, at its own instant when it names one (or its scenario does)."""
    from flowctx_core.base import clock

    with clock.scenario_instant(case.now or ""):
        return _judge_case(session, tf, index, case, inputs)


def _judge_case(
    session: TestHost, tf: TestFile, index: int, case: Case, inputs: _Inputs
) -> CaseResult:
    base: tuple[str | int, ...] = ("cases", index)
    name = inputs.workflow
    here = _loc(tf, base)
    scenario = Scenario()
    if case.scenario is not None:
        loaded, found = session.scenario(name, case.scenario)
        if loaded is None:
            why = "; ".join(d.message for d in found) or "cannot be read"
            return CaseResult(
                tf.display,
                case.name,
                name,
                here,
                problems=(tf.diag((*base, "scenario"), f"scenario: {why}", key=False),),
            )
        scenario = loaded
    if scenario.now and not case.now:
        from flowctx_core.base import clock

        with clock.scenario_instant(scenario.now):
            return _judged(session, tf, index, case, inputs, scenario, here)
    return _judged(session, tf, index, case, inputs, scenario, here)


def _judged(
    session: TestHost,
    tf: TestFile,
    index: int,
    case: Case,
    inputs: _Inputs,
    scenario: Scenario,
    here: Loc,
) -> CaseResult:
    base: tuple[str | int, ...] = ("cases", index)
    name = inputs.workflow
    # a test file is workspace content, often someone else's: its env must not widen what
    # flowctx reads (outside files, a database server), whatever the case expects
    given, refused = refused_env(case.env_strings(), session.root, "a test case")
    if refused:
        return CaseResult(
            tf.display,
            case.name,
            name,
            here,
            problems=tuple(
                tf.diag((*base, "env", key), f"{message}; the case is not run")
                for key, message in refused
            ),
        )
    env = {**scenario.env_overrides, **given}
    launch = {**scenario.launch, **case.launch}
    snap, matrix, effective_env = inputs.get(env, launch)
    wf = snap.workflow(name)
    context = _restored({**scenario.context_overrides, **case.context}, matrix)
    problems: list[Diagnostic] = []
    verdicts: list[Verdict] = []
    decisions: list[RouteDecision] = []
    expect = case.expect
    epath = (*base, "expect")
    if expect.values is not None:
        verdicts.extend(_values(tf, epath, expect.values, matrix, problems, inputs.reveal))
    coerced = None if inputs.reveal or expect.refused is None else coerced_secret(matrix)
    if expect.refused is not None and coerced is not None:
        # the launch fails when a secret does not convert to its type: a bit of the secret
        want_refused = expect.refused
        said = "refused" if want_refused is True else "not refused"
        said = said if isinstance(want_refused, bool) else f"refused ({want_refused})"
        verdicts.append(_withheld("refused", said, _loc(tf, (*epath, "refused")), coerced))
    elif expect.refused is not None:
        verdicts.append(_refused(tf, epath, expect, matrix))
    if expect.problems is not None:
        # a secret's own problems (not a number, not JSON...) are a bit of its value: they are
        # counted only when revealed
        counted = matrix if inputs.reveal else without_secret_problems(matrix)
        count = inputs.problems(snap, counted, env)
        want = expect.problems
        wanted = {
            k: v for k, v in (("errors", want.errors), ("warnings", want.warnings)) if v is not None
        }
        got = {"errors": count.errors, "warnings": count.warnings}
        ok = all(got[k] == v for k, v in wanted.items())
        verdicts.append(
            Verdict(
                "problems",
                ok,
                ", ".join(f"{v} {k}" for k, v in wanted.items()),
                str(count),
                _loc(tf, (*epath, "problems")),
            )
        )
    for j, pexp in enumerate(expect.prompts()):
        ppath = (*epath, "prompt") if not isinstance(expect.prompt, list) else (*epath, "prompt", j)
        if pexp.agent not in wf.agents:
            agents = list(wf.agents)
            hint, fix = suggest(pexp.agent, agents)
            problems.append(
                tf.diag(
                    (*ppath, "agent"),
                    f"no agent named '{pexp.agent}' in {name}{hint} "
                    f"(agents: {', '.join(agents) or 'none'})",
                    key=False,
                    fix=fix,
                )
            )
            continue
        # the case's context values are the live ones, as after a turn that set them
        live = {k: v for k, v in matrix.values.items() if k not in case.context_removed}
        live.update(context)
        shown = agent_prompt(wf, matrix, pexp.agent, env=effective_env, values=live)
        real = agent_prompt(
            wf, matrix, pexp.agent, env=effective_env, values=live, reveal=True
        ).text
        guard = secret_guard(matrix, effective_env)
        expected = "; ".join(
            [
                *(f"contains {_quote(t, guard)}" for t in pexp.wanted()),
                *(f"does not contain {_quote(t, guard)}" for t in pexp.unwanted()),
            ]
        )
        if not inputs.reveal:
            # a prompt that shows a secret variable (masked, or as None when a lookup by a
            # secret found nothing) or masks a secret inside a value: whether a text is in it
            # would be a bit of the secret, and where the mask falls is one too
            secret = _prompt_secret(matrix, pexp.agent, wf)
            if secret is None and real != shown.text:
                secret = "a secret value in the prompt"
            if secret is not None:
                verdicts.append(
                    _withheld("prompt", f"{pexp.agent}: {expected}", _loc(tf, ppath), secret)
                )
                continue
        missing = [t for t in pexp.wanted() if t not in real]
        present = [t for t in pexp.unwanted() if t in real]
        ok = not missing and not present
        actual = (
            "as expected"
            if ok
            else "; ".join(
                [
                    *(f"missing {_quote(t, guard)}" for t in missing),
                    *(f"holds {_quote(t, guard)}" for t in present),
                ]
            )
        )
        verdicts.append(
            Verdict(
                "prompt",
                ok,
                f"{pexp.agent}: {expected}",
                f"{pexp.agent}: {actual}",
                _loc(tf, ppath),
                tuple(shown.text.splitlines()) if not ok else (),
            )
        )
    for j, cexp in enumerate(expect.conditions()):
        cpath = (
            (*epath, "condition")
            if not isinstance(expect.condition, list)
            else (
                *epath,
                "condition",
                j,
            )
        )
        verdicts.append(_condition(tf, cpath, cexp, case, context, matrix, inputs.reveal))
    if expect.route is not None:
        verdict, made = _route(
            tf,
            (*epath, "route"),
            expect.route,
            case,
            context,
            snap,
            matrix,
            wf,
            problems,
            inputs.reveal,
        )
        decisions.extend(made)
        if verdict is not None:
            verdicts.append(verdict)
    if expect.path is not None:
        verdict, made = _path(
            tf, (*epath, "path"), expect.path, case, context, snap, matrix, wf, inputs.reveal
        )
        decisions.extend(made)
        if verdict is not None:
            verdicts.append(verdict)
        else:
            problems.append(tf.diag((*epath, "path"), _no_path(snap, wf, expect.path), key=False))
    return CaseResult(
        tf.display,
        case.name,
        name,
        here,
        tuple(verdicts),
        tuple(problems),
        tuple(decisions),
        matrix,
    )


def _restored(context: Mapping[str, Any], matrix: Matrix) -> dict[str, Any]:
    """``***`` under a secret variable means its resolved value: saved scenarios and cases
    saved from the app never hold a secret, so the value is taken where it lives."""
    out = dict(context)
    for key, value in context.items():
        row = matrix.row(key)
        if value == MASK and row is not None and (row.secret or is_secret_key(key)):
            out[key] = row.value
    return out


def _condition(
    tf: TestFile,
    path: tuple[str | int, ...],
    want: ConditionExpect,
    case: Case,
    context: Mapping[str, Any],
    matrix: Matrix,
    reveal: bool = False,
) -> Verdict:
    """The condition over the scope the scratchpad builds: for ``mj``, the path context with
    the matrix's values overlaid by the case's context (python reads the same names); for the
    ``${name}`` dialects, the context variables themselves."""
    from flowctx_core.expressions import evaluate
    from flowctx_core.expressions.pathcontext import build_path_context
    from flowctx_core.model.scenarios import secret_reasons

    values = {k: v for k, v in matrix.values.items() if k not in case.context_removed}
    values.update(context)
    if want.dialect in ("mj", "python"):
        scope: dict[str, Any] = build_path_context(
            payload=case.payload,
            step_result=case.stepResult,
            flow_context=case.flowContext,
            data=case.data,
            context=values,
        )
        roots: Any = secret_reasons(matrix, "context")
    else:
        scope = values
        roots = secret_reasons(matrix, None)
    expected = "an error" if want.value is None else str(want.value).lower()
    shown_expected = f"{mask_text(want.expression)} ({want.dialect}) -> {expected}"
    if not reveal:
        from flowctx_core.expressions.taint import secret_read

        secret = secret_read(
            want.expression, scope, want.dialect, condition_roots(matrix, want.dialect)
        )
        if secret is not None:
            return _withheld("condition", shown_expected, _loc(tf, path), secret)
        # it reads no secret: judged and explained over the scope without them (the same
        # verdict, and no value in the explain masked for equalling a secret)
        clean = clean_values(matrix, values)
        if want.dialect in ("mj", "python"):
            scope = {**scope, "context": clean}
        else:
            scope = clean
    result = evaluate(want.expression, scope, want.dialect)
    got = "error: " + mask_text(result.error.message) if result.error else str(result.value)
    ok = (
        result.error is None and result.value == want.value
        if want.value is not None
        else (result.error is not None)
    )
    detail: tuple[str, ...] = ()
    if not ok:
        explained = evaluate(want.expression, scope, want.dialect, explain=True, secret_roots=roots)
        if explained.explain is not None:
            detail = tuple(explained.explain.lines())
    return Verdict(
        "condition",
        ok,
        shown_expected,
        got.lower() if result.error is None else got,
        _loc(tf, path),
        detail,
    )


def _quote(text: str, guard: SecretGuard) -> str:
    """Text the author expects, quoted; masked when it is shaped like a key (eight or more
    characters, no space) and the workflow holds a secret: a prefix of a key typed into a test
    file is still the key's. Never decided by comparing it with the secrets: a text shown as
    ``***`` exactly when it is a piece of a key was itself an oracle (a test file's guesses,
    four characters each, spelled the key)."""
    keylike = len(text) >= 8 and not any(c.isspace() for c in text)
    if keylike and any(len(s) >= 4 for s in guard.values):
        return MASK
    text = mask_text(text)
    return repr(text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "...")


def _show(value: Any, secret: bool) -> str:
    if secret and value is not None:
        return MASK
    import json

    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    text = mask_text(text)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def _values(
    tf: TestFile,
    epath: tuple[str | int, ...],
    wanted: Mapping[str, Any],
    matrix: Matrix,
    problems: list[Diagnostic],
    reveal: bool = False,
) -> list[Verdict]:
    from flowctx_core.routing.transitions import json_equal

    out: list[Verdict] = []
    names = [r.name for r in matrix.rows]
    for key, value in wanted.items():
        path = (*epath, "values", key)
        row = matrix.row(key)
        if row is None:
            hint, fix = suggest(key, names)
            problems.append(
                tf.diag(path, f"no variable named '{key}' in {matrix.workflow}{hint}", fix=fix)
            )
            continue
        secret = row.secret or is_secret_key(key)
        held = row_secret(matrix, key)
        if held is not None and not reveal:
            out.append(_withheld("values", f"{key} = {_show(value, True)}", _loc(tf, path), held))
            continue
        ok = json_equal(row.value, value)
        detail = (
            tuple(
                f"{s.step}: {s.outcome}{' ' + mask_text(s.detail) if s.detail else ''}"
                for s in row.trace
            )
            if not ok and not secret
            else ()
        )
        out.append(
            Verdict(
                "values",
                ok,
                f"{key} = {_show(value, secret)}",
                f"{key} = {_show(row.value, secret)} (from {row.source}: {mask_text(row.origin)})",
                _loc(tf, path),
                detail,
            )
        )
    return out


def _refused(tf: TestFile, epath: tuple[str | int, ...], expect: Expect, matrix: Matrix) -> Verdict:
    refusal = matrix.refused
    want = expect.refused
    if isinstance(want, bool):
        ok = (refusal is not None) == want
        expected = "refused" if want else "not refused"
    else:
        # the refusal's outcome, or the runtime's stage that decides it (STAGES)
        ok = refusal is not None and want in (refusal.outcome, refusal.decided_by)
        expected = f"refused ({want})"
    actual = refusal.headline(matrix.runtime or "the runtime") if refusal else "not refused"
    return Verdict("refused", ok, expected, mask_text(actual), _loc(tf, (*epath, "refused")))


def _route(
    tf: TestFile,
    path: tuple[str | int, ...],
    want: RouteExpect,
    case: Case,
    context: Mapping[str, Any],
    snap: WorkspaceSnapshot,
    matrix: Matrix,
    wf: WorkflowSnapshot,
    problems: list[Diagnostic],
    reveal: bool = False,
) -> tuple[Verdict | None, list[RouteDecision]]:
    routes = snap.routes[wf.name]
    here = _loc(tf, path)
    if routes.empty:
        problems.append(tf.diag(path, routes.why_empty()))
        return None, []
    matches = matching_sources(routes, want.from_)
    if len(matches) > 1:
        problems.append(
            tf.diag(
                (*path, "from"),
                f"'from' matches several steps or agents: {', '.join(matches)}; "
                "give the exact name",
                key=False,
            )
        )
        return None, []
    if not matches:
        if ends_the_run(routes, wf, want.from_, **snap.speakers(wf.name)):
            how = f"no rule leaves {want.from_}: the run ends"
            if want.ends is not None:
                return _ends_verdict(want, here, ended=True, how=how), []
            errors = tuple(d.format() for d in routes.diagnostics if d.severity == "error")
            expected = f"from {want.from_} " + (
                f"to {want.to}" if want.to is not None else f"rule {want.rule}"
            )
            return Verdict("route", False, expected, how, here, errors), []
        known = sources(routes)
        hint, fix = suggest(want.from_, known)
        problems.append(
            tf.diag(
                (*path, "from"),
                f"no step or agent named '{want.from_}' has routes in {wf.name}"
                f"{hint}; known: {', '.join(known) or 'none'}",
                key=False,
                fix=fix,
            )
        )
        return None, []
    source = matches[0]
    inputs_of_case: dict[str, Any] = {
        "data": case.data if isinstance(case.data, Mapping) else None,
        "context_overrides": context,
        "context_removed": tuple(case.context_removed),
        "payload": case.payload,
        "step_result": case.stepResult,
        "flow_context": case.flowContext,
    }
    if not reveal:
        # asked before deciding: a decision that reads a secret is never made (its time, too,
        # would depend on the secret)
        secret = source_secret(routes, matrix, source, **inputs_of_case)
        if secret is not None:
            return _withheld("route", _route_expected(want, source), here, secret), []
    if not reveal:
        # no rule reads a secret: decided over the matrix without them (the same outcomes,
        # and no explain value masked for equalling a secret)
        context = clean_values(matrix, context)
        matrix = without_secrets(matrix)
    decisions = decide(
        routes,
        matrix,
        source,
        data=case.data if isinstance(case.data, Mapping) else None,
        context_overrides=context,
        context_removed=tuple(case.context_removed),
        payload=case.payload,
        step_result=case.stepResult,
        flow_context=case.flowContext,
        tools_called=tuple(case.tools_called),
    )
    if not reveal:
        from flowctx_core.routing import Router

        scope = Router(
            routes, matrix, context_overrides=context, context_removed=case.context_removed
        ).context
        secret = decision_secret(decisions, routes, matrix, scope)
        if secret is not None:
            # nothing of these decisions is shown or counted: not the winner, not the rule
            # numbers, not a "no rule goes there" problem that depends on which rule won
            return _withheld("route", _route_expected(want, source), here, secret), []
    winners = [d for d in decisions if d.winner is not None]
    if want.ends is not None:
        ended = not winners
        how = "; ".join(mask_text(d.reason) for d in decisions) or "no route"
        if winners:
            how = f"goes to {winners[0].winner.target} (rule {_rule_no(winners[0])})"  # type: ignore[union-attr]
        return _ends_verdict(want, here, ended=ended, how=how, decisions=decisions), decisions
    if want.to is not None:
        targets = {c.target for d in decisions for c in d.candidates}
        if want.to not in targets:
            hint, fix = suggest(want.to, sorted(targets))
            problems.append(
                tf.diag(
                    (*path, "to"),
                    f"no rule from '{source}' goes to '{want.to}'{hint}; targets: "
                    f"{', '.join(sorted(targets)) or 'none'}",
                    key=False,
                    fix=fix,
                )
            )
            return None, decisions
        ok = any(d.winner is not None and d.winner.target == want.to for d in decisions)
        expected = f"from {source} to {want.to}"
        focus = [c for d in decisions for c in d.candidates if c.target == want.to][:1]
    else:
        assert want.rule is not None
        counts = {d.kind: len(d.candidates) for d in decisions}
        if all(want.rule > n for n in counts.values()):
            problems.append(
                tf.diag(
                    (*path, "rule"),
                    f"'{source}' has {max(counts.values(), default=0)} rule(s); rule {want.rule} "
                    "does not exist",
                    key=False,
                )
            )
            return None, decisions
        ok = any(d.winner is not None and _rule_no(d) == want.rule for d in decisions)
        expected = f"from {source}, rule {want.rule}"
        focus = [d.candidates[want.rule - 1] for d in decisions if len(d.candidates) >= want.rule][
            :1
        ]
    actual = _actual(decisions)
    detail: list[str] = []
    if not ok:
        for cand in focus:
            detail.append(f"expected rule ({cand.loc}) [{cand.outcome}]: {cand.condition or ''}")
            detail.extend(f"  {line}" for line in cand.explain_lines())
        for d in winners:
            w = d.winner
            assert w is not None
            detail.append(f"winner ({w.loc}) [{w.outcome}]: {w.condition or 'always'}")
            detail.extend(f"  {line}" for line in w.explain_lines())
    return Verdict("route", ok, expected, actual, here, tuple(detail)), decisions


def _route_expected(want: RouteExpect, source: str) -> str:
    if want.ends is not None:
        return f"from {want.from_}: " + ("the run ends" if want.ends else "the run goes on")
    if want.to is not None:
        return f"from {source} to {want.to}"
    return f"from {source}, rule {want.rule}"


def _withheld(kind: str, expected: str, loc: Loc, secret: str) -> Verdict:
    """A verdict not told: what was expected, and which secret its judgement reads."""
    return Verdict(kind, True, expected, withheld_text(secret), loc, (), secret)


def _prompt_secret(matrix: Matrix, agent: str, wf: WorkflowSnapshot) -> str | None:
    """The first secret variable the agent sees, or None."""
    seen = wf.agents.get(agent, ())
    secret = matrix_secrets(matrix)
    for row in matrix.rows:
        if row.name in seen and row.name in secret:
            return row.name
    return None


def _path(
    tf: TestFile,
    path: tuple[str | int, ...],
    want: list[str],
    case: Case,
    context: Mapping[str, Any],
    snap: WorkspaceSnapshot,
    matrix: Matrix,
    wf: WorkflowSnapshot,
    reveal: bool = False,
) -> tuple[Verdict | None, list[RouteDecision]]:
    """A whole run from ``want[0]`` under the case's turns, as ``flowctx trace`` plays it.

    Which sources a run visits depends on its decisions, so without ``reveal`` a rule of any
    source that reads a secret withholds the whole path, asked before any turn is played."""
    from flowctx_core.routing.trace import Turn, trace

    routes = snap.routes[wf.name]
    matches = matching_sources(routes, want[0])
    if len(matches) != 1 and not ends_the_run(routes, wf, want[0], **snap.speakers(wf.name)):
        return None, []
    start = matches[0] if matches else want[0]
    here = _loc(tf, path)
    if not reveal:
        for source in sources(routes):
            secret = source_secret(
                routes,
                matrix,
                source,
                context_overrides=context,
                context_removed=tuple(case.context_removed),
            )
            if secret is not None:
                return _withheld("path", f"path {' → '.join(want)}", here, secret), []
    turns = [t.turn() for t in case.turns]
    if not turns:
        turns = [
            Turn(tools=tuple(case.tools_called) if i == 0 else ()) for i in range(len(want) - 1)
        ]
    files = snap.workflow_files.get(wf.name)
    result = trace(
        routes,
        matrix,
        turns,
        start=start,
        max_turns=files.max_turns if files is not None else None,
        context=context,
        context_removed=tuple(case.context_removed),
    )
    got = result.path
    ok = got == [start, *want[1:]]
    closed = f" ({result.closed})" if result.closed else ""
    actual = f"path {' → '.join(got)}; {result.outcome}{closed}: {mask_text(result.reason)}"
    detail = tuple(
        f"turn {s.turn}: {s.source} → {s.winner or 'terminate'}"
        + (f" (rule {s.rule}, {s.location})" if s.rule is not None else "")
        for s in result.steps
    )
    made = [s.decision for s in result.steps if s.decision is not None]
    return Verdict("path", ok, f"path {' → '.join(want)}", actual, here, detail), made


def _no_path(snap: WorkspaceSnapshot, wf: WorkflowSnapshot, want: list[str]) -> str:
    known = sources(snap.routes[wf.name])
    return (
        f"path: no step or agent named '{want[0]}' has routes in {wf.name}"
        f"{did_you_mean(want[0], known)}; known: {', '.join(known) or 'none'}"
    )


def _rule_no(decision: RouteDecision) -> int:
    """The winner's number as ``flowctx routes`` prints it (1-based, in evaluation order)."""
    for n, cand in enumerate(decision.candidates, 1):
        if cand is decision.winner:
            return n
    return 0


def _actual(decisions: list[RouteDecision]) -> str:
    parts = []
    for d in decisions:
        if d.winner is not None:
            number = f"rule {_rule_no(d)}"
            reason = mask_text(d.reason)
            # a Mozaiks reason names the rule itself, by the same number
            said = reason if reason.startswith(f"{number} ") else f"{number}: {reason}"
            parts.append(f"to {d.winner.target} ({said})")
        else:
            parts.append(f"no route ({mask_text(d.reason)})")
    return "; ".join(parts) or "no route"


def _ends_verdict(
    want: RouteExpect,
    here: Loc,
    *,
    ended: bool,
    how: str,
    decisions: list[RouteDecision] | None = None,
) -> Verdict:
    expected = f"from {want.from_}: " + ("the run ends" if want.ends else "the run goes on")
    return Verdict("route", ended == bool(want.ends), expected, how, here)


def run_workspace_tests(
    session: Session,
    paths: Iterable[Path] | None = None,
    *,
    workflow: str | None = None,
    keyword: str | None = None,
    reveal: bool = False,
) -> TestRun:
    """Load the workspace's test files (or ``paths``) and run them."""
    from flowctx_core.testing.model import (
        load_test_file,
        load_workspace_test_file,
        workspace_test_files,
    )

    if paths is None:
        found = workspace_test_files(session.root)
        return run_tests(session, found, workflow=workflow, keyword=keyword, reveal=reveal)
    chosen = list(paths)
    files = []
    root = Path(os.path.abspath(session.root))
    for p in chosen:
        try:
            display = p.resolve().relative_to(session.root.resolve()).as_posix()
        except ValueError:
            display = p.as_posix()
        try:
            # a file in the workspace (the workspace's own, or one named by --file) is
            # confined to it; a file named outside the workspace is the user's own choice
            inside = Path(os.path.abspath(p)).relative_to(root).as_posix()
        except ValueError:
            files.append(load_test_file(p, display))
        else:
            files.append(load_workspace_test_file(root / inside, root, inside))
    return run_tests(session, files, workflow=workflow, keyword=keyword, reveal=reveal)
