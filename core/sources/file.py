"""``file``: a json, yaml or text file under the workspace root, with secret files refused."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from core.pathsafety import confine
from core.results import TraceStep
from core.sources.base import Resolved, SourceContext
from core.workspace import display_path
from core.yamlmarks import parse_yaml_text

MAX_FILE_BYTES = 16 * 1024 * 1024


def _read(real: Path, fmt: str, encoding: str) -> tuple[Any, str | None]:
    """The parsed content, or why it could not be read. FIFOs and devices are never opened."""
    try:
        st = os.stat(real)
    except FileNotFoundError:
        return None, "file not found"
    except OSError as exc:
        return None, f"cannot read: {exc.strerror or exc}"
    if stat.S_ISDIR(st.st_mode):
        return None, "is a directory"
    if not stat.S_ISREG(st.st_mode):
        return None, "not a regular file (device, FIFO or socket): not read"
    if st.st_size > MAX_FILE_BYTES:
        return None, f"file is {st.st_size:,} bytes, over the {MAX_FILE_BYTES:,}-byte limit"
    try:
        text = real.read_bytes().decode(encoding)
    except LookupError:
        return None, f"unknown encoding {encoding!r}"
    except UnicodeDecodeError as exc:
        return None, f"not valid {encoding} text at byte {exc.start}"
    except OSError as exc:
        return None, f"cannot read: {exc.strerror or exc}"
    if fmt == "text":
        return text, None
    if fmt == "yaml":
        # the same guarded loader as the contract: no alias bombs, no unbounded nesting
        doc, problems = parse_yaml_text(text, real.name)
        if doc is None:
            p = problems[0]
            return None, f"invalid YAML at {p.line}:{p.column}: {p.message}"
        return doc.data, None
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        return None, f"invalid JSON at {exc.lineno}:{exc.colno}: {exc.msg}"
    except RecursionError:
        return None, "invalid JSON: nested too deeply"


def resolve(ctx: SourceContext) -> Resolved:
    src = ctx.source
    root = ctx.workflow.root
    trace: list[TraceStep] = []
    real, refusal = confine(root, src.path, allow_outside=ctx.inputs.allow_outside_root)
    problem = refusal
    if real is not None:
        shown = display_path(real, Path(os.path.realpath(root)))
        value, problem = _read(real, src.format, src.encoding)
        if problem is None:
            trace.append(TraceStep("file", "used", f"{shown} ({src.format})"))
            if src.default is not None:
                trace.append(TraceStep("default", "shadowed", "default shadowed by the file"))
            return Resolved(value, "resolved", shown, trace)
        problem = f"{shown}: {problem}"
        trace.append(TraceStep("file", "error", problem))
    else:
        trace.append(TraceStep("file", "error", f"{src.path}: {problem}"))
        problem = f"{src.path}: {problem}"
    if src.required:
        msg = f"required file: {problem}"
        trace.append(TraceStep("required", "error", msg))
        return Resolved(None, "error", "file (failed)", trace, error=msg)
    warnings = [problem or "file problem"]
    if src.default is not None:
        trace.append(TraceStep("default", "used", "source.default (file missing or invalid)"))
        return Resolved(src.default, "default", "default", trace, warnings)
    trace.append(TraceStep("default", "missing", "no default; the value is None"))
    return Resolved(None, "default", "default (None)", trace, warnings)
