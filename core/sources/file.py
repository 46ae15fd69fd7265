"""``file``: a json, yaml or text file under the workspace root, with secret files refused."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from core.nesting import MAX_NESTING, nesting_problem
from core.pathsafety import confine, read_regular_file
from core.results import TraceStep
from core.sources.base import Resolved, SourceContext
from core.workspace import display_path
from core.yamlmarks import parse_yaml_text

#: Bigger files are refused unread. Parsed JSON can take 25 times its size in memory (a 16 MB
#: file of ``[[],[],...]`` took 370 MB), so this bounds one variable at about 100 MB.
MAX_FILE_BYTES = 4 * 1024 * 1024


def _read(real: Path, fmt: str, encoding: str) -> tuple[Any, str | None]:
    """The parsed content, or why it could not be read. FIFOs and devices are never opened."""
    data, problem = read_regular_file(real, MAX_FILE_BYTES)
    if data is None:
        return None, problem
    try:
        text = data.decode(encoding)
    except LookupError:
        return None, f"unknown encoding {encoding!r}"
    except UnicodeDecodeError as exc:
        return None, f"not valid {encoding} text at byte {exc.start}"
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
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, f"invalid JSON at {exc.lineno}:{exc.colno}: {exc.msg}"
    except RecursionError:
        return None, f"invalid JSON: nested more than {MAX_NESTING} levels deep"
    deep = nesting_problem(value)
    if deep:
        # json.loads takes 900 levels; showing or masking such a value would not
        return None, f"invalid JSON: {deep}"
    return value, None


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
