"""GitHub Actions workflow commands for ``flowctx check --format github``.

Each problem is one line, ``::error file=F,line=L,col=C,title=CODE::message`` (``::warning``
for warnings), which the Actions runner turns into an annotation on that line of the pull
request. Values are escaped as the runner unescapes them (``@actions/core``'s
``escapeData``/``escapeProperty``): ``%``, CR and LF in the message, and also ``:`` and ``,``
in properties, so a message can never end the command early or forge another one.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.repo_paths import located_file
from flowctx_core.base.secrets import mask_text
from flowctx_core.model.matrix import Refusal


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(
    level: str,
    message: str,
    *,
    file: str | None = None,
    line: int = 0,
    column: int = 0,
    title: str = "",
) -> str:
    """One ``::level props::message`` line; a property left unknown (0, None) is left out,
    as the runner then annotates the file, or the run, rather than a wrong line."""
    props: list[tuple[str, str]] = []
    if file:
        props.append(("file", file))
        if line > 0:
            props.append(("line", str(line)))
            if column > 0:
                props.append(("col", str(column)))
    if title:
        props.append(("title", title))
    joined = ",".join(f"{k}={escape_property(v)}" for k, v in props)
    return f"::{level}{' ' + joined if joined else ''}::{escape_data(message)}"


def problem_annotations(problems: Iterable[Diagnostic], workspace: Path, base: Path) -> list[str]:
    """A command per problem, its file relative to ``base`` (the repository root). A problem
    that is in no file (an environment variable) names its place in the message instead."""
    out: list[str] = []
    for p in problems:
        doc = p.to_json()  # masked: no secret reaches the log
        file = located_file(p.file, workspace, base)
        message = str(doc["message"])
        if file is None and p.file:
            message = f"{mask_text(p.file)}: {message}"
        out.append(
            workflow_command(
                p.severity,
                message,
                file=file,
                line=p.line,
                column=p.column,
                title=p.code,
            )
        )
    return out


def refusal_annotation(
    workflow: str, refusal: Refusal, runtime: str, workspace: Path, base: Path
) -> str:
    """The runtime would not load the workflow: an error at the first problem that decides."""
    what = (
        "would load an empty context plan (no variable is set)"
        if refusal.outcome == "empty_plan"
        else "would not load this workflow's context"
    )
    return workflow_command(
        "error",
        f"REFUSED: runtime {runtime} {what} ({workflow}): {mask_text(refusal.reason)}",
        file=located_file(refusal.file, workspace, base),
        line=refusal.line,
        column=refusal.column,
        title="refused",
    )
