"""``file``: a json, yaml or text file under the workspace root, with secret files refused.

Reading happens once, when the workspace snapshot is taken (``read_file_source``); resolving a
variable (``resolve``) only looks its content up, so 600 variables reading the same 10 files
read and parse each file once.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path
from typing import Any

from flowctx_core.base import fsview
from flowctx_core.base.jsontext import JsonTextError, parse_json
from flowctx_core.base.pathsafety import confine, present, read_regular_file
from flowctx_core.base.yamlmarks import parse_yaml_text
from flowctx_core.model.matrix import TraceStep
from flowctx_core.model.workspace import display_path
from flowctx_core.sources.base import FileContent, FileKey, Resolved, SourceContext

#: Bigger files are refused unread. Parsed JSON can take 25 times its size in memory (a 16 MB
#: file of ``[[],[],...]`` took 370 MB), so this bounds one variable at about 100 MB.
MAX_FILE_BYTES = 4 * 1024 * 1024


def file_key(path: str, fmt: str, encoding: str) -> FileKey:
    return (path, fmt, encoding)


def _parse(data: bytes, fmt: str, encoding: str, name: str) -> tuple[Any, str | None]:
    try:
        text = data.decode(encoding)
    except LookupError:
        return None, f"unknown encoding {encoding!r}"
    except UnicodeDecodeError as exc:
        return None, f"not valid {encoding} text at byte {exc.start}"
    except ValueError:  # a NUL in the name: codecs refuse it before looking it up
        return None, f"unknown encoding {encoding!r} (it holds a NUL character)"
    if fmt == "text":
        return text, None
    if fmt == "yaml":
        # the same guarded loader as the contract: no alias bombs, no unbounded nesting
        doc, problems = parse_yaml_text(text, name)
        if doc is None:
            p = problems[0]
            return None, f"invalid YAML at {p.line}:{p.column}: {p.message}"
        return doc.data, None
    try:
        return parse_json(text), None
    except JsonTextError as exc:
        return None, f"invalid JSON at {exc.line}:{exc.column}: {exc.reason}"


def _watched(root: Path, raw: str) -> tuple[Path, ...]:
    candidate = Path(raw).expanduser()
    if not candidate.is_absolute():
        candidate = root / candidate
    paths = [Path(os.path.normpath(candidate))]
    with contextlib.suppress(OSError, RuntimeError, ValueError):  # ValueError: a NUL
        paths.append(fsview.realpath(candidate))
    return tuple(dict.fromkeys(paths))


def read_file_source(
    root: Path, raw: str, fmt: str, encoding: str, *, allow_outside: bool
) -> FileContent:
    """Read and parse the file ``raw`` names. FIFOs and devices are never opened."""
    watched = _watched(root, raw)
    real, refusal = confine(root, raw, allow_outside=allow_outside)
    if real is None:
        return FileContent(refusal=refusal, watched=watched)
    shown = display_path(real, fsview.realpath(root))
    data, problem = read_regular_file(real, MAX_FILE_BYTES)
    value = None
    if data is not None:
        value, problem = _parse(data, fmt, encoding, real.name)
    # a file flowctx will not read (a device, a FIFO, one over the size bound) is its own
    # refusal: the runtime would block or read on, so its default stands in, as for a refusal
    missing = data is None and (not present(real) or _loops(real) or _beyond_reach(real))
    return FileContent(None, shown, value, problem, watched, missing=missing)


def _beyond_reach(path: Path) -> bool:
    try:
        st = os.stat(path)
    except OSError:
        return False
    if stat.S_ISDIR(st.st_mode):
        return False
    return not stat.S_ISREG(st.st_mode) or st.st_size > MAX_FILE_BYTES


def _loops(path: Path) -> bool:
    """A loop of symbolic links: the runtime's ``Path.resolve`` raises before it reads, which
    its loader treats like a missing file (the default is used)."""
    try:
        os.stat(path)
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


def resolve(ctx: SourceContext) -> Resolved:
    src = ctx.source
    trace: list[TraceStep] = []
    content = ctx.files[file_key(src.path, src.format, src.encoding)]
    if content.refusal is None:
        shown = content.shown
        if content.problem is None:
            trace.append(TraceStep("file", "used", f"{shown} ({src.format})"))
            if src.default is not None:
                trace.append(TraceStep("default", "shadowed", "default shadowed by the file"))
            return Resolved(content.value, "resolved", shown, trace)
        problem = f"{shown}: {content.problem}"
        trace.append(TraceStep("file", "error", problem))
    else:
        trace.append(TraceStep("file", "error", f"{src.path}: {content.refusal}"))
        problem = f"{src.path}: {content.refusal}"
    if src.required:
        msg = f"required file: {problem}"
        if ctx.inputs.runtime.sources.file_parse_error == "none":
            # its ValueError is raised inside the loader's try, which logs it: the variable is
            # None and the workflow still loads (mozaiks 0.2.0, variables.py)
            said = f"{msg} (the loader logs the failure; the value is None and the run goes on)"
            trace.append(TraceStep("required", "missing", said))
            return Resolved(None, "missing", "None (required file failed)", trace, [said])
        trace.append(TraceStep("required", "error", msg))
        return Resolved(None, "error", "file (failed)", trace, error=msg)
    warnings = [problem or "file problem"]
    caught = (
        content.refusal is None
        and not content.missing
        and ctx.inputs.runtime.sources.file_parse_error == "none"
    )
    if caught:
        # the loader reads and parses inside one try: what fails there is logged and the
        # variable is None, its default unused (mozaiks 0.2.0, variables.py _load_context_async)
        trace.append(
            TraceStep("default", "skipped", "the loader catches the failure: the value is None")
        )
        return Resolved(None, "missing", "None (file unreadable)", trace, warnings)
    if src.default is not None:
        trace.append(TraceStep("default", "used", "source.default (file missing or invalid)"))
        return Resolved(src.default, "default", "default", trace, warnings)
    trace.append(TraceStep("default", "missing", "no default; the value is None"))
    return Resolved(None, "missing", "None (no file or default)", trace, warnings)
