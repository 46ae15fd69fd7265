"""``flowctx check``: every problem in a workspace, each located as file:line:col.

``check(snapshot, inputs)`` is pure over a workspace snapshot. Checks are small functions, one
per concern, listed in ``WORKFLOW_CHECKS`` (run per workflow) and ``WORKSPACE_CHECKS`` (run
once); other modules contribute theirs here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from core.buildctx import registry_problems
from core.diagnostics import Diagnostic, sort_key
from core.exposure import withheld_reason
from core.inputs import ResolveInputs
from core.routing.checks import routes_problems
from core.runtime_checks import config_default_problems, data_source_problems, discovery_problems
from core.session import Session
from core.snapshot import WorkspaceSnapshot
from core.sources.file import file_key
from core.workspace import WorkflowSnapshot, display_path

WorkflowCheck = Callable[[WorkspaceSnapshot, WorkflowSnapshot], list[Diagnostic]]
WorkspaceCheck = Callable[[WorkspaceSnapshot, ResolveInputs], list[Diagnostic]]


def contract_problems(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> list[Diagnostic]:
    return list(wf.diagnostics)


def file_source_problems(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> list[Diagnostic]:
    """Static problems of file sources: refused paths and missing required files."""
    out: list[Diagnostic] = []
    for spec in wf.variables:
        d = spec.definition
        if d is None or d.source.type != "file" or wf.doc is None:
            continue
        path = ("definitions", spec.name, "source", "path")
        content = snap.files[file_key(d.source.path, d.source.format, d.source.encoding)]
        refusal = content.refusal
        if refusal:
            # with a default the runtime carries on, but the author almost surely erred
            sev = "error" if d.source.required or d.source.default is None else "warning"
            out.append(wf.doc.diag(path, refusal, key=False, severity=sev))
        elif content.missing:
            sev = "error" if d.source.required else "warning"
            msg = f"file {d.source.path!r} not found" + (
                "" if d.source.required else "; the default will be used"
            )
            out.append(wf.doc.diag(path, msg, key=False, severity=sev))
        elif content.special:
            # a directory, FIFO or device: the resolver never reads it (a FIFO would block)
            sev = "error" if d.source.required else "warning"
            msg = f"{d.source.path!r} is not a regular file (a directory, device or FIFO)"
            out.append(wf.doc.diag(path, msg, key=False, severity=sev))
    return out


def exposure_problems(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> list[Diagnostic]:
    """Warnings: variables no agent exposes, agents that expose nothing, and exposures the
    runtime never renders (build-context and ``model_visible: false`` variables)."""
    out: list[Diagnostic] = []
    if wf.doc is None:
        return out
    exposed = {n for names in wf.agents.values() for n in names}
    for spec in wf.variables:
        # tool-only variables are meant to stay out of prompts: not exposing them is right
        if spec.name not in exposed and withheld_reason(spec) is None:
            out.append(
                wf.doc.diag(
                    ("definitions", spec.name),
                    f"variable '{spec.name}' is not exposed to any agent",
                    severity="warning",
                )
            )
    for agent, names in wf.agents.items():
        if not names:
            out.append(
                wf.doc.diag(
                    ("agents", agent), f"agent '{agent}' exposes no variables", severity="warning"
                )
            )
        for i, name in enumerate(names):
            listed = wf.variable(name)
            why = withheld_reason(listed) if listed is not None else None
            if why is not None:
                out.append(
                    wf.doc.diag(
                        ("agents", agent, "variables", i),
                        f"agent '{agent}' lists '{name}', which the runtime never puts in its "
                        f"prompt ({why})",
                        key=False,
                        severity="warning",
                    )
                )
    return out


def routing_problems(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> list[Diagnostic]:
    return routes_problems(snap.routes[wf.name], wf)


def workspace_problems(snap: WorkspaceSnapshot, inputs: ResolveInputs) -> list[Diagnostic]:
    return [*snap.profile.diagnostics, *inputs.database_problems]


def folder_problems(snap: WorkspaceSnapshot, inputs: ResolveInputs) -> list[Diagnostic]:
    """Folders that cannot be listed: the workspace loader treats them as empty (no
    workflows, no contract), which without this would pass as a clean workspace."""
    return list(snap.folder_problems)


def build_context_problems(snap: WorkspaceSnapshot, inputs: ResolveInputs) -> list[Diagnostic]:
    """Every registry under ``<workspace>/build_context/`` and under the configured root."""
    setting = snap.build_context
    out: list[Diagnostic] = []
    configured = snap.registry_roots[-1]
    if setting.enabled and setting.root is not None and not configured.is_dir:
        out.append(
            Diagnostic(
                display_path(setting.root, snap.root),
                0,
                0,
                f"build-context registry root does not exist ({setting.root_reason})",
                severity="warning",
            )
        )
    registries = [
        reg
        for found in snap.registry_roots
        if not found.same_as_workspace
        for reg in found.registries
    ]
    if not registries:
        return out
    for reg in registries:
        out.extend(registry_problems(reg, snap.workflows))
    return out


WORKFLOW_CHECKS: list[WorkflowCheck] = [
    contract_problems,
    file_source_problems,
    exposure_problems,
    routing_problems,
    config_default_problems,
    data_source_problems,
    discovery_problems,
]
WORKSPACE_CHECKS: list[WorkspaceCheck] = [
    workspace_problems,
    folder_problems,
    build_context_problems,
]


def check(
    snap: WorkspaceSnapshot, inputs: ResolveInputs, workflows: Iterable[str] | None = None
) -> list[Diagnostic]:
    """Every problem of the snapshot (the named workflows' own, and the workspace's)."""
    problems: list[Diagnostic] = []
    for check in WORKSPACE_CHECKS:
        problems.extend(check(snap, inputs))
    for name in workflows if workflows is not None else snap.names:
        wf = snap.workflow(name)
        for wcheck in WORKFLOW_CHECKS:
            problems.extend(wcheck(snap, wf))
    unique = sorted(set(problems), key=sort_key)
    return unique


def check_workspace(session: Session, workflows: list[str] | None = None) -> list[Diagnostic]:
    """``check`` of the workspace as the session reads it now."""
    return check(session.snapshot(), session.inputs(), workflows)
