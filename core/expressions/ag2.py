"""AG2's ``ContextExpression`` as ag2 0.14.0 ships it (``autogen.agentchat.group``), predicted.

ContextExpression works on text, and this front end follows it step by step:

1. Construction converts the text: string literals (``'...'`` or ``"..."``, no escapes) are set
   aside; ``!`` before ``${`` or ``(`` becomes ``not``; ``&``/``|`` with whitespace on both
   sides become ``and``/``or``; the literals are put back; each ``${name}`` (any text up to
   ``}``) becomes ``name``, and Python parses the result against an allowlist (names,
   constants, not/and/or, unary minus, the six comparisons, ``len`` with one argument). A
   refusal here is a compile error.
2. Evaluation pastes values into the converted text: first every ``len(${name})`` becomes the
   value's length (0 when it has none), then every other ``${name}``, anywhere (inside quotes
   and comments too), becomes the value's text: numbers and booleans as Python writes them,
   strings in single quotes with ``\\`` and ``'`` escaped, lists and dicts as True/False by
   truthiness, None as None. A missing variable is a KeyError. Python evaluates the pasted text
   without checking it again.

flowctx never runs that text. When every pasted value is one Python token that reads back as
the value (the usual case), the pasted text has the shape parsed at compile time, so the cached
tree is evaluated over the pasted values, with no parsing on the hot path. Otherwise (a string
holding a line break or ``${``, a ``${...}`` inside a string literal or next to other text...)
the pasted text is built exactly as AG2 builds it, parsed, and evaluated only while it stays
within the allowlist; past that the runtime would execute it, and flowctx refuses and says so.
"""

from __future__ import annotations

import ast
import builtins
import operator as op
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any, ClassVar, Final

from flowctx_core.base.secrets import is_secret_key
from flowctx_core.expressions.budget import BUDGET, charge
from flowctx_core.expressions.engines import ENGINES
from flowctx_core.expressions.sandbox import (
    Compiled,
    ExprError,
    ExpressionError,
    SandboxError,
    SandboxEval,
    Trace,
    deep_recursion,
    describe_node,
    name_error,
    named_type,
    span_of,
    tree_depth,
)
from flowctx_core.expressions.textmap import (
    MappedText,
    parse_mapped,
    parser_gave_up,
    quiet_parse,
)

ENGINE: Final = ENGINES["ag2"]
#: flowctx's own bound (the runtime has none); conditions are far shorter
MAX_TEXT: Final = 10_000
#: a longer text is still converted and parsed, to say the parser's error when it has one
#: (deep nesting: `${x} and (` 1,000 times is 11,004 characters), within these bounds
MAX_PARSED: Final = 200_000
_MAX_PARSED_PIECES: Final = 2_000

_VAR: Final = re.compile(r"\$\{([^}]*)\}")
_LITERAL: Final = re.compile(r"'[^']*'|\"[^\"]*\"")
#: the placeholder a hidden string literal stands as while the operators are converted
_PLACEHOLDER: Final = re.compile(r"__STRING_LITERAL_(\d+)__")
_BANG: Final = re.compile(r"!\s*(\$\{|\()")
# AG2 writes r"\s+&\s+"; every match starts where a run of whitespace starts (a match ends past
# the whole run after the operator), so the lookbehind finds the same matches, without trying
# each position of a long run of spaces again (quadratic: 0.4 s for 10,000 spaces)
_AND: Final = re.compile(r"(?<!\s)\s+&\s+")
_OR: Final = re.compile(r"(?<!\s)\s+\|\s+")
_LEN: Final = re.compile(r"len\(\$\{([^}]*)\}\)")
#: what keeps a pasted string from reading back as itself: a line break or NUL ends or breaks
#: the literal, a surrogate is not UTF-8, and ${ may be replaced by a later variable
_UNSAFE_STR: Final = re.compile("[\n\r\x00\ud800-\udfff]|\\$\\{")
_MARK: Final = "__fx"
#: how Python writes the floats that have no literal: pasted, they read as (undefined) names
_FLOAT_NAMES: Final = frozenset({"inf", "nan"})
#: the longest text flowctx pastes the values into and parses (Python's parser takes 0.16 s and
#: 14 MB for 100,000 characters of many tokens; the runtime has no limit)
MAX_PASTED: Final = 100_000
#: ints below this paste and parse back safely (Python refuses int text over 4300 digits)
_INT_LIMIT: Final = 10**4000

ALLOWED_NODES: Final[frozenset[type[ast.AST]]] = frozenset(
    {
        ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub,
        ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE,
        ast.Name, ast.Load, ast.Constant, ast.Call,
    }
)  # fmt: skip

#: What ``eval`` inside ContextExpression.evaluate resolves a bare name to, besides builtins:
#: the module's globals and, depending on the text, the method's locals.
_MODULE_GLOBALS: Final = frozenset(
    {"ast", "re", "dataclass", "ContextVariables", "ContextExpression", "__builtins__",
     "__cached__", "__doc__", "__file__", "__loader__", "__name__", "__package__", "__spec__"}
)  # fmt: skip
_LOCALS: Final = frozenset({"self", "context_variables", "eval_expr", "len_pattern", "len_matches"})


class FrameObject:
    """A Python object of AG2's evaluator that a bare name reads (``self``, the module ``re``,
    the class ``ContextVariables``...): truthy, equal only to itself, ordered with nothing.
    Reading it runs nothing (the only call AG2 allows is ``len``), so it is predicted."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<AG2's {self.name}>"


#: what flowctx predicts a bare name of AG2's frame reads: ``__debug__`` (True: runtimes do
#: not run with -O); Python's builtins (functions, classes, Ellipsis...), the ContextExpression
#: itself and the module's imports and classes as inert stand-ins with their semantics here
#: (truthy, equal only to themselves, ordered with nothing): the real objects never reach a
#: result. The other locals and the dunders hold values of the running evaluator (its text,
#: the file path...): refused as not reproduced.
_OPAQUE_FRAME: Final = frozenset(
    {"self", "ast", "re", "dataclass", "ContextVariables", "ContextExpression"}
)
_STAND_INS: dict[str, FrameObject] = {}
#: the builtins that are constants: only an NFKC-folded spelling (`Ｔｒｕｅ`) reads them by name
_CONSTANT_NAMES: Final = {"True": True, "False": False, "None": None}


def _frame_value(name: str) -> Any:
    """The value a bare frame name reads, or ``_NOT_MODELLED``."""
    if name == "__debug__":
        return True
    if name == "Ellipsis":
        # builtins' Ellipsis is the constant `...` itself (`Ellipsis == ...` is True): an inert
        # value, so the name reads the constant, not a stand-in equal only to itself
        return ...
    if name in _CONSTANT_NAMES:
        # Python folds an identifier to NFKC: `Ｔｒｕｅ` is the name True, not the keyword,
        # and builtins holds the constant under it
        return _CONSTANT_NAMES[name]
    modelled = name in _OPAQUE_FRAME or (
        not name.startswith("__")
        and name not in _LOCALS
        and name not in _MODULE_GLOBALS
        and name not in _LEN_LOCALS
        and hasattr(builtins, name)
    )
    if not modelled:
        return _NOT_MODELLED
    stand_in = _STAND_INS.get(name)
    if stand_in is None:
        kind = _OPAQUE_TYPES.get(name) or type(getattr(builtins, name)).__name__
        stand_in = _STAND_INS.setdefault(name, named_type(FrameObject, kind)(name))
    return stand_in


#: the type names Python gives the frame's own objects, which its errors say
_OPAQUE_TYPES: Final = {
    "self": "ContextExpression",
    "ast": "module",
    "re": "module",
    "dataclass": "function",
    "ContextVariables": "ModelMetaclass",
    "ContextExpression": "type",
}


_NOT_MODELLED: Final = object()
_LEN_LOCALS: Final = frozenset({"match", "var_name", "var_value", "length_value", "full_match"})


class WouldExecute(SandboxError):
    """The runtime would evaluate text outside its own allowlist (or read its own internals)."""


@dataclass(frozen=True, slots=True)
class Plan:
    converted: str  # the text AG2 pastes values into
    names: tuple[str, ...]  # the ${names} of the text, in order, repeats kept (AG2's list)
    lens: tuple[tuple[str, str], ...]  # (name, its "len(${name})" text), in order
    measured: frozenset[str]  # names AG2 pastes as a length, and never as a value
    pasted: tuple[str, ...]  # the other names, distinct, in order
    fast: bool  # the cached tree is the pasted text's tree for single-token values
    frame: frozenset[str]  # bare names the runtime's eval resolves to its own objects
    compared: frozenset[str]  # names whose pasted value is compared or measured with len()
    bare: frozenset[str]  # names in the text that are not ${...} variables
    depth: int = 0  # how deep the tree nests (room on the stack to evaluate it)


class Ag2Compiled(Compiled):
    __slots__ = ("plan",)
    plan: Plan | None

    def __init__(self, *args: Any, plan: Plan | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        object.__setattr__(self, "plan", plan)


def _convert(text: MappedText) -> MappedText:
    """The text with AG2's operator spellings turned into Python, as construction does."""
    literals: list[MappedText] = []

    def hide(match: re.Match[str], src: MappedText) -> MappedText:
        literals.append(src.slice(match.start(), match.end()))
        start, end = src.span(match.start(), match.end(), match.end())
        return MappedText.inserted(f"__STRING_LITERAL_{len(literals) - 1}__", start, end)

    def bang(match: re.Match[str], src: MappedText) -> MappedText:
        start, end = src.span(match.start(), match.start() + 1, match.end())
        return MappedText.inserted("not ", start, end) + src.slice(match.start(1), match.end(1))

    out = text.sub(_LITERAL, hide).sub(_BANG, bang).sub_text(_AND, " and ").sub_text(_OR, " or ")
    if "STRING_LITERAL" not in text.text:
        # only the placeholders hidden above, apart and in order: one pass puts them back as
        # AG2's replacement of each in turn does (each pass over the whole text made a text of
        # many literals quadratic: 1,200 of them took seconds)
        return out.sub(_PLACEHOLDER, lambda m, _: literals[int(m.group(1))])
    for i, literal in enumerate(literals):
        out = out.replace(f"__STRING_LITERAL_{i}__", literal)
    return out


#: how deep flowctx follows a text (``not not ...``, ``!(!(...))``): AG2 0.14.0 validates the
#: tree recursively, so it stops at Python's recursion limit, about 990 levels less the depth
#: it is called at (a runtime calls it some frames deep); Python's parser stops nested
#: parentheses at 200 on its own
AG2_MAX_DEPTH: Final = 900
_COMPARISONS: Final = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def _refusal(node: ast.AST) -> str | None:
    """ContextExpression's own refusal of one node, in its words and in its order: the node's
    type, then a call's callee and arity, then a comparison's operators."""
    if type(node) not in ALLOWED_NODES:
        return f"Operation type {type(node).__name__} is not allowed in logical expressions"
    if isinstance(node, ast.Call):
        func = node.func
        if not (isinstance(func, ast.Name) and func.id == "len"):
            return f"Only the len() function is allowed, got: {getattr(func, 'id', 'unknown')}"
        if len(node.args) != 1:
            return f"len() function must have exactly one argument, got {len(node.args)}"
    if isinstance(node, ast.Compare):
        for op in node.ops:
            if not isinstance(op, _COMPARISONS):
                return f"Comparison operator {type(op).__name__} is not allowed"
    return None


def _validate(tree: ast.AST) -> None:
    """The walk construction makes (depth first, each node before its children, children left
    to right), so the first refusal is the one AG2 raises; iterative, so a deep text cannot
    exhaust flowctx's stack."""
    stack: list[tuple[ast.AST, int, tuple[int, int]]] = [(tree, 1, span_of(tree))]
    while stack:
        node, depth, parent_span = stack.pop()
        span = span_of(node, parent_span)
        if depth > AG2_MAX_DEPTH:
            raise ExpressionError(
                f"Expression is nested too deeply for flowctx (more than {AG2_MAX_DEPTH} "
                f"levels; flowctx's bound: {ENGINE} goes on to Python's recursion limit, "
                "about 990 levels less the depth it is called at)",
                *span,
            )
        refused = _refusal(node)
        if refused is not None:
            raise ExpressionError(refused, *span)
        children = list(ast.iter_child_nodes(node))
        stack.extend((child, depth + 1, span) for child in reversed(children))


def _hint(text: str, said: str) -> str:
    """Why AG2 refused an operator spelling an author meant, said after the engine's words."""
    if said.startswith("Operation type BinOp") and re.search(r"\S[&|]|[&|]\S", text):
        return "AG2 reads & and | as and / or only with whitespace on both sides"
    if "(<unknown>, line" in said:
        if "&&" in text or "||" in text:
            return "write and / or (or & / | between spaces)"
        if re.search(r"!\s*[^\s$(=]", text):
            return "AG2 reads ! as not only before ${ or ("
    return ""


def _is_name(name: str) -> bool:
    return name.isidentifier() and name.isascii() and not _is_keyword(name)


def _is_keyword(name: str) -> bool:
    import keyword

    return keyword.iskeyword(name) or keyword.issoftkeyword(name)


def _frame_names(names: tuple[str, ...], measured: frozenset[str], lens: bool) -> frozenset[str]:
    found = set(_LOCALS) | set(_MODULE_GLOBALS) | set(dir(builtins))
    if lens:
        found |= _LEN_LOCALS
    if names:
        found.add("var_name")
    if any(n not in measured for n in names):
        found |= {"var_value", "formatted_value"}
    return frozenset(found)


def _probe(
    converted: MappedText, lens: tuple[tuple[str, str], ...], names: tuple[str, ...], text: str
) -> ast.expr | None:
    """The tree of the pasted text when every value pastes as one token, or None when the
    shape of the pasted text depends on the values."""
    measured = {n for n, _ in lens}
    if _MARK in text or not all(_is_name(n) for n in (*names, *measured)):
        return None
    holes: dict[str, str] = {}
    probe = converted
    for name, full in lens:
        hole = holes.setdefault(name, f"{_MARK}{len(holes)}__")
        probe = probe.replace(full, hole)
    for name in names:
        if name not in measured:
            holes.setdefault(name, f"{_MARK}{len(holes)}__")
    probe = _unwrapped(probe, names, {n: h for n, h in holes.items() if n not in measured})
    try:
        tree = parse_mapped(probe, text)
    except ExpressionError:
        return None
    by_hole = {hole: name for name, hole in holes.items()}
    callees = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            if node.id in by_hole and id(node) not in callees:
                node.id = by_hole[node.id]  # a hole reads its variable's pasted value
            elif _MARK in node.id or node.id in holes or node.id in by_hole:
                return None  # a hole glued to other text, or a bare name that is a variable
        elif isinstance(node, ast.Constant) and (
            (isinstance(node.value, str) and _MARK in node.value)
            or (isinstance(node.value, bytes) and _MARK.encode() in node.value)
        ):
            return None  # pasted inside a string or bytes literal (b'${s}'): the text decides
    return tree


def _compared(tree: ast.AST, names: frozenset[str]) -> frozenset[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        operands: list[ast.AST] = []
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
        elif isinstance(node, ast.Call):
            operands = list(node.args)
        found |= {o.id for o in operands if isinstance(o, ast.Name) and o.id in names}
    return frozenset(found)


def _static_warnings(
    text: str, plan: Plan, sanitized: ast.AST, variables: frozenset[str]
) -> tuple[str, ...]:
    out: list[str] = []
    for match in _LITERAL.finditer(text):
        inner = [m.group(1) for m in _VAR.finditer(match.group(0))]
        if inner:
            out.append(
                f"{match.group(0)} is a string literal holding ${{{inner[0]}}}: AG2 pastes "
                "the value's text there too (a string with its quotes), so the string is not "
                "what it reads"
            )
    rest = plan.converted
    for _, full in plan.lens:
        rest = rest.replace(full, "")
    for name in sorted(plan.measured):
        if "${" + name + "}" in rest:
            out.append(
                f"${{{name}}} is used both in len(${{{name}}}) and on its own: AG2 0.14.0 "
                "pastes only the len() use and leaves the other in the text, so this "
                "expression never evaluates"
            )
    for name in dict.fromkeys(plan.names):
        if name != name.strip() and _is_name(name.strip()):
            out.append(
                f"${{{name}}} looks up a variable named {name!r}, spaces included "
                "(AG2 does not trim them)"
            )
    for node in ast.walk(sanitized):
        if (
            isinstance(node, ast.Call)
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id in variables
            and node.args[0].id not in plan.measured
        ):
            name = node.args[0].id
            out.append(
                f"len() around ${{{name}}} is not written len(${{{name}}}): AG2 measures "
                "only that exact spelling; here it pastes the value's text, so only a string "
                "has a length (a list, dict, number or boolean fails)"
            )
        elif (
            isinstance(node, ast.Name)
            and node.id not in variables
            and node.id != "len"
            and node.id not in plan.frame
        ):
            out.append(
                f"'{node.id}' is not a ${{...}} variable: AG2 evaluates it as a Python name, "
                f"which is not defined (write ${{{node.id}}})"
            )
    return tuple(dict.fromkeys(out))


def _value_warnings(plan: Plan, scope: Mapping[str, Any]) -> tuple[str, ...]:
    out: list[str] = []
    for name in plan.pasted:
        value = scope.get(name)
        if isinstance(value, str):
            if "\n" in value or "\r" in value:
                out.append(
                    f"the value of ${{{name}}} holds a line break: AG2 pastes it into the "
                    "expression text, where it ends the string literal, so the expression "
                    "does not evaluate"
                )
            elif "${" in value:
                out.append(
                    f"the value of ${{{name}}} contains '${{': AG2 pastes it into the text "
                    "before the variables after it, so a ${...} in the value is replaced too"
                )
        elif isinstance(value, (list, dict, tuple)) and name in plan.compared:
            what = "dict" if isinstance(value, dict) else "list"
            out.append(
                f"${{{name}}} is a {what}: AG2 pastes it into the text as {bool(value)} "
                f"(its truthiness), so it is compared as {bool(value)}, not as a {what}"
            )
    return tuple(out) if out else ()


def _too_long(text: str) -> ExpressionError:
    """A text past flowctx's bound: the parser's error AG2 raises first, when the converted
    text does not parse (construction parses before it checks anything), else a refusal.
    The conversion is AG2's on plain text; within MAX_PARSED and a bounded count of string
    literals and variables (AG2 replaces each one over the whole text)."""
    refused = ExpressionError(
        f"Expression is too long for flowctx ({len(text)} characters; it reads at most "
        f"{MAX_TEXT}, the runtime has no limit)",
        MAX_TEXT,
        len(text),
    )
    names = [m.group(1) for m in _VAR.finditer(text)]
    if not any("$" in name or "{" in name for name in names):
        # a name pasted back cannot spell a new ${...} then, so a repeat finds nothing left
        names = list(dict.fromkeys(names))
    literals = [m.group(0) for m in _LITERAL.finditer(text)]
    if len(text) > MAX_PARSED or len(names) + len(literals) > _MAX_PARSED_PIECES:
        return refused
    hidden = iter(range(len(literals)))
    out = _LITERAL.sub(lambda _: f"__STRING_LITERAL_{next(hidden)}__", text)
    out = _OR.sub(" or ", _AND.sub(" and ", _BANG.sub(r"not \1", out)))
    for i, literal in enumerate(literals):
        out = out.replace(f"__STRING_LITERAL_{i}__", literal)
    for name in names:
        out = out.replace("${" + name + "}", name)
    try:
        quiet_parse(out)
    except SyntaxError as exc:
        said = str(exc)
    except (RecursionError, MemoryError) as exc:
        said = parser_gave_up(exc)
    except ValueError as exc:  # null bytes, text that is not UTF-8 encodable
        said = str(exc)
    else:
        return refused
    hint = _hint(text, said)
    return ExpressionError(f"{said}; {hint}" if hint else said, 0, len(text))


def _unwrapped(
    converted: MappedText, names: tuple[str, ...], written: dict[str, str]
) -> MappedText:
    """The text with each ``${name}`` of ``written`` written as its text, as a replacement of
    each name's in turn, in the order of ``names``, writes them (AG2's of each name by the name
    itself). Where every name and text is some text without ``$``, ``{`` or ``}``, no
    replacement can make or break another's (an empty one can: ``$${}{`` becomes ``${``), so one
    pass does it (a pass over the whole text per name made a text of 900 names take seconds)."""
    if all(n and t and not any(c in n + t for c in "${}") for n, t in written.items()):

        def text_of(match: re.Match[str], src: MappedText) -> MappedText:
            if match.group(1) not in written:  # (a name the conversion changed, or not asked)
                return src.slice(match.start(), match.end())
            start, end = src.span(match.start(), match.end(), match.end())
            return MappedText.inserted(written[match.group(1)], start, end)

        return converted.sub(_VAR, text_of)
    for name in names:
        if name in written:
            converted = converted.replace("${" + name + "}", written[name])
    return converted


def compile_ag2(text: str) -> Compiled:
    if not isinstance(text, str):
        raise ExpressionError("Expression must be a non-empty string", 0, 0)
    # an empty text goes on to Python's parser, whose words AG2 raises
    if len(text) > MAX_TEXT:
        raise _too_long(text)
    names = tuple(m.group(1) for m in _VAR.finditer(text))
    converted = _convert(MappedText.of(text))
    sanitized = _unwrapped(converted, names, {n: n for n in names})
    try:
        tree = parse_mapped(sanitized, text)
        _validate(tree)
    except ExpressionError as exc:
        hint = _hint(text, exc.error.message)
        if not hint:
            raise
        raise ExpressionError(
            f"{exc.error.message}; {hint}", exc.error.start, exc.error.end
        ) from None

    lens = tuple((m.group(1), m.group(0)) for m in _LEN.finditer(converted.text))
    measured = frozenset(n for n, _ in lens)
    variables = frozenset(names) | measured
    probe = _probe(converted, lens, names, text)
    plan = Plan(
        converted=converted.text,
        names=names,
        lens=lens,
        measured=measured,
        pasted=tuple(n for n in dict.fromkeys(names) if n not in measured),
        fast=probe is not None,
        frame=_frame_names(names, measured, bool(lens)),
        compared=_compared(tree, variables),
        bare=frozenset(
            n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id not in variables
        ),
        depth=tree_depth(tree),
    )
    # AG2 looks the len() names up first, then the others in text order
    order = [*dict.fromkeys(n for n, _ in lens), *plan.pasted]
    required = []
    for name in order:
        at = text.find("${" + name + "}")
        start, end = (at, at + len(name) + 3) if at >= 0 else (0, len(text))
        required.append((name, start, end))
    return Ag2Compiled(
        text=text,
        dialect="ag2",
        tree=probe if probe is not None else tree,
        names=variables,
        required=tuple(required),
        evaluator=Ag2Eval,
        truthy=bool,
        builtins=frozenset(),
        missing=Ag2Eval.missing,
        warnings=_static_warnings(text, plan, tree, variables),
        warn=partial(_value_warnings, plan),
        plan=plan,
    )


# --- evaluation ------------------------------------------------------------------------------


def length(value: Any) -> int:
    """What AG2 pastes for ``len(${x})``: the length, or 0 for a value without one."""
    try:
        return len(value)
    except TypeError:
        return 0


#: Python's words when str() of an int passes its digit limit (the runtime's str() of a
#: pasted value raises them, unwrapped), then why
_TOO_MANY_DIGITS: Final = (
    "Exceeds the limit (4300 digits) for integer string conversion; use "
    "sys.set_int_max_str_digits() to increase the limit; AG2 pastes the integer into the "
    "text as digits"
)


def _pasted_text(value: Any) -> str:
    """AG2's text for a value."""
    if isinstance(value, (bool, int, float)):
        try:
            return str(value)
        except ValueError:
            raise SandboxError(_TOO_MANY_DIGITS) from None
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(value, (list, dict, tuple)):
        return str(bool(value))
    try:
        return str(value)
    except ValueError as exc:  # a set holding an int too long for str(): Python's words
        raise SandboxError(f"{exc}; AG2 pastes the value into the text as its text") from None


class Ag2Eval(SandboxEval):
    """Python's semantics over the pasted values; only ``len`` can be called."""

    FUNCTIONS: ClassVar = {"len": len}

    def __init__(self) -> None:
        super().__init__()
        self.frame: frozenset[str] = frozenset()
        self.pasted_names: frozenset[str] = frozenset()  # names that came out of values
        self.pasted_from: tuple[str, ...] = ()  # the variables pasted into the text

    def handlers(self) -> dict[type, Any]:
        return {
            ast.Constant: self._eval_constant,
            ast.Name: self._eval_name,
            ast.Call: self._eval_call,
            ast.UnaryOp: self._eval_unaryop,
            ast.BoolOp: self._eval_boolop,
            ast.Compare: self._eval_compare,
            ast.BinOp: self._eval_binop,
            # only a set pasted as its text makes these (the author's text cannot hold them)
            ast.Set: self._eval_set,
            ast.Tuple: self._eval_tuple,
            ast.Attribute: self._eval_attribute,
        }

    def _eval_set(self, node: ast.Set) -> set[Any]:
        return set([self._eval(item) for item in node.elts])

    @staticmethod
    def missing(name: str) -> str:
        return f"Missing context variable: '{name}'"

    def _eval_name(self, node: ast.Name) -> Any:
        try:
            return self.names[node.id]
        except KeyError:
            pass
        from_value = node.id in self.pasted_names  # never quoted: it comes from a value
        if node.id in self.frame or from_value:
            value = _frame_value(node.id)
            if value is not _NOT_MODELLED:
                return value
            if node.id in self.frame:
                shown = "a name that came out of a value" if from_value else f"'{node.id}'"
                raise SandboxError(
                    f"{ENGINE} would read its own evaluator's variable {shown} here, not a "
                    f"context variable; flowctx does not reproduce that value"
                    + ("" if from_value else f" (write ${{{node.id}}} for a context variable)")
                )
        if from_value:
            if any(is_secret_key(name) for name in self.pasted_from):
                # the name holds a secret-looking variable's value: never shown
                raise SandboxError(
                    "NameError: pasting the values put a name into the text AG2 evaluates "
                    "(not shown: it holds a secret-looking variable's value), and Python does "
                    "not know it"
                )
            # Python's words name what the values made (`not${i}` with 5 pastes `not5`)
            raise SandboxError(
                f"{name_error(node.id)}; pasting the values put this name into the text AG2 "
                "evaluates"
            )
        raise SandboxError(name_error(node.id))

    def _eval_binop(self, node: ast.BinOp) -> Any:
        """Only arithmetic that pasting made: Python's own '-', '+' or '/' between plain values
        (the numbers, strings, booleans and None a context holds), with Python's words."""
        left, right = self._eval(node.left), self._eval(node.right)
        if not all(type(v) in _PLAIN for v in (left, right)):
            raise WouldExecute(
                f"{ENGINE} would execute this as code: pasting the values puts arithmetic "
                "of its own evaluator's objects into the text it evaluates unchecked; flowctx "
                "does not run it"
            )
        try:
            return _PASTED_OPERATORS[type(node.op)](left, right)
        except (TypeError, OverflowError, ZeroDivisionError) as exc:
            raise SandboxError(str(exc)) from None

    def _eval_attribute(self, node: ast.Attribute) -> Any:
        """An attribute a value's text spells (an Enum member pastes as `Color.RED`): Python
        reads the name before it, which is undefined (a NameError) unless it is one of the
        evaluator's own objects, whose attributes flowctx does not read."""
        self._eval(node.value)
        raise WouldExecute(
            f"{ENGINE} would read an attribute of its own evaluator's objects here "
            f"(.{node.attr}, pasted from a value's text); flowctx does not reproduce it"
        )

    def _eval_call(self, node: ast.Call) -> Any:
        func = node.func
        if isinstance(func, ast.Name) and func.id == "len":
            return len(self._eval(node.args[0]))
        # pasted from a value's text (a dataclass pastes as `Point(x=1, y=2)`): Python reads
        # the callee first, a name it does not know, so its NameError is the answer
        self._eval(func)
        raise WouldExecute(
            f"{ENGINE} would execute this as code: pasting the values puts a function call "
            "into the text it evaluates unchecked; flowctx does not run it"
        )

    def prepare(self, compiled: Compiled, scope: Mapping[str, Any]) -> None:
        self.expr = compiled.text
        plan = _plan(compiled)
        self.frame = plan.frame
        self.names = _tokens(plan, scope)  # type: ignore[assignment]

    def run(self, compiled: Compiled, scope: Mapping[str, Any]) -> Any:
        plan: Plan = compiled.plan  # type: ignore[attr-defined]  # compile_ag2 made it
        with deep_recursion(plan.depth):
            return self._run(compiled, plan, scope)

    def _run(self, compiled: Compiled, plan: Plan, scope: Mapping[str, Any]) -> Any:
        self.expr = compiled.text
        self.frame = plan.frame
        names = _tokens(plan, scope)
        if names is None:
            return self._run_pasted(plan, scope)
        self.names = names  # type: ignore[assignment]
        return self._eval(compiled.tree)

    def run_traced(self, compiled: Compiled, scope: Mapping[str, Any]) -> Trace:
        with deep_recursion(_plan(compiled).depth):
            return self._run_traced(compiled, scope)

    def _run_traced(self, compiled: Compiled, scope: Mapping[str, Any]) -> Trace:
        plan = _plan(compiled)
        if _tokens(plan, scope) is not None:
            return super().run_traced(compiled, scope)
        # The pasted text has its own shape: the verdict belongs to the whole expression.
        self.prepare(compiled, scope)
        root = compiled.tree
        try:
            value = self._run_pasted(plan, scope)
        except Exception as exc:
            return Trace(records={id(root): (False, exc)}, error=exc, error_node=root)
        return Trace(records={id(root): (True, value)}, value=value)

    def _run_pasted(self, plan: Plan, scope: Mapping[str, Any]) -> Any:
        """Build the text AG2 evaluates, exactly, and evaluate it if it stays checked."""
        text = plan.converted
        for name, full in plan.lens:
            text = _paste(text, full, str(length(scope[name])))
        for name in plan.names:
            if name not in plan.measured:
                text = _paste(text, "${" + name + "}", _pasted_text(scope[name]))
        charge(len(text))  # parsing it
        try:
            tree = _parse_pasted(text)
        except SyntaxError as exc:
            # eval compiles the text as "<string>": Python's words with that file name
            raise SandboxError(
                f"{exc.msg} (<string>, line {exc.lineno}){_UNPARSED}"
                if exc.lineno is not None
                else f"{exc.msg}{_UNPARSED}"
            ) from None
        except ValueError as exc:  # a NUL, or a surrogate UTF-8 cannot encode: Python's words
            raise SandboxError(f"{exc}{_UNPARSED}") from None
        except (RecursionError, MemoryError):
            raise SandboxError("Expression is nested too deeply") from None
        # a value holding ${...} pastes the next variable into itself: its text is the
        # author's no longer, and what it spells is refused below
        chained = any(isinstance(scope[name], str) and "${" in scope[name] for name in plan.names)
        # a call of a name Python does not know (a dataclass pastes as `Point(x=1)`) is left
        # out: its NameError comes first (_eval_call)
        for node in _checked_nodes(tree, None if chained else plan.frame):
            if not chained and type(node) in _PASTED_ARITHMETIC and _pasted_subtraction(node):
                continue  # a pasted number after an operand: `${a}${b}` with -1
            if type(node) in _PASTED_DISPLAYS:
                _check_set_order(node)
                continue  # a set's text ({1, 'a'}, {(1, 2)}): built from its items, no code
            if not chained and type(node) is ast.Attribute:
                continue  # an Enum member's text: its name is read first (_eval_attribute)
            if type(node) not in ALLOWED_NODES or (
                isinstance(node, ast.Call)
                and not (
                    isinstance(node.func, ast.Name)
                    and node.func.id == "len"
                    and len(node.args) == 1
                    and not node.keywords
                )
            ):
                raise WouldExecute(
                    f"{ENGINE} would execute this as code: pasting the values puts "
                    f"{describe_node(node)} into the text it evaluates unchecked; flowctx "
                    "does not run it"
                )
        # A name the author did not write came out of a value (`not${i}` with 5 pastes `not5`):
        # Python reads it only if evaluation reaches it (`or` may short-circuit first), so it
        # is resolved lazily, as eval would: a name of AG2's frame or a NameError.
        self.pasted_names = frozenset(
            node.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Name) and node.id not in plan.bare | _FLOAT_NAMES
        )
        self.pasted_from = plan.names
        self.names = {}
        try:
            return self._eval(tree)
        finally:
            self.pasted_names = frozenset()


#: what pasting a number makes after an operand: a binary '-' (`${a}${b}`, 1 and -1), or a
#: '+' out of an exponent (`not${f}` with 1e+300 pastes `not1e+300`); a '/' is what a
#: Fraction (`1/3`) or a path (`a/b`) pastes as
_PASTED_ARITHMETIC: Final = frozenset({ast.BinOp, ast.Sub, ast.Add, ast.Div})
_PASTED_OPERATORS: Final = {ast.Add: op.add, ast.Sub: op.sub, ast.Div: op.truediv}
#: what a set value pastes as (str() of a set of constants: `{1, -2.5, 'a', (1, 2)}`); its
#: items are checked as any pasted node is
_PASTED_DISPLAYS: Final = frozenset({ast.Set, ast.Tuple})


def _checked_nodes(tree: ast.AST, known: frozenset[str] | None) -> Iterator[ast.AST]:
    """The pasted tree's nodes to check, each before its children, without the calls of a
    bare name not in ``known`` (the names AG2's frame resolves): Python reads that name
    first and stops at its NameError, so nothing in the call runs. With ``known`` None every
    node is checked."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if (
            known is not None
            and type(node) is ast.Call
            and type(node.func) is ast.Name
            and node.func.id not in known
        ):
            continue
        yield node
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _check_set_order(node: ast.AST) -> None:
    """A set lists its items in hash order: for numbers and the constants fixed, for strings
    seeded per process (harmless: a string never fails), for nan by identity. Items that are
    names (nan, inf: undefined) fail at the first one listed, so two different ones make the
    error depend on an order flowctx cannot know."""
    if type(node) is not ast.Set:
        return
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    if len(names) > 1:
        raise SandboxError(
            f"refused: the set pasted here lists {' and '.join(sorted(names))}, undefined "
            "names to Python, in an order its hashes decide: which one AG2's NameError names "
            "is not predictable"
        )


#: the values a context variable pastes as themselves (lists and dicts paste True/False)
_PLAIN: Final = frozenset({int, float, complex, bool, str, type(None)})


def _pasted_subtraction(node: ast.AST) -> bool:
    if type(node) is ast.BinOp:
        return type(node.op) in _PASTED_OPERATORS
    return type(node) in _PASTED_OPERATORS


#: said after Python's words when the pasted text does not parse
_UNPARSED: Final = "; pasting the values made text that does not parse"


def _paste(text: str, hole: str, value: str) -> str:
    """``text.replace(hole, value)``, refused before it is built when it would pass the
    budget: a value holding ``${x}``, pasted for each repeat of ``${x}``, doubles the text
    every time (AG2 builds it until Python runs out of memory)."""
    hits = text.count(hole)
    size = len(text) + hits * (len(value) - len(hole))
    if size > MAX_PASTED:
        raise SandboxError(
            f"refused: the text AG2 pastes the values into would hold more than {MAX_PASTED:,} "
            f"characters ({BUDGET}; AG2 itself would build it until Python runs out of memory)"
        )
    charge(size)
    return text.replace(hole, value)


@lru_cache(maxsize=512)
def _parse_pasted(text: str) -> ast.expr:
    """The same values paste the same text: parse it once (trees are never mutated)."""
    return quiet_parse(text)


def _plan(compiled: Compiled) -> Plan:
    plan = getattr(compiled, "plan", None)
    if plan is None:
        raise TypeError("an ag2 evaluation needs an ag2-compiled expression")
    return plan  # type: ignore[no-any-return]


def _tokens(plan: Plan, scope: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """Each variable's pasted value, or None when some value's text is not one token.

    The hot path: when every value reads back as itself, the scope is used as it is.
    """
    if not plan.fast:
        return None
    changed: dict[str, Any] | None = None
    for name in plan.pasted:
        value = scope[name]
        kind = type(value)
        if kind is str:
            if _UNSAFE_STR.search(value):
                return None
        elif kind is bool or value is None:
            pass
        elif kind is int:
            if not -_INT_LIMIT < value < _INT_LIMIT:
                return None
        elif kind is float:
            if value - value != 0.0:  # inf and nan paste as names
                return None
        elif kind is list or kind is dict or kind is tuple:
            if changed is None:
                changed = {}
            changed[name] = bool(value)
        else:
            return None
    if plan.measured:
        if changed is None:
            changed = {}
        for name in plan.measured:
            changed[name] = length(scope[name])
    if changed is None and (not plan.bare or plan.bare.isdisjoint(scope)):
        return scope
    out = {name: scope[name] for name in plan.pasted}
    if changed:
        out.update(changed)
    return out


def first_lookup_error(
    compiled: Compiled, scope: Mapping[str, Any], missing: ExprError
) -> ExprError:
    """The error AG2 raises first when a variable is missing (``missing``, the first one in
    its lookup order): evaluate measures the len() names first, then pastes the others one by
    one in text order, so a value str() fails on (an int too long for it, or a set holding
    one) pasted before the missing name raises Python's ValueError there, and the KeyError
    is never reached."""
    plan = getattr(compiled, "plan", None)
    if plan is None:
        return missing
    measured_missing = any(name not in scope for name in plan.measured)
    if measured_missing:
        return missing
    for name in plan.pasted:
        if name not in scope:
            return missing
        value = scope[name]
        if type(value) in _PASTES_SAFELY or (
            type(value) is int and -_INT_LIMIT < value < _INT_LIMIT
        ):
            continue
        try:
            _pasted_text(value)
        except SandboxError as exc:
            at = compiled.text.find("${" + name + "}")
            start, end = (at, at + len(name) + 3) if at >= 0 else (0, len(compiled.text))
            return ExprError(str(exc), start, end)
    return missing


#: values whose text AG2 always writes (an int only below Python's digit limit)
_PASTES_SAFELY: Final = frozenset({str, bool, float, list, dict, tuple, type(None)})


def variables(text: str) -> frozenset[str]:
    """The ``${names}`` an expression reads (without evaluating it)."""
    return compile_ag2(text).names


def result_warnings(raw: Any) -> tuple[str, ...]:
    """What AG2's ``evaluate`` returns when the expression ends on a bare name of its frame
    (``print``, ``len``, ``self``): the object itself, not a boolean, which routing reads as
    true. Said with the engine's own repr for Python's builtins (nothing runs to get it: the
    builtins' reprs are fixed); only frame objects are described, never a context value."""
    if raw is ...:
        # `...` or the builtin name Ellipsis (the same constant): truthy, not a boolean
        return (
            "AG2's evaluate returns Ellipsis here, not a boolean: `...` (the builtin Ellipsis) "
            "is an object, always true to routing",
        )
    if not isinstance(raw, FrameObject):
        return ()
    name = raw.name
    shown = repr(getattr(builtins, name)) if name not in _OPAQUE_FRAME else f"AG2's {name}"
    return (
        f"AG2's evaluate returns {shown} here, not a boolean: a bare name of Python's "
        "builtins or of the evaluator's frame is an object, always true to routing (a "
        f"context variable is written ${{{name}}})",
    )
