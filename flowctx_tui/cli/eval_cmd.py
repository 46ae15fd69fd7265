"""``flowctx eval``: evaluate one condition, or a batch of them, from the command line.

Exit codes: 0 true, 1 false, 3 the expression could not be evaluated, 2 unusable arguments.
``--batch`` always exits 0 once its input is readable: each line's outcome is on its own line.
Values read from ``context`` (or, for ag2 and mozaiks, from the context given with ``--context``)
and values under secret-looking keys are masked in explain output. Every result names the engine
(and version) whose answer it predicts, and lists the warnings for answers that would surprise.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any

from flowctx_core.base.jsontext import JsonTextError, parse_json
from flowctx_core.base.jsonwrite import dumps_compact
from flowctx_core.expressions import DIALECTS, EvalResult, evaluate
from flowctx_core.expressions.mj.errors import wrapper_hint
from flowctx_core.expressions.pathcontext import build_path_context
from flowctx_tui.cli.common import MAX_ARG_FILE_BYTES, UsageError, fail, load_json_arg
from flowctx_tui.cli.options import add_format_arg
from flowctx_tui.cli.terminal import raw_stream
from flowctx_tui.cli.workspace_args import add_now_arg, pin_now

_PATH_CONTEXT_FLAGS = ("data", "payload", "step_result", "flow_context")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "expr",
        nargs="?",
        metavar="EXPRESSION",
        help="the condition (use -- before one starting with -)",
    )
    parser.add_argument(
        "--dialect",
        "-d",
        choices=DIALECTS,
        default="mj",
        help="the engine whose answer to predict: mj (MemberJunction path conditions), ag2 "
        "(AG2 ContextExpression), mozaiks (Mozaiks context_expression) or python "
        "(default: mj)",
    )
    parser.add_argument("--data", metavar="JSON|@FILE", help="params.data")
    parser.add_argument("--context", metavar="JSON|@FILE", help="params.context (ag2: the scope)")
    parser.add_argument("--payload", metavar="JSON|@FILE", help="the agent payload")
    parser.add_argument("--step-result", metavar="JSON|@FILE", help="the last step's result")
    parser.add_argument(
        "--flow-context",
        metavar="JSON|@FILE",
        help="{currentStepId, completedSteps, executionPath, stepCount}",
    )
    parser.add_argument(
        "--scope", metavar="JSON|@FILE", help="all top-level names at once (instead of the above)"
    )
    parser.add_argument("--explain", action="store_true", help="show every sub-expression's value")
    add_now_arg(parser)
    add_format_arg(
        parser, {"text": "true or false (or the error), then warnings", "json": "one object"}
    )
    parser.add_argument(
        "--batch",
        metavar="FILE|-",
        help='evaluate JSON lines {"expr", "dialect", "scope"}; one JSON result per line',
    )


def run(args: argparse.Namespace) -> int:
    try:
        pin_now(args)
    except UsageError as exc:
        return fail(str(exc))
    if args.batch is not None:
        if args.expr is not None:
            return fail("give either EXPRESSION or --batch, not both")
        return _run_batch(args.batch)
    if args.expr is None:
        return fail("missing EXPRESSION (or use --batch FILE)")
    try:
        scope, secret_roots = _scope(args)
    except UsageError as exc:
        return fail(str(exc))
    result = evaluate(
        args.expr, scope, args.dialect, explain=args.explain, secret_roots=secret_roots
    )
    hint = _hint(args.expr, args.dialect, result)
    if args.format == "json":
        doc = result.to_json(explain=args.explain)
        if hint:
            doc["hint"] = hint
        print(json.dumps(doc))
    else:
        # the engine's error is the command's error: on standard error, the verdict (and the
        # explain tree, warnings, engine) on standard output
        out, err = _text(args.expr, result, args.explain, hint)
        for line in err:
            print(line, file=sys.stderr)
        for line in out:
            print(line)
    if not result.success:
        return 3
    return 0 if result.value else 1


def _scope(args: argparse.Namespace) -> tuple[dict[str, Any], frozenset[str] | None]:
    """The names the expression sees, and where secrets live in them (None: the default)."""
    given = [f for f in _PATH_CONTEXT_FLAGS if getattr(args, f) is not None]
    if args.scope is not None:
        if given or args.context is not None:
            raise UsageError(
                "--scope gives every name; do not combine it with --data/--context/..."
            )
        scope = load_json_arg(args.scope, "--scope", negative_zero=args.dialect == "mj")
        if not isinstance(scope, dict):
            raise UsageError("--scope must be a JSON object (name -> value)")
        return scope, None
    if args.dialect in ("ag2", "mozaiks"):
        if given:
            flags = ", ".join("--" + f.replace("_", "-") for f in given)
            raise UsageError(
                f"{flags}: {args.dialect} expressions read context variables; use --context"
            )
        context = load_json_arg(args.context, "--context")
        if context is None:
            context = {}
        if not isinstance(context, dict):
            raise UsageError("--context must be a JSON object (variable -> value)")
        # per value, as mj's context: secret-looking names and URI passwords are masked
        return context, None
    js = args.dialect == "mj"  # -0 in the JSON stays -0 for node, as its JSON.parse reads it
    flow = load_json_arg(args.flow_context, "--flow-context", js)
    if flow is not None and not isinstance(flow, dict):
        raise UsageError("--flow-context must be a JSON object")
    scope = build_path_context(
        payload=load_json_arg(args.payload, "--payload", js),
        step_result=load_json_arg(args.step_result, "--step-result", js),
        flow_context=flow,
        data=load_json_arg(args.data, "--data", js),
        context=load_json_arg(args.context, "--context", js),
    )
    return scope, None


def _hint(expr: str, dialect: str, result: EvalResult) -> str | None:
    """What the engine's error message does not say (only MemberJunction's wrapper, today)."""
    error = result.error
    if dialect != "mj" or error is None:
        return None
    return wrapper_hint(expr, error.message, error.start)


def _text(
    expr: str, result: EvalResult, explain: bool, hint: str | None = None
) -> tuple[list[str], list[str]]:
    """The lines for standard output (the verdict, the explain tree, warnings) and for
    standard error (the engine's error, its caret and hint)."""
    lines: list[str] = []
    errors: list[str] = []
    if result.success:
        lines.append("true" if result.value else "false")
    else:
        error = result.error
        errors.append(f"error: {error.message if error else 'unknown error'}")
        if error is not None and error.start is not None:
            errors.extend(caret(expr, error.start, error.end))
        if hint:
            errors.append(f"hint: {hint}")
    if explain and result.explain is not None:
        lines.extend(result.explain.lines())  # its root carries the warnings
    else:
        lines.extend(f"warning: {w}" for w in result.warnings)
    if explain:  # the verdict stays the first (and, for scripts, only) line otherwise
        lines.append(f"engine: {result.engine}")
    return lines, errors


def caret(text: str, start: int, end: int | None) -> list[str]:
    """The line of ``text`` holding ``start`` and a ``^^^`` line under ``start:end``."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    if line_end < 0:
        line_end = len(text)
    line = text[line_start:line_end].replace("\t", " ")
    column = start - line_start
    width = max(1, min(end if end is not None else start + 1, line_end) - start)
    return [f"  {line}", f"  {' ' * column}{'^' * width}"]


def _run_batch(source: str) -> int:
    try:
        stream: IO[str] = sys.stdin if source == "-" else open(source, encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        return fail(f"--batch: cannot read {source}: {exc.strerror or exc}")
    out = sys.stdout
    raw = raw_stream(out)
    try:
        for result in batch(_bounded_lines(stream)):
            text = dumps_compact(result) + "\n"
            # ASCII JSON without DEL holds nothing a terminal acts on (write_json's rule)
            (raw if text.isascii() and "\x7f" not in text else out).write(text)
    except _LineTooLong as exc:
        return fail(
            f"--batch: line {exc.number} is longer than {MAX_ARG_FILE_BYTES:,} characters; "
            "the batch stops there"
        )
    except UnicodeDecodeError:
        return fail(f"--batch: {source} is not UTF-8 text")
    finally:
        if stream is not sys.stdin:
            stream.close()
    return 0


class _LineTooLong(Exception):
    def __init__(self, number: int) -> None:
        self.number = number


def _bounded_lines(stream: IO[str]) -> Iterator[str]:
    """The stream's lines, each read with a cap: ``--batch /dev/zero`` has no line end."""
    number = 0
    while line := stream.readline(MAX_ARG_FILE_BYTES + 1):
        number += 1
        if len(line) > MAX_ARG_FILE_BYTES:
            raise _LineTooLong(number)
        yield line


def batch(lines: Iterable[str]) -> Iterable[dict[str, Any]]:
    """One ``{"success", "value", "error", "engine", "warnings"}`` per non-blank input line."""
    for number, line in enumerate(lines, 1):
        if line.strip():
            yield _batch_line(line, number)


def _bad(number: int, message: str) -> dict[str, Any]:
    return {
        "success": False,
        "value": None,
        "error": f"line {number}: {message}",
        "engine": None,
        "warnings": [],
    }


def _batch_line(line: str, number: int) -> dict[str, Any]:
    try:
        item = parse_json(line)
    except JsonTextError as exc:
        # huge integers and deep nesting too: one bad line never stops the batch
        return _bad(number, f"{exc} (column {exc.column})")
    if not isinstance(item, dict):
        return _bad(number, 'expected a JSON object {"expr", "dialect", "scope"}')
    expr = item.get("expr")
    if not isinstance(expr, str):
        return _bad(number, 'missing "expr" (a string)')
    dialect = item.get("dialect", "mj")
    if dialect not in DIALECTS:
        # the value is not echoed: a misplaced field may hold a secret
        return _bad(number, f'unknown "dialect" (expected one of {", ".join(DIALECTS)})')
    if dialect == "mj" and "-0" in line:
        item = parse_json(line, negative_zero=True)  # -0 in the scope stays -0, as in node
    scope = item.get("scope", {})
    if scope is None:
        scope = {}
    if not isinstance(scope, dict):
        return _bad(number, '"scope" must be a JSON object')
    result = evaluate(expr, scope, dialect)
    return {
        "success": result.success,
        "value": result.value,
        "error": result.error.message if result.error else None,
        "engine": result.engine,
        "warnings": list(result.warnings),
    }
