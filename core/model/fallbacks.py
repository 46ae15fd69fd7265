"""The fallbacks file (``MOZAIKS_CONTEXT_FALLBACKS_FILE``) for data_reference variables.

Order when the database gave ``None``: ``workflows.<workflow>.<var>`` (workflow name matched
case-insensitively), then ``global.<var>``, then a flat root ``{<var>: ...}`` consulted only when
neither a ``global`` nor a ``workflows`` key exists.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flowctx_core.base.jsontext import JsonTextError, parse_json
from flowctx_core.base.pathsafety import confine, read_regular_file
from flowctx_core.model.inputs import FALLBACKS_ENV, ResolveInputs
from flowctx_core.model.matrix import TraceStep

#: Bigger files are refused unread (parsed JSON can take 25 times its size in memory).
MAX_FALLBACKS_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class Fallbacks:
    """A loaded fallbacks file, or the reason there is none."""

    display: str | None = None
    data: dict[str, Any] | None = None
    warning: str | None = None
    #: files the app should watch (the configured path, even when missing)
    watched: tuple[Path, ...] = field(default=())

    def lookup(self, workflow: str, var: str) -> tuple[bool, Any, list[TraceStep]]:
        """Whether a fallback answers ``var``, its value, and the steps tried (in order)."""
        steps: list[TraceStep] = []
        name = self.display or "fallbacks file"
        if self.data is None:
            why = self.warning or f"{FALLBACKS_ENV} not set"
            steps.append(TraceStep("fallbacks", "skipped", why))
            return False, None, steps
        data = self.data
        wrapped = "global" in data or "workflows" in data
        workflows = data.get("workflows")
        scoped: dict[str, Any] | None = None
        matched_name = workflow
        if isinstance(workflows, dict):
            for key, value in workflows.items():
                if isinstance(key, str) and key.lower() == workflow.lower():
                    scoped = value if isinstance(value, dict) else None
                    matched_name = key
                    break
        where = f"{name} workflows.{matched_name}.{var}"
        if scoped is not None and var in scoped:
            steps.append(TraceStep("fallback: workflow", "used", where))
            return True, scoped[var], steps
        steps.append(TraceStep("fallback: workflow", "missing", where))
        glob = data.get("global")
        gwhere = f"{name} global.{var}"
        if isinstance(glob, dict) and var in glob:
            steps.append(TraceStep("fallback: global", "used", gwhere))
            return True, glob[var], steps
        steps.append(TraceStep("fallback: global", "missing", gwhere))
        fwhere = f"{name} {var}"
        if wrapped:
            steps.append(
                TraceStep(
                    "fallback: flat",
                    "skipped",
                    f"{fwhere} (not consulted: the file has global/workflows)",
                )
            )
            return False, None, steps
        if var in data:
            steps.append(TraceStep("fallback: flat", "used", fwhere))
            return True, data[var], steps
        steps.append(TraceStep("fallback: flat", "missing", fwhere))
        return False, None, steps


def load_fallbacks(root: Path, inputs: ResolveInputs) -> Fallbacks:
    raw = str(inputs.env.get(FALLBACKS_ENV, "") or "").strip()
    if not raw:
        return Fallbacks(warning=f"{FALLBACKS_ENV} not set")
    display = raw
    candidate = Path(raw) if Path(raw).is_absolute() else root / raw
    real, refusal = confine(root, raw, allow_outside=inputs.allow_outside_root)
    if real is None:
        return Fallbacks(display, None, f"no fallbacks: {refusal}", (candidate,))
    raw_bytes, why = read_regular_file(real, MAX_FALLBACKS_BYTES)
    if raw_bytes is None:
        if why == "file not found":
            warning = f"{display} not found"
        elif why and why.startswith(("is a directory", "not a regular file")):
            warning = f"{display} is not a regular file"
        else:
            warning = f"cannot read {display}: {(why or '').removeprefix('cannot read: ')}"
        return Fallbacks(display, None, f"no fallbacks: {warning}", (candidate,))
    try:
        data = parse_json(raw_bytes.decode("utf-8"))
    except UnicodeDecodeError as exc:
        why = f"not valid UTF-8 text at byte {exc.start}"
        return Fallbacks(display, None, f"no fallbacks: cannot read {display}: {why}", (candidate,))
    except JsonTextError as exc:
        return Fallbacks(
            display,
            None,
            f"no fallbacks: {display}:{exc.line}:{exc.column}: {exc}",
            (candidate,),
        )
    if not isinstance(data, dict):
        return Fallbacks(
            display,
            None,
            f"no fallbacks: {display} must hold a JSON object, found {type(data).__name__}",
            (candidate,),
        )
    return Fallbacks(display, data, None, (candidate,))
