"""``flowctx matrix``: the resolution matrix of one workflow, as a table or JSON."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from dataclasses import replace

from flowctx_core.base.gcpause import gc_paused
from flowctx_core.base.jsonwrite import dumps_indented
from flowctx_core.base.oneline import one_line
from flowctx_core.base.secrets import mask_text
from flowctx_core.model.matrix import Matrix
from flowctx_core.report.display import display_value, matrix_to_json, short_value
from flowctx_tui.cli.common import UsageError, fail
from flowctx_tui.cli.launch_args import add_launch_args, resolve_from_args
from flowctx_tui.cli.options import add_format_arg, add_width_arg
from flowctx_tui.cli.terminal import (
    colour_wanted,
    escape_controls,
    raw_stream,
    table_width,
    write_json,
)
from flowctx_tui.cli.workspace_args import add_workspace_args

_COLOURS = {
    "resolved": "32",
    "default": "36",
    "fallback": "33",
    "missing": "35",
    "pending": "2",
    "error": "31;1",
}


def configure(parser: argparse.ArgumentParser) -> None:
    add_workspace_args(parser)
    add_format_arg(
        parser,
        {"text": "a table, one variable per row", "json": "rows with their provenance"},
        deprecated={"table": "text"},
    )
    parser.add_argument("--reveal", action="store_true", help="show secret values unmasked")
    add_width_arg(
        parser, "fit the table to COLUMNS (default: the terminal's width; piped: values whole)"
    )
    add_launch_args(parser)


def render_table(matrix: Matrix, *, reveal: bool, width: int | None, colour: bool) -> str:
    """The matrix as a table that fits ``width`` columns (cells cut with ``…``, free text
    wrapped), or, with ``width=None``, with every value whole on its row's line."""
    cols = ("NAME", "SOURCE", "STATUS", "VALUE", "ORIGIN")
    # strings, except a whole value (a container) shown by _fit or full_value
    rows: list[list[object]] = []
    for r in matrix.rows:
        # escaped before the layout, so a control character in a name or value neither acts
        # on the terminal nor throws the columns out of line
        cells_text = [r.name, r.source, r.status, display_value(r, reveal=reveal)]
        rows.append([*(_safe(c) for c in cells_text), escape_controls(mask_text(r.origin))])
    if width is None:
        cells = [[escape_controls(full_value(c)) for c in row] for row in rows]
        # columns line up as far as _ALIGN_MAX; a longer cell widens its own line only,
        # so one megabyte value does not pad every other row with a megabyte of spaces
        widths = tuple(
            min(max([len(c[i]) for c in cells] + [len(cols[i])]), _ALIGN_MAX)
            for i in range(len(cols))
        )
    else:
        name_w = min(max([len(str(c[0])) for c in rows] + [4]), 28)  # names and sources are text
        src_w = min(max([len(str(c[1])) for c in rows] + [6]), 14)
        stat_w = 8
        rest = max(width - name_w - src_w - stat_w - 8, 20)
        val_w = max(rest * 5 // 9, 10)
        org_w = max(rest - val_w, 10)
        widths = (name_w, src_w, stat_w, val_w, org_w)
        cells = [
            [
                escape_controls(_fit(c, w, i))
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            ]
            for row in rows
        ]
    title = escape_controls(one_line(f"{matrix.workflow}  ({matrix.workspace})"))
    lines = [title if width is None else short_value(title, width)]
    if matrix.refused is not None:
        # first: the runtime would stop here, whatever the rows below say
        lines.extend(_wrap(one_line(mask_text(matrix.refused.headline("the runtime"))), width))
    lines.append("  ".join(c.ljust(w) for c, w in zip(cols, widths, strict=True)).rstrip())
    row_lines: set[int] = set()
    for r, row_cells in zip(matrix.rows, cells, strict=True):
        row_lines.add(len(lines))
        padded = [c.ljust(w) for c, w in zip(row_cells, widths, strict=True)]
        if colour:
            padded[2] = f"\x1b[{_COLOURS[r.status]}m{padded[2]}\x1b[0m"
        lines.append("  ".join(padded).rstrip())
        for w in r.warnings:
            lines.append(f"    ! {_cut(mask_text(w), width, 6)}")
        if r.error:
            lines.append(f"    ✗ {_cut(mask_text(r.error), width, 6)}")
    counts = {s: sum(1 for r in matrix.rows if r.status == s) for s in _COLOURS}
    summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    lines.append(f"{len(matrix.rows)} variables: {summary}")
    if matrix.runtime:
        line = f"runtime: {matrix.runtime}"
        lines.append(line if width is None else short_value(line, width))
    for note in matrix.notes:
        lines.extend(_wrap(f"note: {mask_text(note)}", width))
    for d in matrix.diagnostics:
        lines.extend(_wrap(mask_text(d.format()), width))
    # the row lines hold only escaped cells (and the colours added here); the rest is free text
    return "\n".join(
        escape_controls(line) if i not in row_lines else line for i, line in enumerate(lines)
    )


def _safe(cell: object) -> object:
    """A string cell with its control characters escaped. Containers are escaped once shown
    as (bounded) JSON, which already writes C0 controls as escapes."""
    return escape_controls(cell) if isinstance(cell, str) else cell


_ALIGN_MAX = 60


def _fit(cell: object, width: int, column: int) -> str:
    # STATUS (column 2) is never cut: its column fits the longest status word
    return str(cell) if column == 2 else short_value(cell, width)


def full_value(value: object) -> str:
    """The whole value on one line: JSON for containers, plain text for strings."""
    text = value if isinstance(value, str) else json.dumps(value, default=str, ensure_ascii=False)
    return text.replace("\n", "⏎ ")


def _cut(text: str, width: int | None, indent: int) -> str:
    return full_value(text) if width is None else short_value(text, width - indent)


def _wrap(text: str, width: int | None) -> list[str]:
    if width is None:
        return [text]
    return textwrap.wrap(text, width, subsequent_indent="    ", break_on_hyphens=False) or [""]


def run(args: argparse.Namespace) -> int:
    try:
        resolved = resolve_from_args(args)
    except UsageError as exc:
        return fail(str(exc))
    session, matrix = resolved.session, resolved.matrix
    # flowctx.yaml's own problems (a recursive alias, a syntax error) and the seeds': the
    # matrix was resolved without what they could not give
    extra = [
        d
        for d in (*session.profile.diagnostics, *session.database_problems)
        if d not in matrix.diagnostics
    ]
    if extra:
        matrix = replace(matrix, diagnostics=(*matrix.diagnostics, *extra))
    if args.format == "json":
        # the JSON tree holds no cycle: the collector would only walk the resolved workspace
        # again and again while it is built (flowctx_core.base.gcpause)
        with gc_paused():
            text = dumps_indented(matrix_to_json(matrix, reveal=args.reveal))
        write_json(text)
    else:
        width = table_width(sys.stdout, args.width)
        colour = colour_wanted(sys.stdout)
        table = render_table(matrix, reveal=args.reveal, width=width, colour=colour)
        # the table escaped its own text; only its colours reach the terminal as sequences
        out = raw_stream(sys.stdout) if colour else sys.stdout
        print(table, file=out)
    return 1 if any(r.status == "error" for r in matrix.rows) or matrix.errors else 0
