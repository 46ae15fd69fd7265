"""``flowctx check``: every problem in a workspace, each located as file:line:col.

Checks are small functions, one per concern, listed in ``WORKFLOW_CHECKS`` (run per workflow)
and ``WORKSPACE_CHECKS`` (run once); other modules contribute theirs here.
"""

from __future__ import annotations

from collections.abc import Callable

from core.diagnostics import Diagnostic, sort_key
from core.pathsafety import confine
from core.routing.checks import routing_problems
from core.session import Session
from core.workspace import WorkflowSnapshot

WorkflowCheck = Callable[[Session, WorkflowSnapshot], list[Diagnostic]]
WorkspaceCheck = Callable[[Session], list[Diagnostic]]


def contract_problems(session: Session, wf: WorkflowSnapshot) -> list[Diagnostic]:
    return list(wf.diagnostics)


def file_source_problems(session: Session, wf: WorkflowSnapshot) -> list[Diagnostic]:
    """Static problems of file sources: refused paths and missing required files."""
    out: list[Diagnostic] = []
    allow = session.inputs().allow_outside_root
    for spec in wf.variables:
        d = spec.definition
        if d is None or d.source.type != "file" or wf.doc is None:
            continue
        path = ("definitions", spec.name, "source", "path")
        real, refusal = confine(wf.root, d.source.path, allow_outside=allow)
        if refusal:
            # with a default the runtime carries on, but the author almost surely erred
            sev = "error" if d.source.required or d.source.default is None else "warning"
            out.append(wf.doc.diag(path, refusal, key=False, severity=sev))
        elif real is not None and not real.exists():
            sev = "error" if d.source.required else "warning"
            msg = f"file {d.source.path!r} not found" + (
                "" if d.source.required else "; the default will be used"
            )
            out.append(wf.doc.diag(path, msg, key=False, severity=sev))
    return out


def exposure_problems(session: Session, wf: WorkflowSnapshot) -> list[Diagnostic]:
    """Warnings: variables no agent exposes, agents that expose nothing."""
    out: list[Diagnostic] = []
    if wf.doc is None:
        return out
    exposed = {n for names in wf.agents.values() for n in names}
    for spec in wf.variables:
        if spec.name not in exposed:
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
    return out


def workspace_problems(session: Session) -> list[Diagnostic]:
    return [*session.profile.diagnostics, *session.database_problems]


WORKFLOW_CHECKS: list[WorkflowCheck] = [
    contract_problems,
    file_source_problems,
    exposure_problems,
    routing_problems,
]
WORKSPACE_CHECKS: list[WorkspaceCheck] = [workspace_problems]


def check_workspace(session: Session, workflows: list[str] | None = None) -> list[Diagnostic]:
    problems: list[Diagnostic] = []
    for check in WORKSPACE_CHECKS:
        problems.extend(check(session))
    for name in workflows if workflows is not None else session.workflows():
        wf = session.load(name)
        for wcheck in WORKFLOW_CHECKS:
            problems.extend(wcheck(session, wf))
    unique = sorted(set(problems), key=sort_key)
    return unique
