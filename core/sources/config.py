"""``config``: an environment variable, else ``default``; ``required`` fails when still missing."""

from __future__ import annotations

from core.coercion import coerce
from core.results import TraceStep
from core.secrets import is_secret_key
from core.sources.base import Resolved, SourceContext


def resolve(ctx: SourceContext) -> Resolved:
    src = ctx.source
    trace: list[TraceStep] = []
    warnings: list[str] = []
    secret = is_secret_key(ctx.name) or is_secret_key(src.env_var)
    if src.env_var:
        if src.env_var in ctx.inputs.env:
            value, warn = coerce(ctx.inputs.env[src.env_var], ctx.type_name, conceal=secret)
            # which input set it: the process, flowctx.yaml or an override (app, --env)
            origin = f"env {src.env_var}{ctx.inputs.env_origin(src.env_var)}"
            trace.append(TraceStep("env", "used", origin))
            if "default" in src.model_fields_set:
                trace.append(TraceStep("default", "shadowed", "default shadowed by the env var"))
            if warn:
                warnings.append(warn)
            return Resolved(value, "resolved", origin, trace, warnings)
        trace.append(TraceStep("env", "missing", f"env {src.env_var} is not set"))
    else:
        trace.append(TraceStep("env", "skipped", "no env_var declared"))
    if src.default is not None:
        value, warn = coerce(src.default, ctx.type_name, conceal=secret)
        trace.append(TraceStep("default", "used", "source.default"))
        if warn:
            warnings.append(warn)
        return Resolved(value, "default", "default", trace, warnings)
    if src.required:
        what = f" (env {src.env_var})" if src.env_var else ""
        msg = f"Required config variable '{ctx.name}' is not set{what}"
        trace.append(TraceStep("required", "error", msg))
        return Resolved(None, "error", "required, missing", trace, warnings, error=msg)
    trace.append(TraceStep("default", "missing", "no default; the value is None"))
    return Resolved(None, "default", "default (None)", trace, warnings)
