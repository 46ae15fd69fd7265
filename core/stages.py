"""The authority stages of a runtime's start-up, located in the workspace's files.

``build_policy`` (flowctx_core.runtime.policy) reproduces what mozaiks 0.2.0 decides; this module
says where: the variable whose declaration breaks the policy, the transition rules the graph
compiler refuses, the triggers that never write, and the refusal each stage gives the matrix.
Only profiles whose runtime builds the policy (``strict_workflow_files``) get one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.yamlmarks import PathKey
from flowctx_core.model.matrix import Refusal
from flowctx_core.model.workspace import VariableSpec, WorkflowSnapshot
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


def workflow_policy(
    wf: WorkflowSnapshot, routes: Routes | None, task_keys: frozenset[str] = frozenset()
) -> AuthorityPolicy | None:
    if not wf.runtime.strict_workflow_files:
        return None
    # built once per (snapshot, routes, task keys): the routes object is kept with it, so an
    # id is never taken for another's
    key = (id(routes), task_keys)
    known = wf.policy_memo.get(key)
    if known is not None and known[0] is routes:
        return known[1]
    rules, _ = runtime_rules(routes)
    policy = build_policy(wf, rules, task_keys)
    wf.policy_memo[key] = (routes, policy)
    return policy


def snapshot_policy(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> AuthorityPolicy | None:
    files = snap.workflow_files.get(wf.name)
    task_keys = files.task_batch_keys if files is not None else frozenset()
    return workflow_policy(wf, snap.routes.get(wf.name), task_keys)


def discovery_refusal(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> Refusal | None:
    """A folder beside discovered workflows that the runtime's discovery passes over (mozaiks
    0.2.0, mozaiksai/core/workflow/paths.py ``discover_workflow_paths``). A workspace of bare
    contracts (no folder has orchestrator.yaml) is read for its contracts alone."""
    from flowctx_core.runtime.checks import discovery_problems

    if not wf.runtime.strict_workflow_files or not discovery_problems(snap, wf):
        return None
    reason = (
        f"the runtime does not discover '{wf.name}' as a workflow: its folder has no "
        "orchestrator.yaml, so it never loads"
    )
    return Refusal(reason, wf.contract_file, 0, 0, "refused", stage="discovery")


def manager_refusal(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> Refusal | None:
    """orchestrator.yaml or agents.yaml refused by the workflow manager's strict models."""
    files = snap.workflow_files.get(wf.name)
    if files is None or not files.orchestrator:
        return None
    errors = [d for d in files.problems if d.severity == "error"]
    if not errors:
        return None
    first = errors[0]
    name = first.file.rsplit("/", 1)[-1]
    more = f" (and {len(errors) - 1} more error(s))" if len(errors) > 1 else ""
    where = f"{first.yaml_path}: " if first.yaml_path else ""
    reason = f"Invalid {name} configuration: {where}{first.message}{more}"
    return Refusal(
        reason, first.file, first.line, first.column, "refused", stage="workflow_manager"
    )


def contract_refusal(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> Refusal | None:
    """A transition rule reading an undeclared variable: mozaiks 0.2.0,
    mozaiksai/core/workflow/contract_validation.py ``validate_workflow_context_contract``
    refuses the workflow at load, with every such reference in one message."""
    if not wf.runtime.strict_workflow_files:
        return None
    routes = snap.routes.get(wf.name)
    graph = routes.transitions if routes is not None else None
    rules, paths = runtime_rules(routes)
    missing: list[tuple[str, PathKey]] = []
    for raw, path in zip(rules, paths, strict=True):
        if not isinstance(raw, dict):
            continue
        ctype = str(raw.get("condition_type") or "").strip()
        source = str(raw.get("source_agent") or "").strip() or "unknown"
        target = str(raw.get("target_agent") or "").strip() or "unknown"
        if ctype == "context_equals":
            names = [str(raw.get("condition_key") or "").strip()]
        elif ctype == "context_expression":
            text = str(raw.get("context_expression") or "")
            names = sorted({m.strip() for m in re.findall(r"\$\{([^}]+)\}", text) if m.strip()})
        else:
            continue
        for name in names:
            if name and wf.variable(name) is None:
                missing.append(
                    (
                        f"transition_graph {source}->{target} references undeclared context "
                        f"variable {name!r}",
                        _condition_path(raw, path),
                    )
                )
    if not missing or graph is None or graph.doc is None:
        return None
    line, col = graph.doc.where(missing[0][1])
    reason = f"{wf.name} context_variables.yaml contract mismatch: " + "; ".join(
        m for m, _ in missing
    )
    return Refusal(reason, graph.doc.file, line, col, "refused", stage="workflow_manager")


def agents_refusal(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> Refusal | None:
    """No agents.yaml (or an empty list): mozaiks 0.2.0,
    mozaiksai/core/workflow/orchestration_patterns.py raises after create_agents."""
    files = snap.workflow_files.get(wf.name)
    if files is None or not files.orchestrator or files.agents or not files.agents_valid:
        return None
    reason = f"No agents defined for workflow '{wf.name}'" + (
        " (its agents.yaml lists none)"
        if files.agents_file
        else " (there is no agents.yaml; the contract's agents: section only assigns variables)"
    )
    where = files.display if files.agents_file else wf.contract_file
    return Refusal(
        reason,
        where,
        1 if files.agents_file else 0,
        1 if files.agents_file else 0,
        "refused",
        stage="agents",
    )


def workflow_file_problems(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> list[Diagnostic]:
    """orchestrator.yaml and agents.yaml errors, and the missing agents, located."""
    files = snap.workflow_files.get(wf.name)
    if files is None or not files.orchestrator:
        return []
    out = list(files.problems)
    routes = snap.routes.get(wf.name)
    if (
        routes is not None
        and routes.handoffs is not None
        and "handoffs.yaml" in (wf.runtime.unread_files)
    ):
        # mozaiks 0.2.0, workflow_manager.py _load_modular_workflow_config opens no such file
        out.append(
            Diagnostic(
                routes.handoffs.file,
                0,
                0,
                f"handoffs.yaml is never read by runtime {wf.runtime.name}: none of its rules "
                "route; route with transition_graph.yaml's transition_rules (runtime "
                "mozaiks-2026-01 read it)",
                severity="warning",
                code="workflow-files",
            )
        )
    refusal = agents_refusal(snap, wf)
    if refusal is not None:
        out.append(
            Diagnostic(
                refusal.file,
                refusal.line,
                refusal.column,
                f"{refusal.reason}: the run fails before any agent speaks "
                f"[runtime {wf.runtime.name}]",
                code="workflow-files",
            )
        )
    return out


def _definition_path(wf: WorkflowSnapshot, name: str) -> PathKey:
    return ("definitions", name)


def policy_refusal(wf: WorkflowSnapshot, policy: AuthorityPolicy | None) -> Refusal | None:
    """The policy's construction raises: the workflow's context never loads."""
    if policy is None or policy.error is None or wf.doc is None:
        return None
    line, col = wf.doc.where(_definition_path(wf, policy.error_key or ""), key=True)
    return Refusal(policy.error, wf.doc.file, line, col, "refused", stage="authority")


def _has_clean_key(spec: VariableSpec) -> bool:
    return bool(clean_key(spec.name))


def empty_key_refusal(wf: WorkflowSnapshot) -> Refusal | None:
    """A declared name the policy cannot hold (a leading ``_``...): the first ``context.set``
    of it raises ``context_authority.empty_key`` (mozaiks 0.2.0,
    mozaiksai/core/workflow/context/adapter.py ``set`` -> authority.py ``require_can_write``)."""
    if not wf.runtime.strict_workflow_files or wf.doc is None:
        return None
    # the usual case: no order to find (each name's key kept per declaration)
    if all(wf.per_item("clean key", wf.variables, None, _has_clean_key)):
        return None
    ordered = sorted(
        (v for v in wf.variables if v.definition is not None),
        key=lambda v: v.definition is not None and v.definition.source.type != "runtime",
    )
    for spec in ordered:
        if not clean_key(spec.name):
            line, col = wf.doc.where(_definition_path(wf, spec.name), key=True)
            reason = (
                f"context_authority.empty_key: {spec.name!r} is not a name the authority policy "
                "holds (it must start with a letter; letters, digits, '_', '.', ':' or '-')"
            )
            return Refusal(reason, wf.doc.file, line, col, "refused", stage="context")
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
    policy = snapshot_policy(snap, wf)
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
                f"this trigger never writes '{silent.key}': it writes as "
                f"{silent.writer} and the authority policy refuses it ({silent.why}); the "
                f"runtime drops the write without an error {tag}",
                key=False,
                severity="warning",
                code="authority.silent-trigger",
            )
        )
    return out
