"""``flowctx matrix``: the resolution matrix of one workflow, as a table or JSON."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import textwrap
from dataclasses import replace

from core.present import display_value, matrix_to_json, short_value
from core.results import Matrix
from core.secrets import mask_text
from flowctx_tui.cli.common import UsageError, fail
from flowctx_tui.cli.launch_args import add_launch_args, resolve_from_args
from flowctx_tui.cli.workspace_args import add_workspace_args

_COLOURS = {"resolved": "32", "default": "36", "fallback": "33", "pending": "2", "error": "31;1"}


def configure(parser: argparse.ArgumentParser) -> None:
    add_workspace_args(parser, path_required=False)
    parser.add_argument("--format", choices=("table", "json"), default="table")
    parser.add_argument("--reveal", action="store_true", help="show secret values unmasked")
    add_launch_args(parser)


def render_table(matrix: Matrix, *, reveal: bool, width: int, colour: bool) -> str:
    cols = ("NAME", "SOURCE", "STATUS", "VALUE", "ORIGIN")
    rows = []
    for r in matrix.rows:
        rows.append(
            [r.name, r.source, r.status, display_value(r, reveal=reveal), mask_text(r.origin)]
        )
    name_w = min(max([len(c[0]) for c in rows] + [4]), 28)
    src_w = min(max([len(c[1]) for c in rows] + [6]), 14)
    stat_w = 8
    rest = max(width - name_w - src_w - stat_w - 8, 20)
    val_w = max(rest * 5 // 9, 10)
    org_w = max(rest - val_w, 10)
    widths = (name_w, src_w, stat_w, val_w, org_w)
    # every line fits ``width``: cells are cut, free text (notes, problems) is wrapped
    lines = [short_value(f"{matrix.workflow}  ({matrix.workspace})", width)]
    if matrix.refused is not None:
        # first: the runtime would stop here, whatever the rows below say
        lines.extend(_wrap(mask_text(matrix.refused.headline("the runtime")), width))
    lines.append("  ".join(c.ljust(w) for c, w in zip(cols, widths, strict=True)).rstrip())
    for r, (name, src, status, value, origin) in zip(matrix.rows, rows, strict=True):
        cells = [
            short_value(name, name_w),
            short_value(src, src_w),
            status,
            short_value(value, val_w),
            short_value(origin, org_w),
        ]
        padded = [c.ljust(w) for c, w in zip(cells, widths, strict=True)]
        if colour:
            padded[2] = f"\x1b[{_COLOURS[status]}m{padded[2]}\x1b[0m"
        lines.append("  ".join(padded).rstrip())
        for w in r.warnings:
            lines.append(f"    ! {short_value(mask_text(w), width - 6)}")
        if r.error:
            lines.append(f"    ✗ {short_value(mask_text(r.error), width - 6)}")
    counts = {s: sum(1 for r in matrix.rows if r.status == s) for s in _COLOURS}
    summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    lines.append(f"{len(matrix.rows)} variables: {summary}")
    if matrix.runtime:
        lines.append(short_value(f"runtime: {matrix.runtime}", width))
    for note in matrix.notes:
        lines.extend(_wrap(f"note: {mask_text(note)}", width))
    for d in matrix.diagnostics:
        lines.extend(_wrap(mask_text(d.format()), width))
    return "\n".join(lines)


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width, subsequent_indent="    ", break_on_hyphens=False) or [""]


def run(args: argparse.Namespace) -> int:
    try:
        resolved = resolve_from_args(args)
    except UsageError as exc:
        return fail(str(exc))
    session, matrix = resolved.session, resolved.matrix
    if session.database_problems:
        matrix = replace(matrix, diagnostics=(*matrix.diagnostics, *session.database_problems))
    if args.format == "json":
        print(json.dumps(matrix_to_json(matrix, reveal=args.reveal), indent=2, default=str))
    else:
        width = shutil.get_terminal_size((80, 24)).columns
        colour = sys.stdout.isatty()
        print(render_table(matrix, reveal=args.reveal, width=width, colour=colour))
    return 1 if any(r.status == "error" for r in matrix.rows) or matrix.errors else 0
