"""flowctx's shared resolution core: pure Python, no UI imports, no global state.

The environment, launch values and database are explicit inputs, so every caller (the CLI,
the Textual app, tests, a CI script or a notebook) can override them without touching the
process. The names below are the public API (``docs/api.md``); everything else is private
and may change between releases::

    import flowctx_core as fc

    session = fc.open_session("path/to/workspace")            # or workflows/, or one workflow
    matrix = session.matrix("AppGenerator")                   # every variable, resolved
    problems = fc.check_workspace(session)                    # flowctx check's list
    decisions = session.decide("AppGenerator", "PlannerAgent", context_overrides={"x": 1})
    result = fc.evaluate("payload.total > 10", {"payload": {"total": 12}}, "mj")

Each name is imported on first use, so ``import flowctx_core`` stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flowctx_core.base.lazyexports import lazy_getattr

if TYPE_CHECKING:
    from flowctx_core.base.diagnostics import Diagnostic
    from flowctx_core.check import CheckReport, check_workspace, count_problems, workspace_report
    from flowctx_core.expressions import EvalResult, evaluate
    from flowctx_core.model.matrix import Matrix, Row
    from flowctx_core.model.profile_names import UnknownRuntime
    from flowctx_core.model.workspace_root import WorkspaceNotFound
    from flowctx_core.routing.decision import RouteDecision
    from flowctx_core.session import Session, open_session

_EXPORTS = {
    "open_session": "flowctx_core.session",
    "Session": "flowctx_core.session",
    "check_workspace": "flowctx_core.check",
    "workspace_report": "flowctx_core.check",
    "count_problems": "flowctx_core.check",
    "CheckReport": "flowctx_core.check",
    "evaluate": "flowctx_core.expressions",
    "EvalResult": "flowctx_core.expressions",
    "Matrix": "flowctx_core.model.matrix",
    "Row": "flowctx_core.model.matrix",
    "Diagnostic": "flowctx_core.base.diagnostics",
    "RouteDecision": "flowctx_core.routing.decision",
    "WorkspaceNotFound": "flowctx_core.model.workspace_root",
    "UnknownRuntime": "flowctx_core.model.profile_names",
}

__all__ = [
    "CheckReport",
    "Diagnostic",
    "EvalResult",
    "Matrix",
    "RouteDecision",
    "Row",
    "Session",
    "UnknownRuntime",
    "WorkspaceNotFound",
    "__version__",
    "check_workspace",
    "count_problems",
    "evaluate",
    "open_session",
    "workspace_report",
]

_exported = lazy_getattr(__name__, _EXPORTS)


def __getattr__(name: str) -> Any:
    if name == "__version__":
        # the installed distribution's version: pyproject.toml is the one place it is written
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("flowctx")
        except PackageNotFoundError:  # a source tree that was never installed
            return "0+unknown"
    return _exported(name)
