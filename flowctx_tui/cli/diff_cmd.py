"""``flowctx diff``: what a change does to resolution, routing and check (review mode).

``--base`` and ``--head`` are git revisions of the repository holding PATH (read through git:
the working tree, the index and the stash are never touched) or folders; ``--head`` defaults to
the working tree. Exit 0 whether or not something changed, as ``git diff`` does; with
``--exit-code``, 1 when something changed; 2 for bad arguments (an unknown revision, a folder
that is not a workspace, an unknown ``-w``). Values are masked as ``matrix`` masks them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import textwrap
from typing import Any

from flowctx_core.base.diagnostics import Diagnostic, location
from flowctx_core.base.oneline import one_line
from flowctx_core.base.secrets import mask_text
from flowctx_core.model.matrix import Refusal, Row
from flowctx_core.report.display import display_value, short_value
from flowctx_core.review.diff import (
    RouteChange,
    SideError,
    TestChange,
    VariableChange,
    WorkflowDiff,
    WorkspaceDiff,
    compare,
    diff_to_json,
    field_text,
    folder_side,
    read_side,
)
from flowctx_tui.cli.common import UsageError, fail
from flowctx_tui.cli.matrix_cmd import _COLOURS as STATUS_COLOURS
from flowctx_tui.cli.matrix_cmd import full_value
from flowctx_tui.cli.options import add_format_arg, add_width_arg
from flowctx_tui.cli.terminal import colour_wanted, sgr, table_width
from flowctx_tui.cli.workspace_args import add_now_arg, pin_now, workspace_path

#: the change marks and their colours (green added, red removed, yellow changed)
MARKS = {"added": "+", "removed": "-", "changed": "~"}
_MARK_COLOURS = {"added": "32", "removed": "31", "changed": "33"}
#: the longest value the markdown's details show (the table cells show 40)
MD_WIDTH = 200


def configure(parser: argparse.ArgumentParser) -> None:
    add_now_arg(parser)
    parser.add_argument(
        "path",
        nargs="?",
        default=None,
        metavar="PATH",
        help="the workspace (root, workflows/ or a workflow folder) whose git repository "
        "--base and --head name revisions of (default: the workspace around the current "
        "directory)",
    )
    parser.add_argument(
        "--demo",
        action="store_true",
        help="use the bundled demo workspace (instead of PATH or the current directory)",
    )
    parser.add_argument(
        "--base",
        required=True,
        metavar="REV_OR_FOLDER",
        help="what the change starts from: a git revision (HEAD~1, main, a commit; git:NAME "
        "forces a revision) or a workspace folder",
    )
    parser.add_argument(
        "--head",
        metavar="REV_OR_FOLDER",
        help="what the change ends at (default: the working tree as it is on disk)",
    )
    parser.add_argument(
        "--workflow", "-w", metavar="NAME", help="only this workflow (default: every one)"
    )
    add_format_arg(
        parser,
        {
            "text": "what changed, workflow by workflow",
            "json": "the same, for scripts",
            "markdown": "a pull-request comment",
        },
    )
    add_width_arg(parser, "fit text to COLUMNS (default: the terminal's width; piped: lines whole)")
    parser.add_argument(
        "--exit-code",
        action="store_true",
        help="exit 1 when something changed, 0 when nothing did (as git diff --exit-code)",
    )


# --- text ------------------------------------------------------------------------------------


def _paint(text: str, code: str, colour: bool) -> str:
    return sgr(code, text) if colour else text


def _fit(text: str, width: int | None, indent: int = 0) -> str:
    return full_value(text) if width is None else short_value(text, max(width - indent, 10))


def _wrap(text: str, width: int | None, indent: str = "", more: str = "    ") -> list[str]:
    if width is None:
        return [indent + text]
    return textwrap.wrap(
        text,
        width,
        initial_indent=indent,
        subsequent_indent=indent + more,
        break_on_hyphens=False,
        break_long_words=True,
    ) or [indent]


def _summary(w: WorkflowDiff) -> str:
    if w.presence == "added":
        head = "new workflow; "
    elif w.presence == "removed":
        head = "workflow removed; "
    else:
        head = ""
    if not w.changed:
        return "no changes"
    n_v, n_r = len(w.variables), len(w.routes)
    parts = [
        f"{n_v} variable{'' if n_v == 1 else 's'}",
        f"{n_r} route{'' if n_r == 1 else 's'}",
        f"problems +{len(w.problems_added)} -{len(w.problems_removed)}",
    ]
    return head + ", ".join(parts)


def _status(row: Row, colour: bool) -> str:
    return _paint(row.status, STATUS_COLOURS[row.status], colour)


def _variable_lines(v: VariableChange, width: int | None, colour: bool, reveal: bool) -> list[str]:
    mark = _paint(MARKS[v.change], _MARK_COLOURS[v.change], colour)
    row = v.after or v.before
    assert row is not None
    lines = [f"  {mark} {_fit(row.name, width, 4)}"]
    if v.change != "changed":
        value = short_value(display_value(row, reveal=reveal), 30 if width else 10**9)
        text = f"{row.status}, {row.source}: {value}  ({mask_text(row.origin)})"
        wrapped = _wrap(text, width, "      ")
        if colour:
            wrapped[0] = wrapped[0].replace(row.status, _status(row, True), 1)
        return lines + wrapped
    assert v.before is not None and v.after is not None
    for name in v.fields:
        old = field_text(v.before, name, reveal=reveal)
        new = field_text(v.after, name, reveal=reveal)
        if name == "status" and colour:
            old, new = _status(v.before, True), _status(v.after, True)
            lines.append(f"      {name}: {old} → {new}")
            continue
        one = f"      {name}: {old} → {new}"
        if width is None or len(one) <= width:
            lines.append(one)
        else:
            lines.append(_fit(f"      {name}: {old}", width))
            lines.append(_fit(f"        → {new}", width))
    return lines


def _target(target: str | None, withheld: str = "") -> str:
    if withheld:
        return "(withheld: reads a secret)"
    return target if target is not None else "(no route)"


def _route_lines(r: RouteChange, width: int | None, colour: bool) -> list[str]:
    file = r.file.rsplit("/", 1)[-1]
    plain = (
        f"~ {file} from {r.source} [{r.scenario}]: {_target(r.before, r.before_withheld)} → "
        f"{_target(r.after, r.after_withheld)}"
    )
    lines = _wrap(plain, width, "  ", "    ")
    if colour:  # coloured after wrapping: escape codes have no width
        lines[0] = lines[0].replace("~", _paint("~", _MARK_COLOURS["changed"], True), 1)
    why = f"was: {r.before_reason}; now: {r.after_reason}"
    lines.extend(_wrap(why, width, "      ", "  "))
    return lines


def _problem_lines(d: Diagnostic, change: str, width: int | None, colour: bool) -> list[str]:
    mark = _paint(MARKS[change], _MARK_COLOURS[change], colour)
    text = mask_text(d.format())
    wrapped = _wrap(text, None if width is None else width - 4, "", "    ")
    return [f"  {mark} {wrapped[0]}", *(f"    {line}" for line in wrapped[1:])]


def _verdict(refused: Refusal | None) -> str:
    if refused is None:
        return "loads"
    return f"REFUSED at {refused.stage_name}: {mask_text(refused.reason)}"


def render_text(
    diff: WorkspaceDiff, *, width: int | None, colour: bool, reveal: bool = False
) -> str:
    lines = _wrap(f"flowctx diff: {diff.base} → {diff.head}", width)
    lines += _wrap(f"runtime: {diff.runtime}", width)
    unchanged = [w.workflow for w in diff.workflows if not w.changed]
    for w in diff.workflows:
        if not w.changed:
            continue
        lines.append("")
        title = _paint(one_line(w.workflow), "1", colour)
        lines.append(f"{title}: {_summary(w)}")
        if w.verdict_changed:
            lines += _wrap(
                f" verdict: {_verdict(w.refused_after)} (base: {_verdict(w.refused_before)})", width
            )
        if w.variables:
            lines.append(" variables:")
            for v in w.variables:
                lines += _variable_lines(v, width, colour, reveal)
        if w.routes:
            lines.append(f" routes (scenarios: {', '.join(w.scenarios)}):")
            for r in w.routes:
                lines += _route_lines(r, width, colour)
        if w.problems_added or w.problems_removed:
            lines.append(" problems:")
            for d in w.problems_added:
                lines += _problem_lines(d, "added", width, colour)
            for d in w.problems_removed:
                lines += _problem_lines(d, "removed", width, colour)
    if diff.tests:
        lines.append("")
        lines.append(_paint("tests whose verdict changes", "1", colour) + ":")
        for c in diff.tests:
            lines += _test_lines(c, width, colour)
    if unchanged:
        lines.append("")
        lines += _wrap(f"no changes: {', '.join(unchanged)}", width)
    if not diff.changed:
        lines.append("nothing changed")
    return "\n".join(lines)


def _test_lines(c: TestChange, width: int | None, colour: bool) -> list[str]:
    code = "32" if c.after == "PASS" else "31"
    verdict = _paint(f"{c.before} → {c.after}", code, colour)
    out = _wrap(f"  {verdict}  {c.workflow}: {mask_text(c.case)}  ({c.location})", width)
    # what was expected and what the failing side gives; the explain trees are in the JSON
    # and in `flowctx test` on that side
    for line in c.detail[:_TEST_DETAIL]:
        out += _wrap(mask_text(line), width, "      ", "  ")
    return out


_TEST_DETAIL = 2


# --- markdown --------------------------------------------------------------------------------


def _code(text: str, *, cell: bool = False) -> str:
    """``text`` as inline code on one line that survives any backticks in it; in a table
    ``cell`` its pipes are escaped (GitHub reads them as cell borders even inside code)."""
    one = text.replace("\r", " ").replace("\n", " ")
    if cell:
        one = one.replace("|", "\\|")
    if "`" not in one:
        return f"`{one}`"
    # the fence is longer than any run of backticks inside: a shorter one ends the span early
    # and the rest of a name (``</details>``, a pipe, a link) would be read as markup
    fence = "`" * (max(len(run) for run in re.findall(r"`+", one)) + 1)
    return f"{fence} {one} {fence}"


def _cell_value(row: Row | None, reveal: bool) -> str:
    if row is None:
        return ""
    value = short_value(display_value(row, reveal=reveal), 40)
    return f"{_code(value, cell=True)} ({row.status})"


#: what in a message (which quotes names and conditions) could start markup that spans text:
#: a code span, emphasis, strikethrough, a mention, a table border; each shows as itself.
#: ``_`` inside words and a bracket not followed by ``(`` are left alone (GitHub reads them
#: as text), so ``transition_rules[1]`` stays readable in the raw comment.
_MD_PUNCT = re.compile(r"([\\`*~|@])")
#: a workflow name shown as it is in a heading: letters, digits, spaces, ``-`` and ``.``
_PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 .-]{0,99}")


def _md_text(text: str) -> str:
    one = mask_text(text).replace("\r", " ").replace("\n", " ")
    # ``](`` would make a link (``![`` an image) of text from a workspace
    return _MD_PUNCT.sub(r"\\\1", one).replace("](", "]\\(").replace("<", "&lt;")


def _md_variable_details(v: VariableChange, reveal: bool) -> list[str]:
    out = [f"- {MARKS[v.change]} {_code(v.name)}"]
    if v.change == "changed":
        assert v.before is not None and v.after is not None
        for name in v.fields:
            # a comment is read, not parsed: a megabyte value is cut as the matrix cuts it
            old = field_text(v.before, name, reveal=reveal, width=MD_WIDTH)
            new = field_text(v.after, name, reveal=reveal, width=MD_WIDTH)
            out.append(f"  - {name}: {_code(old)} → {_code(new)}")
    else:
        row = v.after or v.before
        assert row is not None
        for name in ("status", "value", "source", "origin", "agents"):
            text = field_text(row, name, reveal=reveal, width=MD_WIDTH)
            out.append(f"  - {name}: {_code(text)}")
        if row.error:
            out.append(f"  - error: {_md_text(row.error)}")
    return out


def _md_workflow(w: WorkflowDiff, reveal: bool) -> list[str]:
    # a name with anything but plain characters is a code span: a line break or markup in it
    # (``## ...``, ``<!--``) stays text inside the heading
    name = w.workflow if _PLAIN_NAME.fullmatch(w.workflow) else _code(w.workflow)
    out = [f"### {name}", "", f"**{_summary(w)}**", ""]
    if w.variables:
        out += ["| | variable | before | after |", "| --- | --- | --- | --- |"]
        for v in w.variables:
            before = _cell_value(v.before, reveal)
            after = _cell_value(v.after, reveal)
            name = _code(v.name, cell=True)
            out.append(f"| {MARKS[v.change]} | {name} | {before} | {after} |")
        out.append("")
    if w.routes:
        out.append("Routes whose winner changed:")
        out.append("")
        for r in w.routes:
            out.append(
                f"- {_code(r.file)} from {_code(r.source)} under *{_md_text(r.scenario)}*: "
                f"{_code(_target(r.before, r.before_withheld))} → "
                f"{_code(_target(r.after, r.after_withheld))}"
            )
        out.append("")
    if w.problems_added or w.problems_removed:
        out.append(f"Problems: {len(w.problems_added)} added, {len(w.problems_removed)} removed")
        out.append("")
    details: list[str] = []
    if w.variables:
        details += ["<details><summary>Variables: before and after</summary>", ""]
        for v in w.variables:
            details += _md_variable_details(v, reveal)
        details += ["", "</details>", ""]
    if w.routes:
        details += ["<details><summary>Routes: why each winner changed</summary>", ""]
        for r in w.routes:
            details.append(f"- {_code(r.source)} under *{_md_text(r.scenario)}* ({_code(r.file)})")
            details.append(f"  - before: {_md_text(r.before_reason)}")
            details.append(f"  - after: {_md_text(r.after_reason)}")
        details += ["", "</details>", ""]
    if w.problems_added or w.problems_removed:
        details += ["<details><summary>Problems added and removed</summary>", ""]
        for d in w.problems_added:
            details.append(f"- ➕ {_code(location(d.file, d.line, d.column))} {_problem_md(d)}")
        for d in w.problems_removed:
            details.append(f"- ➖ {_code(location(d.file, d.line, d.column))} {_problem_md(d)}")
        details += ["", "</details>", ""]
    return out + details


def _problem_md(d: Diagnostic) -> str:
    kind = "warning" if d.severity == "warning" else "error"
    code = f" ({d.code})" if d.code else ""
    message = f"{d.yaml_path}: {d.message}" if d.yaml_path else d.message
    return f"{kind}{code}: {_md_text(message)}"


def render_markdown(diff: WorkspaceDiff, *, reveal: bool = False) -> str:
    out = [
        f"## flowctx diff: {_code(diff.base)} → {_code(diff.head)}",
        "",
        f"Runtime: {_md_text(diff.runtime)}",
        "",
    ]
    changed = [w for w in diff.workflows if w.changed]
    if not changed and not diff.tests:
        out.append("No workflow changes what the runtime resolves, routes or reports.")
    for w in changed:
        out += _md_workflow(w, reveal)
    if diff.tests:
        out += [
            "### Tests whose verdict changes",
            "",
            "| verdict | case | where |",
            "|---|---|---|",
        ]
        for c in diff.tests:
            out.append(
                f"| {c.before} → {c.after} | {_code(c.workflow, cell=True)}: "
                f"{_md_text(mask_text(c.case))} | {_code(c.location, cell=True)} |"
            )
        out.append("")
    unchanged = [w.workflow for w in diff.workflows if not w.changed]
    if changed and unchanged:
        out.append(f"Unchanged: {', '.join(_code(n) for n in unchanged)}")
    return "\n".join(out).rstrip() + "\n"


# --- running ---------------------------------------------------------------------------------


def build_diff(args: argparse.Namespace) -> WorkspaceDiff:
    """The comparison the arguments ask for; raises UsageError for bad ones."""
    path = workspace_path(args.path, demo=getattr(args, "demo", False))
    env = dict(os.environ)
    runtime = getattr(args, "runtime", None)
    try:
        base = read_side(args.base, path, env, runtime=runtime)
        if args.head is None:
            head = folder_side(path, env, runtime=runtime, label="working tree")
        else:
            head = read_side(args.head, path, env, runtime=runtime)
    except SideError as exc:
        raise UsageError(str(exc)) from None
    names: list[str] | None = None
    if args.workflow:
        known = [*head.snapshot.names, *base.snapshot.names]
        if args.workflow not in known:
            listed = ", ".join(dict.fromkeys(known)) or "none"
            raise UsageError(f"no workflow named '{args.workflow}' on either side ({listed})")
        names = [args.workflow]
    elif head.session.selected:
        names = [head.session.selected]
    return compare(base, head, names)


def run(args: argparse.Namespace) -> int:
    from flowctx_tui.cli import mj_views

    mj = mj_views.mj_path(args.path, args.workflow, getattr(args, "runtime", None))
    if mj is not None:
        return mj_views.run_diff(args, mj)
    try:
        pin_now(args)  # both sides' conditions read one instant
        diff = build_diff(args)
    except UsageError as exc:
        return fail(str(exc))
    if args.format == "json":
        doc: Any = diff_to_json(diff)
        print(json.dumps(doc, indent=2, default=str, ensure_ascii=False))
    elif args.format == "markdown":
        print(render_markdown(diff), end="")
    else:
        width = table_width(sys.stdout, args.width)
        print(render_text(diff, width=width, colour=colour_wanted(sys.stdout)))
    return 1 if args.exit_code and diff.changed else 0


__all__ = ["build_diff", "configure", "render_markdown", "render_text", "run"]
