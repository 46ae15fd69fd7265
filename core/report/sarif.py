"""SARIF 2.1.0 for ``flowctx check --format sarif``: what code hosts show inline in a review.

One run per workspace checked. The tool's rules are every problem kind of
``flowctx_core.check.PROBLEM_KINDS`` (its stable code as the rule id, both descriptions, the usual
level), in that order, so a result's ``ruleIndex`` is stable too. Results are located relative
to the repository root (``uriBaseId`` ``SRCROOT``), with 1-based lines and columns counted in
code points, as the YAML marks are. Messages are masked like every other output. The run's
properties name the runtime profile the problems were judged against.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.repo_paths import located_file
from flowctx_core.base.secrets import mask_text
from flowctx_core.check import PROBLEM_KINDS
from flowctx_core.model.matrix import Refusal
from flowctx_core.model.profiles import RuntimeProfile

SARIF_VERSION = "2.1.0"
#: the OASIS-published schema of the 2.1.0 standard (errata 01)
SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
#: the uriBaseId every result's file is relative to: the repository root
SRCROOT = "SRCROOT"
RULE_IDS: tuple[str, ...] = tuple(PROBLEM_KINDS)


def rules() -> list[dict[str, Any]]:
    """One reportingDescriptor per problem kind, in ``RULE_IDS`` order."""
    return [
        {
            "id": code,
            "shortDescription": {"text": kind.short},
            "fullDescription": {"text": kind.full},
            "defaultConfiguration": {"level": kind.level},
        }
        for code, kind in PROBLEM_KINDS.items()
    ]


def _location(file: str | None, line: int, column: int) -> list[dict[str, Any]]:
    if file is None:
        return []
    artifact: dict[str, Any] = {"uri": file}
    if not Path(file).is_absolute():
        artifact["uriBaseId"] = SRCROOT
    else:
        artifact["uri"] = Path(file).as_uri()
    physical: dict[str, Any] = {"artifactLocation": artifact}
    if line > 0:
        region: dict[str, int] = {"startLine": line}
        if column > 0:
            region["startColumn"] = column
        physical["region"] = region
    return [{"physicalLocation": physical}]


def result(problem: Diagnostic, workspace: Path, base: Path) -> dict[str, Any]:
    """One SARIF result. A problem in no file (an environment variable, a folder that does
    not exist) has no location and names its place in the message."""
    doc = problem.to_json()
    file = located_file(problem.file, workspace, base)
    message = str(doc["message"])
    if file is None and problem.file:
        message = f"{mask_text(problem.file)}: {message}"
    out: dict[str, Any] = {"ruleId": problem.code}
    if problem.code in PROBLEM_KINDS:
        out["ruleIndex"] = RULE_IDS.index(problem.code)
    out["level"] = problem.severity
    out["message"] = {"text": message}
    out["locations"] = _location(file, problem.line, problem.column)
    return out


def sarif_run(
    problems: Iterable[Diagnostic],
    *,
    workspace: Path,
    base: Path,
    runtime: RuntimeProfile,
    workflows: Iterable[str],
    refused: Mapping[str, Refusal],
    tool_version: str,
    information_uri: str | None = None,
) -> dict[str, Any]:
    """The run for one workspace; ``base`` is the repository root the URIs are relative to."""
    driver: dict[str, Any] = {"name": "flowctx", "version": tool_version}
    if information_uri:
        driver["informationUri"] = information_uri
    driver["rules"] = rules()
    where = located_workspace(workspace, base)
    return {
        "tool": {"driver": driver},
        # code scanning tells runs apart by this category: one per workspace
        "automationDetails": {"id": f"flowctx/{where}/"},
        "originalUriBaseIds": {SRCROOT: {"uri": base.resolve().as_uri() + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": [result(p, workspace, base) for p in problems],
        "properties": {
            "runtime": {**runtime.to_json(), "label": runtime.label},
            "workspace": where,
            "workflows": list(workflows),
            "refused": {name: r.to_json() for name, r in refused.items()},
        },
    }


def located_workspace(workspace: Path, base: Path) -> str:
    """The workspace folder relative to ``base`` (``.`` when it is the repository root)."""
    try:
        return workspace.resolve().relative_to(base.resolve()).as_posix() or "."
    except ValueError:
        return workspace.resolve().as_posix()


def sarif_log(runs: Iterable[dict[str, Any]]) -> dict[str, Any]:
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": list(runs)}
