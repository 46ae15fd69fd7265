"""``flowctx check``: every problem in a workspace, each located as file:line:col.

Checks are small functions, one per concern, listed in ``WORKFLOW_CHECKS`` (run per workflow)
and ``WORKSPACE_CHECKS`` (run once); other modules contribute theirs here.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from core.buildctx import build_context_setting, discover, registry_problems
from core.diagnostics import Diagnostic, sort_key
from core.exposure import withheld_reason
from core.pathsafety import confine, present
from core.routing.checks import routing_problems
from core.runtime_checks import config_default_problems, data_source_problems, discovery_problems
from core.session import Session
from core.workspace import WorkflowSnapshot, display_path

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
        elif real is not None and not present(real):
            sev = "error" if d.source.required else "warning"
            msg = f"file {d.source.path!r} not found" + (
                "" if d.source.required else "; the default will be used"
            )
            out.append(wf.doc.diag(path, msg, key=False, severity=sev))
        elif real is not None and _special(real):
            # a directory, FIFO or device: the resolver never reads it (a FIFO would block)
            sev = "error" if d.source.required else "warning"
            msg = f"{d.source.path!r} is not a regular file (a directory, device or FIFO)"
            out.append(wf.doc.diag(path, msg, key=False, severity=sev))
    return out


def _special(path: Path) -> bool:
    """A directory, FIFO or device (False when it cannot be told: the resolver says why)."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def exposure_problems(session: Session, wf: WorkflowSnapshot) -> list[Diagnostic]:
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
            spec = wf.variable(name)
            why = withheld_reason(spec) if spec is not None else None
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


def workspace_problems(session: Session) -> list[Diagnostic]:
    return [*session.profile.diagnostics, *session.database_problems]


def folder_problems(session: Session) -> list[Diagnostic]:
    """Folders that cannot be listed: the workspace loader treats them as empty (no
    workflows, no contract), which without this would pass as a clean workspace."""
    out: list[Diagnostic] = []
    folders = [session.root / "workflows"]
    folders += [folders[0] / name for name in session.workflows()]
    for folder in folders:
        try:
            if folder.is_dir():
                os.listdir(folder)
        except OSError as exc:
            why = exc.strerror or exc.__class__.__name__
            shown = display_path(folder, session.root)
            out.append(Diagnostic(shown, 0, 0, f"cannot list this folder: {why}"))
    return out


def build_context_problems(session: Session) -> list[Diagnostic]:
    """Every registry under ``<workspace>/build_context/`` and under the configured root."""
    setting = build_context_setting(session.effective_env(), session.root)
    roots = [session.root / "build_context"]
    if setting.root is not None and setting.root.resolve() != roots[0].resolve():
        roots.append(setting.root)
    out: list[Diagnostic] = []
    if setting.enabled and setting.root is not None and not setting.root.is_dir():
        out.append(
            Diagnostic(
                display_path(setting.root, session.root),
                0,
                0,
                f"build-context registry root does not exist ({setting.root_reason})",
                severity="warning",
            )
        )
    registries = [(root, reg) for root in roots for reg in discover(root, session.root)]
    if not registries:
        return out
    workflows = {name: session.load(name) for name in session.workflows()}
    for root, reg in registries:
        out.extend(registry_problems(reg, root, workflows))
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
