"""``config``: an environment variable; what happens when it is unset depends on the runtime.

The shipped loader reads ``os.getenv(env_var) if env_var else default`` (every public version
of ``variables.py``): a declared but unset env var gives None and the default is never used,
and ``required: true`` fails the load even when a default is given. The documentation
promises a fall back to the default. The profile's ``sources.config`` says which one runs;
where the two disagree on a row, the row says what the documentation promises.
"""

from __future__ import annotations

from typing import Any

from flowctx_core.base.coercion import coerce
from flowctx_core.base.secrets import is_secret_key
from flowctx_core.model.inputs import PROCESS_ORIGIN
from flowctx_core.model.matrix import TraceStep
from flowctx_core.sources.base import Resolved, SourceContext


def documented_note(name: str, src: Any) -> str | None:
    """What the documentation promises for an unset, declared env var with a default, when the
    shipped code does otherwise (None when they agree)."""
    if not src.env_var or src.default is None:
        return None
    # the default written for a secret is a secret too: the message quotes it masked
    secret = is_secret_key(name) or is_secret_key(src.env_var)
    shown = "'***'" if secret else _yaml_scalar(src.default)
    if src.required:
        return (
            f"required with default {shown}: the load fails when {src.env_var} is unset, the "
            "runtime reads only the environment (documented: falls back to the default)"
        )
    return (
        f"default {shown} ignored: env_var {src.env_var} is declared, and the runtime reads "
        "only the environment (documented: falls back to the default)"
    )


def _yaml_scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    text = str(value)
    return text if len(text) <= 40 else text[:39] + "…"


def resolve(ctx: SourceContext) -> Resolved:
    src = ctx.source
    rules = ctx.inputs.runtime.sources
    trace: list[TraceStep] = []
    warnings: list[str] = []
    secret = is_secret_key(ctx.name) or is_secret_key(src.env_var)
    if src.env_var:
        if src.env_var in ctx.inputs.env:
            # a value of the process's own environment is never quoted: a contract chooses
            # which variables it reads, and CI_JOB_JWT looks like nothing
            machine = ctx.inputs.env_origins.get(src.env_var) == PROCESS_ORIGIN
            value, warn = coerce(
                ctx.inputs.env[src.env_var], ctx.type_name, conceal=secret or machine
            )
            # which input set it: the process, flowctx.yaml or an override (app, --env)
            origin = f"env {src.env_var}{ctx.inputs.env_origin(src.env_var)}"
            trace.append(TraceStep("env", "used", origin))
            if "default" in src.model_fields_set:
                trace.append(TraceStep("default", "shadowed", "default shadowed by the env var"))
            if warn:
                warnings.append(warn)
            return Resolved(value, "resolved", origin, trace, warnings)
        trace.append(TraceStep("env", "missing", f"env {src.env_var} is not set"))
        if rules.config == "env_only":
            return _env_only_unset(ctx, trace, warnings)
    else:
        trace.append(TraceStep("env", "skipped", "no env_var declared"))
    if src.default is not None:
        value, warn = coerce(src.default, ctx.type_name, conceal=secret)
        trace.append(TraceStep("default", "used", "source.default"))
        if warn:
            warnings.append(warn)
        return Resolved(value, "default", "default", trace, warnings)
    if src.required:
        return _required_missing(ctx, trace, warnings)
    trace.append(TraceStep("default", "missing", "no default; the value is None"))
    return Resolved(None, "missing", "None (no env var or default)", trace, warnings)


def _env_only_unset(ctx: SourceContext, trace: list[TraceStep], warnings: list[str]) -> Resolved:
    """The shipped code: the environment is the only source once ``env_var`` is declared."""
    src = ctx.source
    runtime = ctx.inputs.runtime.name
    note = documented_note(ctx.name, src)
    if src.default is not None:
        trace.append(TraceStep("default", "skipped", f"not applied by runtime {runtime}: {note}"))
        if note:
            warnings.append(note)
    if src.required and ctx.inputs.runtime.sources.config_required_ignores_default:
        return _required_missing(ctx, trace, warnings)
    if note is None:
        trace.append(TraceStep("default", "missing", "no default; the value is None"))
        return Resolved(None, "missing", "None (env var unset, no default)", trace, warnings)
    return Resolved(None, "missing", f"None: {note}", trace, warnings)


def _required_missing(ctx: SourceContext, trace: list[TraceStep], warnings: list[str]) -> Resolved:
    src = ctx.source
    what = f" (env {src.env_var})" if src.env_var else ""
    msg = f"Required config variable '{ctx.name}' is not set{what}"
    trace.append(TraceStep("required", "error", msg))
    return Resolved(None, "error", "required, missing", trace, warnings, error=msg)
