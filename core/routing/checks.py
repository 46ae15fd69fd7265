"""``flowctx check`` for routing files: each problem located at its YAML key or value.

Conditions are compiled (not evaluated) by the engine that reads each file: ``mj`` for
flow.yaml, the Mozaiks transition evaluator for transition_graph.yaml (a rule it cannot compile
stops the workflow from starting, so that is an error), and HandoffManager's pre-step then AG2's
ContextExpression for handoffs.yaml (a refused rule is skipped by the runtime). What the engine
does that would surprise an author is a warning. A condition's problems point at the
condition's value mark. The ``${names}`` a Mozaiks condition reads must be declared in
context_variables.yaml (or be injected by the runtime); agents named in routing rules should be
agents of the contract, but only as a warning since agents.yaml may define more. Problems point
at the key of the file's own shape (``context_expression`` in a ``transition_rules:`` file).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from flowctx_core.base.diagnostics import Diagnostic, suggest
from flowctx_core.base.yamlmarks import PathKey, YamlDoc
from flowctx_core.model.workspace import WorkflowSnapshot
from flowctx_core.routing.model import TRANSITION_RULES_KEY, Entry, Routes
from flowctx_core.runtime.schema_keys import RUNTIME_KEYS

if TYPE_CHECKING:
    # the file models load with the files (flowctx_core.routing.model): annotations only here
    from flowctx_core.routing.model import FlowFile, HandoffRule, HandoffsFile, TransitionGraphFile

#: the agents the runtime creates and the file they come from (None: the contract's section)
AgentsFrom = tuple[tuple[str, ...], str] | None
#: Routing names that are not agents: the human and the end of the conversation.
PSEUDO_AGENTS = frozenset({"user", "terminate"})
#: The names a MemberJunction path condition can read (``flowctx_core.expressions.pathcontext``).
PATH_CONTEXT_NAMES = ("payload", "stepResult", "flowContext", "data", "context")


def declared_names(wf: WorkflowSnapshot) -> frozenset[str]:
    return frozenset(v.name for v in wf.variables) | RUNTIME_KEYS


def _parse(
    doc: YamlDoc,
    path: PathKey,
    text: str,
    dialect: str,
    out: list[Diagnostic],
    *,
    refused: str = "condition does not parse",
    consequence: str = "",
    lead: int = 0,
) -> frozenset[str] | None:
    """The names ``text`` reads, or ``None`` after reporting why it does not compile; the
    engine's surprises are warnings. ``lead``: characters stripped before ``text``."""
    # imported here: the expression engines load only for a workspace with conditions
    from flowctx_core.expressions import ExpressionError, compile_expression

    try:
        compiled = compile_expression(text, dialect)
    except ExpressionError as exc:
        start = exc.error.start
        where = f" (at character {start + lead + 1})" if start is not None else ""
        message = f"{refused}: {exc.error.message}{where}{consequence}"
        if exc.kind == "security":
            # the published engine would run it: a security error, not a typo to fix later
            message = f"security: {exc.error.message}{where}; flowctx never evaluates it"
        diag = doc.diag(path, message, key=False)
        out.append(replace(diag, code="security") if exc.kind == "security" else diag)
        for warning in exc.warnings:
            out.append(doc.diag(path, warning, key=False, severity="warning"))
        return None
    assigns = None
    if dialect == "mj" and compiled.warnings:
        from flowctx_core.expressions.mj import assignment_fix

        assigns = assignment_fix(compiled)
    for warning in compiled.warnings:
        # an assignment meant as a comparison: its warning carries the fix (=== for =)
        fix = assigns[1] if assigns is not None and warning == assigns[0] else None
        out.append(doc.diag(path, warning, key=False, severity="warning", fix=fix))
    return compiled.names


def _undeclared(
    doc: YamlDoc,
    path: PathKey,
    names: Iterable[str],
    declared: frozenset[str],
    wf: WorkflowSnapshot,
    out: list[Diagnostic],
    consequence: str = "the runtime fails with a missing context variable",
) -> None:
    for name in sorted(set(names) - declared):
        hint, fix = suggest(name, declared)
        out.append(
            doc.diag(
                path,
                f"'{name}' is not declared in {wf.contract_file}{hint}; {consequence}",
                key=False,
                fix=fix,
            )
        )


def flow_problems(flow: FlowFile) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    doc = flow.doc
    if doc is None:
        return out
    steps = flow.step_names
    valid_steps = [e for e in flow.steps if e.model is not None]
    starting = [e for e in valid_steps if e.model is not None and e.model.starting]
    if not flow.steps:
        out.append(doc.diag(("steps",), "the flow has no steps"))
    elif not starting and valid_steps:
        out.append(
            doc.diag(
                ("steps",),
                "no starting step: mark exactly one step with 'starting: true'",
            )
        )
    elif len(starting) > 1:
        names = ", ".join(f"'{e.model.name}'" for e in starting if e.model is not None)
        for entry in starting[1:]:
            out.append(
                doc.diag(
                    (*entry.path, "starting"),
                    f"more than one starting step ({names}); a flow has exactly one",
                )
            )
    for path_entry in flow.paths:
        path = path_entry.model
        if path is None:
            continue
        for field, name in (("from", path.from_), ("to", path.to)):
            if name not in steps:
                hint, fix = suggest(name, steps)
                out.append(
                    doc.diag(
                        (*path_entry.path, field),
                        f"no step named '{name}'{hint}",
                        key=False,
                        fix=fix,
                    )
                )
        if path.condition and path.condition.strip():
            where = (*path_entry.path, "condition")
            read = _parse(doc, where, path.condition, "mj", out)
            for name in sorted((read or frozenset()) - set(PATH_CONTEXT_NAMES)):
                hint, fix = suggest(name, PATH_CONTEXT_NAMES)
                out.append(
                    doc.diag(
                        where,
                        f"the condition reads '{name}', which a path condition cannot see"
                        f"{hint}; it can read {', '.join(PATH_CONTEXT_NAMES)}",
                        key=False,
                        fix=fix,
                    )
                )
    return out


def _agent_check(
    wf: WorkflowSnapshot, doc: YamlDoc, out: list[Diagnostic], agents_from: AgentsFrom = None
) -> Callable[[PathKey, str, str], None]:
    # a runtime with strict workflow files creates its agents from agents.yaml only
    agents, where = agents_from if agents_from is not None else (tuple(wf.agents), wf.contract_file)

    def check(path: PathKey, name: str, role: str) -> None:
        # without an agents section there is nothing to compare against
        if not agents or name in agents or name in PSEUDO_AGENTS:
            return
        hint, fix = suggest(name, agents)
        out.append(
            doc.diag(
                path,
                f"{role} agent '{name}' is not an agent of {where}{hint}",
                key=False,
                severity="warning",
                fix=fix,
            )
        )

    return check


def _order_notes(graph: TransitionGraphFile, runtime_order: str, doc: YamlDoc) -> list[Diagnostic]:
    """A located note on each rule the runtime tries at another place than the file puts it:
    an author reading the YAML top to bottom expects file order."""
    from flowctx_core.routing.transitions import order_note

    out: list[Diagnostic] = []
    seen: set[str] = set()
    for entry in graph.rules:
        if entry.model is None or entry.model.source in seen:
            continue
        seen.add(entry.model.source)
        for index, note in order_note(graph, entry.model.source, runtime_order).items():
            rule = graph.rules[index]
            out.append(
                doc.diag(rule.path, note, key=False, severity="warning", code="routing.order")
            )
    return out


def transition_problems(
    graph: TransitionGraphFile, wf: WorkflowSnapshot, agents_from: AgentsFrom = None
) -> list[Diagnostic]:
    from flowctx_core.routing.transitions import DIALECT as TRANSITION_DIALECT

    out: list[Diagnostic] = []
    doc = graph.doc
    if doc is None:
        return out
    declared = declared_names(wf)
    agent = _agent_check(wf, doc, out, agents_from)
    real = graph.shape == TRANSITION_RULES_KEY
    out += _order_notes(graph, wf.runtime.routing.order, doc)
    for entry in graph.rules:
        rule = entry.model
        if rule is None:
            continue
        agent((*entry.path, rule.key("source")), rule.source, "source")
        target = rule.target
        tpath = (*entry.path, rule.key("target"))
        if isinstance(entry.raw, dict) and isinstance(entry.raw.get("target"), dict):
            tpath = (*tpath, "agent")
        if target.agent and target.type in ("AgentTarget", "AgentNameTarget"):
            agent(tpath, target.agent, "target")
        for i, name in enumerate(target.agents or ()):
            agent((*entry.path, "target", "agents", i), name, "target")
        if rule.transition_type != "condition":
            continue
        if rule.condition_type == "context_expression" and rule.condition:
            where = (*entry.path, rule.key("condition"))
            names = _parse(
                doc,
                where,
                rule.condition,
                TRANSITION_DIALECT,
                out,
                refused="the Mozaiks runtime cannot compile this rule",
            )
            if names is not None:
                _undeclared(
                    doc,
                    where,
                    names,
                    declared,
                    wf,
                    out,
                    "the runtime refuses routing that reads undeclared context"
                    if real
                    else "the Mozaiks evaluator reads it as None",
                )
        elif rule.condition_type == "context_equals" and rule.condition_key:
            where = (*entry.path, "condition_key")
            _undeclared(
                doc,
                where,
                [rule.condition_key],
                declared,
                wf,
                out,
                # validate_transition_context_authority: 'unknown routing context variable'
                "the runtime refuses to start the workflow (unknown routing context variable)"
                if real and wf.runtime.routing.condition_key_declared
                else "the runtime reads it as None"
                if real
                else "the runtime fails with a missing context variable",
            )
    return out


def handoff_rule_problems(handoffs: HandoffsFile, wf: WorkflowSnapshot) -> list[Diagnostic]:
    from flowctx_core.routing.handoffs import DIALECT as HANDOFF_DIALECT
    from flowctx_core.routing.handoffs import (
        overridden_after_works,
        rewrite_warnings,
        runtime_condition,
    )

    out: list[Diagnostic] = []
    doc = handoffs.doc
    if doc is None:
        return out
    declared = declared_names(wf)
    agent = _agent_check(wf, doc, out)
    for entry in handoffs.rules:
        rule = entry.model
        if rule is None:
            continue
        agent((*entry.path, "source_agent"), rule.source_agent, "source")
        agent((*entry.path, "target_agent"), rule.target_label, "target")
        if rule.handoff_type == "condition" and rule.condition and rule.is_expression:
            where = (*entry.path, "condition")
            text = runtime_condition(rule.condition)
            lead = len(rule.condition) - len(rule.condition.lstrip())
            names = _parse(
                doc,
                where,
                text,
                HANDOFF_DIALECT,
                out,
                refused="AG2 ContextExpression refuses this condition",
                consequence="; HandoffManager logs 'Context condition build failed' and the "
                "workflow runs without this handoff",
                lead=lead,
            )
            for warning in rewrite_warnings(rule.condition):
                out.append(doc.diag(where, warning, key=False, severity="warning"))
            if names is not None:
                _undeclared(doc, where, names, declared, wf, out)
    by_source: dict[str, list[Entry[HandoffRule]]] = {}
    for entry in handoffs.rules:
        if entry.model is not None:
            by_source.setdefault(entry.model.source_agent, []).append(entry)
    for source, entries in by_source.items():
        replaced = overridden_after_works(entries)
        if not replaced:
            continue
        last = next(
            e for e in reversed(entries) if e.model and e.model.handoff_type == "after_work"
        )
        line = doc.where((*last.path, "handoff_type"))[0]
        for entry in entries:
            if entry.index in replaced:
                out.append(
                    doc.diag(
                        (*entry.path, "handoff_type"),
                        f"'{source}' has a later after_work rule (line "
                        f"{line}); the runtime keeps only the last, so this one never applies",
                        key=False,
                        severity="warning",
                    )
                )
    return out


def routes_problems(
    routes: Routes, wf: WorkflowSnapshot, agents_from: AgentsFrom = None
) -> list[Diagnostic]:
    """Every routing problem of one workflow: load problems, then the checks above.
    ``agents_from``: the agents the runtime creates and the file it takes them from, when
    that is not the contract's ``agents:`` section (mozaiks 0.2.0: agents.yaml)."""
    out = list(routes.diagnostics)
    if routes.flow is not None:
        out += flow_problems(routes.flow)
    if routes.transitions is not None:
        out += transition_problems(routes.transitions, wf, agents_from)
    if routes.handoffs is not None:
        out += handoff_rule_problems(routes.handoffs, wf)
    return out
