"""The authority stages of a runtime's start-up, located in the workspace's files.

``build_policy`` (flowctx_core.runtime.policy) reproduces what mozaiks 0.2.0 decides; this module
says where: the variable whose declaration breaks the policy, the transition rules the graph
compiler refuses, the triggers that never write, and the refusal each stage gives the matrix.
Only profiles whose runtime builds the policy (``strict_workflow_files``) get one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.yamlmarks import PathKey
from flowctx_core.model.matrix import Refusal
from flowctx_core.model.workspace import WorkflowSnapshot
from flowctx_core.routing.model import Routes
from flowctx_core.routing.model.common import TRANSITION_RULES_KEY
from flowctx_core.runtime.policy import AuthorityPolicy, build_policy, clean_key

if TYPE_CHECKING:
    from flowctx_core.snapshot import WorkspaceSnapshot


def runtime_rules(routes: Routes | None) -> tuple[list[Any], list[PathKey]]:
    """The ``transition_rules`` the runtime reads (raw, as written) and each one's YAML path.

    mozaiks 0.2.0 reads ``transition_graph.transition_rules`` only: the ``transitions:`` shape
    gives it no rules.
    """
    graph = routes.transitions if routes is not None else None
    if graph is None or graph.shape != TRANSITION_RULES_KEY:
        return [], []
    return [e.raw for e in graph.rules], [e.path for e in graph.rules]


def workflow_policy(wf: WorkflowSnapshot, routes: Routes | None) -> AuthorityPolicy | None:
    if not wf.runtime.strict_workflow_files:
        return None
    rules, _ = runtime_rules(routes)
    return build_policy(wf, rules)


def snapshot_policy(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> AuthorityPolicy | None:
    return workflow_policy(wf, snap.routes.get(wf.name))


def _definition_path(wf: WorkflowSnapshot, name: str) -> PathKey:
    return ("definitions", name)


def policy_refusal(wf: WorkflowSnapshot, policy: AuthorityPolicy | None) -> Refusal | None:
    """The policy's construction raises: the workflow's context never loads."""
    if policy is None or policy.error is None or wf.doc is None:
        return None
    line, col = wf.doc.where(_definition_path(wf, policy.error_key or ""), key=True)
    return Refusal(policy.error, wf.doc.file, line, col, "refused", stage="authority policy")


def empty_key_refusal(wf: WorkflowSnapshot) -> Refusal | None:
    """A declared name the policy cannot hold (a leading ``_``...): the first ``context.set``
    of it raises ``context_authority.empty_key`` (mozaiks 0.2.0,
    mozaiksai/core/workflow/context/adapter.py ``set`` -> authority.py ``require_can_write``)."""
    if not wf.runtime.strict_workflow_files or wf.doc is None:
        return None
    ordered = sorted(
        (v for v in wf.variables if v.definition is not None),
        key=lambda v: v.definition is not None and v.definition.source.type != "runtime",
    )
    for spec in ordered:
        if not clean_key(spec.name):
            line, col = wf.doc.where(_definition_path(wf, spec.name), key=True)
            reason = (
                f"context_authority.empty_key: '{spec.name}' is not a name the authority policy "
                "holds (it must start with a letter; letters, digits, '_', '.', ':' or '-')"
            )
            return Refusal(reason, wf.doc.file, line, col, "refused", stage="context load")
    return None


def compile_refusal(
    wf: WorkflowSnapshot, routes: Routes | None, policy: AuthorityPolicy | None
) -> Refusal | None:
    """``WorkflowGraphCompileError``, located at the first rule that reads a refused key."""
    if policy is None or policy.compile_error is None:
        return None
    graph = routes.transitions if routes is not None else None
    _, paths = runtime_rules(routes)
    first = min(i for f in policy.compile_failures for i in f.rules)
    if graph is None or graph.doc is None:
        return Refusal(policy.compile_error, wf.contract_file, 0, 0, "compile_fails")
    line, col = graph.doc.where(paths[first])
    return Refusal(policy.compile_error, graph.doc.file, line, col, "compile_fails")


def _condition_path(raw: Any, path: PathKey) -> PathKey:
    if isinstance(raw, dict) and raw.get("condition_type") == "context_expression":
        return (*path, "context_expression")
    return (*path, "condition_key")


def authority_problems(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> list[Diagnostic]:
    """The policy's error at its variable, each compile refusal at each rule that reads the
    key, and each agent_text trigger that can never write its variable."""
    routes = snap.routes.get(wf.name)
    policy = workflow_policy(wf, routes)
    out: list[Diagnostic] = []
    if policy is None or wf.doc is None:
        return out
    tag = f"[runtime {wf.runtime.name}]"
    if policy.error is not None:
        out.append(
            wf.doc.diag(
                _definition_path(wf, policy.error_key or ""),
                f"{policy.error}: building the context authority policy raises, so the "
                f"workflow's context does not load {tag}",
                key=True,
                code="authority.policy",
            )
        )
    graph = routes.transitions if routes is not None else None
    rules, paths = runtime_rules(routes)
    if graph is not None and graph.doc is not None:
        for failure in policy.compile_failures:
            for i in failure.rules:
                out.append(
                    graph.doc.diag(
                        _condition_path(rules[i], paths[i]),
                        f"{failure.message}: WorkflowGraphCompileError, the graph does not "
                        f"compile and the run never starts; fix: {failure.fix} {tag}",
                        key=False,
                        code="authority.compile",
                    )
                )
    for silent in policy.silent_triggers:
        out.append(
            wf.doc.diag(
                ("definitions", silent.key, "source", "triggers", silent.trigger),
                f"this agent_text trigger never writes '{silent.key}': it writes as "
                f"{silent.writer} and the authority policy refuses it ({silent.why}); the "
                f"runtime drops the write without an error {tag}",
                key=False,
                severity="warning",
                code="authority.silent-trigger",
            )
        )
    return out
