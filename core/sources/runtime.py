"""``runtime``: a value the host supplies in the launch's runtime context.

mozaiks 0.2.0, mozaiksai/core/workflow/context/variables.py ``_load_context_async``: before any
other source, each ``type: runtime`` definition takes ``runtime_context.get(name)``; when that is
None and the source is ``required``, the load raises ``Required runtime context '<name>' is
missing for '<workflow>'`` and no variable of the workflow loads. flowctx's runtime context is
what the user supplies (``--runtime-context``, ``runtime_context:`` in flowctx.yaml or a
scenario), passed with the launch values under ``$runtime_context``.
"""

from __future__ import annotations

from flowctx_core.model.matrix import TraceStep
from flowctx_core.runtime.launch import RUNTIME_CONTEXT_KEY
from flowctx_core.sources.base import Resolved, SourceContext


def missing_message(name: str, workflow: str) -> str:
    """The runtime's own message (mozaiks 0.2.0, mozaiksai/core/workflow/context/variables.py)."""
    return f"Required runtime context '{name}' is missing for '{workflow}'"


def resolve(ctx: SourceContext) -> Resolved:
    supplied = ctx.runtime_context or {}
    value = supplied.get(ctx.name)
    where = ctx.inputs.launch_origin(f"{RUNTIME_CONTEXT_KEY}.{ctx.name}")
    if value is not None:
        trace = [TraceStep("runtime context", "used", f"runtime context '{ctx.name}'{where}")]
        return Resolved(value, "resolved", f"runtime context{where}", trace)
    if ctx.source.required:
        why = missing_message(ctx.name, ctx.workflow.name)
        trace = [TraceStep("runtime context", "error", why)]
        return Resolved(None, "error", "runtime context (missing)", trace, error=why)
    trace = [
        TraceStep(
            "runtime context",
            "missing",
            f"no runtime context supplies '{ctx.name}': the runtime sets None (give it with "
            "--runtime-context or runtime_context: in flowctx.yaml)",
        )
    ]
    return Resolved(None, "pending", "runtime context (not supplied)", trace)
