"""``flowctx test`` results as text, JSON, JUnit XML and SARIF.

The JSON shape is stable (``format: flowctx-test/1``): ``runtime``, ``cases`` (file, name,
workflow, location, status and every verdict), ``problems`` (invalid test files), ``summary``,
and with coverage ``coverage`` (rules, conditions with their atoms, variables, summary) and
with suggestions ``witnesses``. Everything is masked as the other commands mask it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.repo_paths import located_file
from flowctx_core.base.secrets import mask_text
from flowctx_core.report.sarif import SARIF_SCHEMA, SARIF_VERSION, SRCROOT, located_workspace
from flowctx_core.testing.coverage import Coverage
from flowctx_core.testing.run import CaseResult, TestRun, Verdict
from flowctx_core.testing.witness import Witness

JSON_FORMAT = "flowctx-test/1"
_INDENT = "      "


def summary_line(run: TestRun) -> str:
    files = len({r.file for r in run.results})
    parts = [f"{run.passed} passed", f"{run.failed} failed"]
    if run.withheld:
        # one count for every case a secret decides: how many, never which way
        parts.append(f"{run.withheld} withheld (they read secrets; --reveal shows them)")
    if run.errors:
        parts.append(f"{run.errors} invalid")
    if run.problems:
        # the exit status is 2: a line saying only "0 passed, 0 failed" would read as all well
        unread = len({p.file for p in run.problems})
        parts.append(f"{len(run.problems)} test file problem(s) in {unread} file(s)")
    return f"{', '.join(parts)} ({len(run.results)} cases in {files} files)"


def _verdict_lines(v: Verdict) -> list[str]:
    lines = [f"{_INDENT}{v.kind} ({v.loc}): expected {v.expected}", f"{_INDENT}  got {v.actual}"]
    lines.extend(f"{_INDENT}    {line}" for line in v.detail)
    return lines


def case_lines(result: CaseResult) -> list[str]:
    out = [f"{result.status:<5} {result.workflow}: {result.name}  ({result.loc})"]
    for p in result.problems:
        out.append(f"{_INDENT}{p.format()}")
    if result.status == "FAIL":
        for v in result.verdicts:
            if not v.passed:
                out.extend(_verdict_lines(v))
    if result.status in ("FAIL", "WITHHELD"):
        for v in result.verdicts:
            if v.withheld:
                out.append(f"{_INDENT}{v.kind} ({v.loc}): {v.actual}")
    return [mask_text(line) for line in out]


def render_text(
    run: TestRun, coverage: Coverage | None = None, witnesses: Sequence[Witness] = ()
) -> str:
    out: list[str] = [p.format() for p in run.problems]
    for result in run.results:
        out.extend(case_lines(result))
    if coverage is not None:
        out.append("")
        out.extend(coverage_lines(coverage))
    if witnesses:
        out.append("")
        out.extend(witness_lines(witnesses))
    out.append(summary_line(run))
    return "\n".join(out)


def coverage_lines(coverage: Coverage) -> list[str]:
    out = ["coverage:"]
    conditions = {c.rule.key: c for c in coverage.conditions}
    for rule in coverage.rules:
        taken = (
            f"taken by {len(rule.taken_by)} case{'s' if len(rule.taken_by) != 1 else ''}"
            if rule.covered
            else "no test"
        )
        cond = f"  when {rule.condition}" if rule.condition else ""
        out.append(
            f"  {rule.loc}  {rule.workflow}: {rule.source} → {rule.target} "
            f"(rule {rule.number}){cond}  [{taken}]"
        )
        found = conditions.get(rule.key)
        if found is not None and len(found.atoms) > 0:
            for atom in found.atoms:
                marks = "  ".join(
                    f"{what} {'✓' if seen else '✗'}"
                    for what, seen in (
                        ("true", atom.seen_true),
                        ("false", atom.seen_false),
                        ("decides", atom.decides),
                    )
                )
                out.append(f"      {atom.text}: {marks}")
    several = [v for v in coverage.variables if len(v.answered_by) > 1]
    for var in several:
        out.append(f"  {var.workflow}.{var.name}: answered by {'; '.join(var.answered_by)}")
    single = len(coverage.variables) - len(several)
    if coverage.variables:
        out.append(
            f"  variables: {single} answered by one source in every case, "
            f"{len(several)} by several (--format json lists each)"
        )
    out.append(f"  {coverage.summary_line()}")
    return [mask_text(line) for line in out]


def witness_lines(witnesses: Sequence[Witness]) -> list[str]:
    out = ["suggestions for the rules no test reaches:"]
    for w in witnesses:
        r = w.rule
        head = f"  {r.loc}  {r.workflow}: {r.source} → {r.target} (rule {r.number})"
        if w.found:
            out.append(f"{head}: add this case (confirmed by routing it):")
            out.extend(f"    {line}" for line in w.case_yaml().splitlines())
        else:
            out.append(f"{head}: {w.reason}")
    return [mask_text(line) for line in out]


def _verdict_json(v: Verdict) -> dict[str, Any]:
    return {
        "kind": v.kind,
        # a withheld verdict has no outcome to tell: null, and the secret it reads
        "passed": None if v.withheld else v.passed,
        "withheld": v.withheld or None,
        "expected": mask_text(v.expected),
        "actual": mask_text(v.actual),
        "location": str(v.loc),
        "detail": [mask_text(line) for line in v.detail],
    }


def to_json(
    run: TestRun,
    runtime: str,
    coverage: Coverage | None = None,
    witnesses: Sequence[Witness] = (),
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format": JSON_FORMAT,
        "runtime": runtime,
        "cases": [
            {
                "file": r.file,
                "name": mask_text(r.name),
                "workflow": r.workflow,
                "location": str(r.loc),
                "status": r.status,
                "verdicts": [_verdict_json(v) for v in r.verdicts],
                "problems": [p.to_json() for p in r.problems],
            }
            for r in run.results
        ],
        "problems": [p.to_json() for p in run.problems],
        "summary": {
            "passed": run.passed,
            "failed": run.failed,
            "withheld": run.withheld,
            "invalid": run.errors,
            "cases": len(run.results),
            "exit_code": run.exit_code,
        },
    }
    if coverage is not None:
        doc["coverage"] = coverage_json(coverage)
    if witnesses:
        doc["witnesses"] = [
            {
                "workflow": w.rule.workflow,
                "source": w.rule.source,
                "rule": w.rule.number,
                "target": w.rule.target,
                "location": str(w.rule.loc),
                "found": w.found,
                "case": mask_text(w.case_yaml()) if w.found else None,
                "reason": mask_text(w.reason),
                "proof": w.proof,
                "tried": w.tried,
            }
            for w in witnesses
        ]
    return doc


def coverage_json(coverage: Coverage) -> dict[str, Any]:
    summary = coverage.summary()
    return {
        "rules": [
            {
                "workflow": r.workflow,
                "file_kind": r.kind,
                "index": r.index,
                "source": r.source,
                "rule": r.number,
                "target": r.target,
                "location": str(r.loc),
                "condition": mask_text(r.condition) if r.condition else None,
                "taken_by": [mask_text(n) for n in r.taken_by],
            }
            for r in coverage.rules
        ],
        "conditions": [
            {
                "location": str(c.rule.loc),
                "workflow": c.rule.workflow,
                "source": c.rule.source,
                "rule": c.rule.number,
                "evaluations": c.evaluations,
                "atoms": [
                    {
                        "text": mask_text(a.text),
                        "seen_true": a.seen_true,
                        "seen_false": a.seen_false,
                        "decides": a.decides,
                    }
                    for a in c.atoms
                ],
            }
            for c in coverage.conditions
        ],
        "variables": [
            {
                "workflow": v.workflow,
                "name": v.name,
                "answered_by": [mask_text(s) for s in v.answered_by],
            }
            for v in coverage.variables
        ],
        "summary": {k: {"covered": a, "total": b} for k, (a, b) in summary.items()},
    }


def to_junit(run: TestRun, runtime: str) -> str:
    """JUnit XML: one testsuite per test file, one testcase per case, a failure per verdict
    that failed and an error per case that could not run."""
    suites = ET.Element("testsuites", name="flowctx test")
    by_file: dict[str, list[CaseResult]] = {}
    for r in run.results:
        by_file.setdefault(r.file, []).append(r)
    total_f = total_e = total_s = 0
    for file, results in by_file.items():
        failures = sum(1 for r in results if r.status == "FAIL")
        errors = sum(1 for r in results if r.status == "ERROR")
        skipped = sum(1 for r in results if r.status == "WITHHELD")
        total_f += failures
        total_e += errors
        total_s += skipped
        suite = ET.SubElement(
            suites,
            "testsuite",
            name=file,
            tests=str(len(results)),
            failures=str(failures),
            errors=str(errors),
            skipped=str(skipped),
        )
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", name="runtime", value=runtime)
        for r in results:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=f"{r.workflow}",
                name=_xml_text(mask_text(r.name)),
                file=file,
                line=str(r.loc.line),
            )
            if r.status == "ERROR":
                text = "\n".join(p.format() for p in r.problems)
                err = ET.SubElement(case, "error", message=_xml_text(text.splitlines()[0]))
                err.text = _xml_text(text)
            elif r.status == "FAIL":
                failed = [v for v in r.verdicts if not v.passed]
                first = failed[0]
                fail = ET.SubElement(
                    case,
                    "failure",
                    message=_xml_text(
                        mask_text(f"{first.kind}: expected {first.expected}, got {first.actual}")
                    ),
                    type=first.kind,
                )
                fail.text = _xml_text("\n".join(line for v in failed for line in _verdict_lines(v)))
            elif r.status == "WITHHELD":
                text = "; ".join(f"{v.kind}: {v.actual}" for v in r.verdicts if v.withheld)
                ET.SubElement(case, "skipped", message=_xml_text(mask_text(text)))
    for p in run.problems:
        total_e += 1
        suite = ET.SubElement(
            suites, "testsuite", name=p.file, tests="1", failures="0", errors="1", skipped="0"
        )
        case = ET.SubElement(suite, "testcase", classname="flowctx", name="test file", file=p.file)
        err = ET.SubElement(case, "error", message=_xml_text(p.format()))
        err.text = _xml_text(p.format())
    suites.set("tests", str(len(run.results) + len(run.problems)))
    suites.set("failures", str(total_f))
    suites.set("errors", str(total_e))
    suites.set("skipped", str(total_s))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode")


def _xml_text(text: str) -> str:
    """XML 1.0 cannot hold most control characters: they are shown as \\uXXXX."""
    return "".join(
        c
        if c in "\t\n\r" or (ord(c) >= 0x20 and ord(c) not in (0xFFFE, 0xFFFF))
        else f"\\u{ord(c):04x}"
        for c in text
    )


_TEST_RULES = [
    {
        "id": "test-failed",
        "shortDescription": {"text": "A flowctx test case failed"},
        "fullDescription": {
            "text": "A case of a .flowctx/tests file expects a route, value, refusal, problem "
            "count or prompt text that the runtime would not give."
        },
        "defaultConfiguration": {"level": "error"},
    },
    {
        "id": "test-invalid",
        "shortDescription": {"text": "A flowctx test file is invalid"},
        "fullDescription": {"text": "A test file or case cannot be read or names nothing real."},
        "defaultConfiguration": {"level": "error"},
    },
    {
        "id": "test-withheld",
        "shortDescription": {"text": "A flowctx test verdict reads a secret and is not told"},
        "fullDescription": {
            "text": "The expectation's judgement reads a secret value; its outcome would be a "
            "bit of the secret, so it is withheld unless flowctx test runs with --reveal."
        },
        "defaultConfiguration": {"level": "note"},
    },
    {
        "id": "rule-uncovered",
        "shortDescription": {"text": "No test case takes this routing rule"},
        "fullDescription": {
            "text": "No case of the workspace's test files makes this rule or path win."
        },
        "defaultConfiguration": {"level": "note"},
    },
]
_RULE_INDEX = {r["id"]: i for i, r in enumerate(_TEST_RULES)}


def _result(rule: str, message: str, file: str | None, line: int, column: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "ruleId": rule,
        "ruleIndex": _RULE_INDEX[rule],
        "level": _TEST_RULES[_RULE_INDEX[rule]]["defaultConfiguration"]["level"],  # type: ignore[index]
        "message": {"text": mask_text(message)},
        "locations": [],
    }
    if file is not None:
        region: dict[str, int] = {}
        if line > 0:
            region["startLine"] = line
            if column > 0:
                region["startColumn"] = column
        physical: dict[str, Any] = {"artifactLocation": {"uri": file, "uriBaseId": SRCROOT}}
        if region:
            physical["region"] = region
        out["locations"] = [{"physicalLocation": physical}]
    return out


def to_sarif(
    run: TestRun,
    *,
    workspace: Path,
    base: Path,
    runtime: str,
    tool_version: str,
    coverage: Coverage | None = None,
) -> dict[str, Any]:
    """SARIF 2.1.0: failing cases at their test file's line; with coverage, every uncovered
    rule as a note at the rule's line."""
    results: list[dict[str, Any]] = []

    def where(file: str) -> str | None:
        return located_file(file, workspace, base)

    for p in run.problems:
        results.append(_result("test-invalid", p.format(), where(p.file), p.line, p.column))
    for r in run.results:
        if r.status == "ERROR":
            for p in r.problems:
                results.append(_result("test-invalid", p.format(), where(p.file), p.line, p.column))
        else:
            for v in r.verdicts:
                if v.withheld:
                    text = f"{r.name}: {v.kind}: expected {v.expected}: {v.actual}"
                    results.append(
                        _result("test-withheld", text, where(v.loc.file), v.loc.line, v.loc.column)
                    )
                elif not v.passed:
                    text = f"{r.name}: {v.kind}: expected {v.expected}, got {v.actual}"
                    results.append(
                        _result("test-failed", text, where(v.loc.file), v.loc.line, v.loc.column)
                    )
    if coverage is not None:
        for rule in coverage.uncovered():
            text = (
                f"no test takes {rule.workflow}: {rule.source} → {rule.target} (rule {rule.number})"
            )
            results.append(
                _result(
                    "rule-uncovered", text, where(rule.loc.file), rule.loc.line, rule.loc.column
                )
            )
    run_doc = {
        "tool": {"driver": {"name": "flowctx", "version": tool_version, "rules": _TEST_RULES}},
        "automationDetails": {"id": f"flowctx-test/{located_workspace(workspace, base)}/"},
        "originalUriBaseIds": {SRCROOT: {"uri": base.resolve().as_uri() + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": results,
        "properties": {"runtime": runtime},
    }
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run_doc]}


def problems_of(run: TestRun) -> list[Diagnostic]:
    return [*run.problems, *(p for r in run.results for p in r.problems)]
