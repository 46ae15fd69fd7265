"""YAML loading that keeps line:column marks for every key and value.

``yaml.compose`` (with the C parser when present) gives the node tree with marks; we build the
Python data ourselves so that duplicate keys are reported rather than silently last-wins, and
so aliases share one object instead of being expanded (a billion-laughs file stays small).
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import GeneratorType
from typing import Any

import yaml

from flowctx_core.base.diagnostics import Diagnostic, Fix
from flowctx_core.base.pathsafety import read_regular_file

try:  # the C parser is several times faster; fall back cleanly where libyaml is missing
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

PathKey = tuple[str | int, ...]

#: Files larger than this are refused with a clear message rather than parsed (a 3,000-variable
#: contract is about 0.8 MB; one 4 MB scalar takes about a second to scan).
MAX_YAML_BYTES = 4 * 1024 * 1024
#: Deeper nesting than this is refused; real contracts are a handful of levels deep.
MAX_DEPTH = 64
#: Files with more nodes (keys, values, items) than this are refused while composing, which
#: bounds parse time and memory for any file: a 3,000-variable contract has about 65,000.
MAX_YAML_NODES = 150_000
#: Values expanding (aliases counted at each use) to more nodes than this are refused. Aliases
#: share objects, but JSON output, prompts and the app print every repetition: at two million a
#: 1 kB file printed 40 MB of matrix JSON. Real files reuse a few small anchors.
MAX_EXPANDED_NODES = 2 * MAX_YAML_NODES

_TOO_DEEP_MESSAGE = f"YAML nesting deeper than {MAX_DEPTH} levels"

_scalar_constructor = yaml.constructor.SafeConstructor()
_SCALAR_CONSTRUCTORS = yaml.constructor.SafeConstructor.yaml_constructors


_STR_TAG = "tag:yaml.org,2002:str"


def _scalar(node: yaml.Node) -> Any:
    """A scalar's value, by the safe constructor for its tag.

    Called directly rather than through ``construct_object``, whose memo (never cleared outside
    ``construct_document``) kept every node of every file ever parsed alive in a long-running
    app, and whose bookkeeping was a good part of the build time. Plain strings (most scalars
    of a contract) are the node's value as it stands, which is all ``construct_yaml_str`` does.
    """
    if node.tag == _STR_TAG:
        return node.value
    fn = _SCALAR_CONSTRUCTORS.get(node.tag) or _SCALAR_CONSTRUCTORS[None]  # None: undefined tag
    data = fn(_scalar_constructor, node)
    if isinstance(data, GeneratorType):  # a collection tag on a scalar (``!!map x``): it raises
        gen = data
        data = next(gen)
        for _ in gen:
            pass
    return data


# Collection tags yaml.safe_load knows; set/omap/pairs are built as a plain mapping or list.
_COLLECTION_TAGS = frozenset(
    "tag:yaml.org,2002:" + t for t in ("seq", "map", "set", "omap", "pairs")
)


class _GuardedLoader(_Loader):  # type: ignore[misc,valid-type]
    """The safe loader with a budget checked while composing.

    Both composers (libyaml's and PyYAML's) call ``descend_resolver`` before composing each
    node, tagged or not, and ``ascend_resolver`` after it (aliases are not composed again), so
    these hooks see every node as it opens. libyaml's composer recurses in C without a limit
    and crashes the process a few thousand levels down; raising here keeps it 64 frames deep.
    The node budget bounds time and memory: composing costs about 10 us and 500 bytes a node,
    and a file of ``[1,1,1,...]`` holds one node per two bytes.
    """

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.nodes = 0
        #: one entry per node being composed: its length is the depth
        self.open: list[None] = []
        # called after every node: the list's own pop, a C call with no Python frame (a
        # method here was a tenth of composing a large contract)
        self.ascend_resolver = self.open.pop  # type: ignore[method-assign]

    def descend_resolver(self, parent: yaml.Node | None, index: Any) -> None:
        self.nodes += 1
        opened = self.open
        opened.append(None)
        if len(opened) > MAX_DEPTH:
            raise _TooDeep(parent)
        if self.nodes > MAX_YAML_NODES:
            raise _TooMany(parent)

    def resolve(self, kind: type, value: Any, implicit: Any) -> str:
        """The resolver's tag; a plain scalar's by its text, remembered (keys and short
        values repeat on every definition, and each costs a few regular expressions)."""
        if kind is yaml.ScalarNode and implicit[0]:
            tag = _PLAIN_TAGS.get(value)
            if tag is None:
                tag = super().resolve(kind, value, implicit)
                if len(value) <= _PLAIN_TAG_TEXT and len(_PLAIN_TAGS) < _PLAIN_TAGS_MAX:
                    _PLAIN_TAGS[value] = tag
            return tag
        return super().resolve(kind, value, implicit)  # type: ignore[no-any-return]


#: a plain scalar's implicit tag by its text: it depends on nothing else (the safe loader's
#: resolvers are fixed, and it has no path resolvers). Bounded in entries and in the length
#: of a text kept, for the app's long-lived process.
_PLAIN_TAGS: dict[str, str] = {}
_PLAIN_TAGS_MAX = 8192
_PLAIN_TAG_TEXT = 64


def _flow_too_deep(text: str, limit: int = MAX_DEPTH) -> tuple[int, int] | None:
    """Where flow brackets (``[``, ``{``) first open more than ``limit`` levels, else None.

    libyaml's scanner reads a run of flow brackets ahead of the composer (each may start a
    simple key), so a file of ``[[[[...`` reaches the parser's own nesting limit (1,000 in
    PyYAML 6.0.4's libyaml, none in older releases) before the composer hook above sees the
    65th level. This lexical pass finds the bracket that crosses flowctx's limit, so the
    message is flowctx's whatever the libyaml release. It skips quoted scalars and comments;
    it is consulted only when parsing failed, so a bracket it misreads (inside a block scalar,
    say) can never turn a good file into an error.
    """
    return _scan_flow(text, limit)[0]


def _still_open(text: str) -> tuple[int, int, str] | None:
    """The ``[`` or ``{`` still open where the text ends (line, column, the bracket), by the
    lexical pass of :func:`_flow_too_deep`; consulted only when parsing failed."""
    stack = _scan_flow(text, MAX_DEPTH)[1]
    return stack[0] if stack else None


def _scan_flow(text: str, limit: int) -> tuple[tuple[int, int] | None, list[tuple[int, int, str]]]:
    """Where flow brackets first open more than ``limit`` levels (else None), and the brackets
    left open at the end of the text, outermost first."""
    stack: list[tuple[int, int, str]] = []
    line, col = 1, 0
    prev = "\n"
    quote = ""
    escaped = False
    comment = False
    for ch in text:
        if ch == "\n":
            line, col, prev, comment = line + 1, 0, ch, False
            continue
        col += 1
        if comment:
            continue
        if quote:
            if escaped:
                escaped = False
            elif quote == '"' and ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
            prev = ch
            continue
        token_start = prev in " \t\n" or (bool(stack) and prev in "[{,:")
        if ch == "#" and prev in " \t\n":
            comment = True
        elif ch in "'\"" and token_start:
            quote = ch
        elif ch in "[{" and (stack or token_start):
            stack.append((line, col, ch))
            if len(stack) > limit:
                return (line, col), stack
        elif ch in "]}" and stack:
            stack.pop()
        prev = ch
    return None, stack


def _compose(text: str) -> tuple[yaml.Node | None, int]:
    """The text's node tree, and how many nodes composing it opened (the budget's count)."""
    loader = _GuardedLoader(text)
    try:
        return loader.get_single_node(), loader.nodes
    finally:
        loader.dispose()


@dataclass
class YamlDoc:
    """A parsed YAML file: its data and where each key and value stands."""

    file: str
    data: Any
    key_marks: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    value_marks: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    #: the nodes composing the text opened (``MAX_YAML_NODES`` counts them): a parse of one
    #: edited part of the file (``yamledit``) keeps the whole file's count within the budget
    nodes: int = field(default=0, compare=False)
    #: made by ``yamledit`` from an earlier parse (only the edited definition parsed)
    from_part: bool = field(default=False, compare=False)
    #: ``yamledit``'s: the definition it parsed again (its old name, its name now, the lines
    #: it added, the id of the parse it started from) when ``from_part``, and the
    #: definitions' lines once found
    edit: Any = field(default=None, compare=False, repr=False)
    bounds: Any = field(default=None, compare=False, repr=False)

    def where(self, path: PathKey, *, key: bool = True) -> tuple[int, int]:
        """Line and column (1-based) of ``path``: its key when ``key``, else its value.

        Falls back to the nearest ancestor that has a mark, then to 1:1.
        """
        marks = (self.key_marks, self.value_marks) if key else (self.value_marks, self.key_marks)
        probe = tuple(path)
        while True:
            for m in marks:
                if probe in m:
                    return m[probe]
            if not probe:
                return (1, 1)
            probe = probe[:-1]

    def diag(
        self,
        path: PathKey,
        message: str,
        *,
        key: bool = True,
        severity: str = "error",
        code: str = "",
        fix: Fix | None = None,
    ) -> Diagnostic:
        line, col = self.where(path, key=key)
        return Diagnostic(
            self.file,
            line,
            col,
            message,
            severity=severity,  # type: ignore[arg-type]
            yaml_path=format_path(path),
            code=code,
            fix=fix,
        )


def format_path(path: PathKey) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


class _Builder:
    def __init__(self, doc: YamlDoc, problems: list[Diagnostic]) -> None:
        self.doc = doc
        self.problems = problems
        self.memo: dict[int, Any] = {}
        # expanded node counts: aliases share objects, but whoever prints or walks the value
        # pays for every repetition, so a billion-laughs file is refused here
        self.sizes: dict[int, int] = {}
        self.expanded = 0
        # collections still being built: an alias to one of them is a value that contains
        # itself, which every printer, copier and comparison would recurse into without end
        self.open: set[int] = set()

    def _count(self, node: yaml.Node, n: int) -> None:
        self.expanded += n
        if self.expanded > MAX_EXPANDED_NODES:
            raise _TooBig(node)

    def build(self, node: yaml.Node, path: PathKey, depth: int = 0) -> Any:
        self.doc.value_marks.setdefault(path, _mark(node))
        return self._build(node, path, depth)

    def _build(self, node: yaml.Node, path: PathKey, depth: int) -> Any:
        """``node``'s value; its own value mark is already set by the caller."""
        if depth > MAX_DEPTH:
            raise _TooDeep(node)
        if isinstance(node, yaml.ScalarNode):  # scalars are never shared (aliases are nodes
            self._count(node, 1)  # of collections in the memo below, or repeated scalars)
            return _located_scalar(node)
        cached = self.memo.get(id(node))
        if cached is not None:
            if id(node) in self.open:
                raise _Recursive(node, path)
            self._count(node, self.sizes.get(id(node), 1))
            return cached  # an alias: share the object, do not walk it again
        self._count(node, 1)
        if node.tag not in _COLLECTION_TAGS:
            # what yaml.safe_load (the runtime's loader) refuses, e.g. !!python/object/apply
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"could not determine a constructor for the tag {node.tag!r}",
                node.start_mark,
            )
        start = self.expanded
        value_marks = self.doc.value_marks
        if isinstance(node, yaml.SequenceNode):
            seq: list[Any] = []
            self.memo[id(node)] = seq
            self.open.add(id(node))
            for i, child in enumerate(_released(node)):
                child_path = (*path, i)
                value_marks.setdefault(child_path, _mark(child))
                seq.append(self._build(child, child_path, depth + 1))
            self.open.discard(id(node))
            self.sizes[id(node)] = self.expanded - start + 1
            return seq
        if isinstance(node, yaml.MappingNode):
            out: dict[Any, Any] = {}
            self.memo[id(node)] = out
            self.open.add(id(node))
            key_marks = self.doc.key_marks
            # keys taken from a ``<<`` merge: an explicit key overrides them, it is no duplicate
            merged_keys: set[Any] = set()
            for key_node, value_node in _released(node):
                if key_node.tag == "tag:yaml.org,2002:merge":
                    merged = self.build(value_node, path, depth + 1)
                    for item in merged if isinstance(merged, list) else [merged]:
                        if isinstance(item, dict):
                            for k, v in item.items():
                                if k not in out:
                                    out[k] = v
                                    merged_keys.add(k)
                    continue
                key = (
                    self.build(key_node, path, depth + 1)
                    if not isinstance(key_node, yaml.ScalarNode)
                    else _located_scalar(key_node)
                )
                if isinstance(key, (list, dict)):
                    line, col = _mark(key_node)
                    self.problems.append(
                        Diagnostic(
                            self.doc.file,
                            line,
                            col,
                            "a mapping key must be a scalar",
                            yaml_path=format_path(path),
                        )
                    )
                    continue
                child_path = (*path, key)
                if key in merged_keys:
                    merged_keys.discard(key)
                    key_marks[child_path] = _mark(key_node)
                elif key in out:
                    line, col = _mark(key_node)
                    first = key_marks.get(child_path, (0, 0))
                    self.problems.append(
                        Diagnostic(
                            self.doc.file,
                            line,
                            col,
                            f"duplicate key '{key}' (first defined at line {first[0]}); "
                            "the last one would silently win",
                            yaml_path=format_path(child_path),
                        )
                    )
                else:
                    key_marks[child_path] = _mark(key_node)
                value_marks[child_path] = _mark(value_node)
                out[key] = self._build(value_node, child_path, depth + 1)
            self.open.discard(id(node))
            self.sizes[id(node)] = self.expanded - start + 1
            return out
        raise yaml.YAMLError(f"unsupported node {node!r}")  # pragma: no cover


def _released(node: yaml.Node) -> Iterator[Any]:
    """``node``'s children in order, each dropped from the tree once taken: the node tree of a
    large file is several times the size of its data, and releasing it as the data grows keeps
    the peak near the tree's size rather than tree plus data plus marks. (An alias is reached
    through the memo, never through its node's children, so an emptied node is never read.)
    """
    children = node.value
    node.value = []
    children.reverse()
    while children:
        yield children.pop()


class _TooBig(Exception):
    def __init__(self, node: yaml.Node) -> None:
        self.node = node


class _BadScalar(Exception):
    def __init__(self, node: yaml.Node, message: str) -> None:
        self.node = node
        self.message = message


def _located_scalar(node: yaml.Node) -> Any:
    """A scalar's value; a value its constructor refuses names the scalar's position."""
    try:
        return _scalar(node)
    except (ValueError, OverflowError) as exc:
        message = str(exc)
        if message.startswith("Exceeds the limit"):
            # int() past Python's digit limit: yaml.safe_load fails the same way
            message = (
                f"an integer of more than {sys.get_int_max_str_digits():,} digits "
                "(Python refuses to convert it; yaml.safe_load fails the same way)"
            )
        raise _BadScalar(node, message) from None


class _Recursive(Exception):
    def __init__(self, node: yaml.Node, path: PathKey) -> None:
        self.node = node
        self.path = path


class _TooDeep(Exception):
    def __init__(self, node: yaml.Node | None) -> None:
        self.node = node


class _TooMany(Exception):
    def __init__(self, node: yaml.Node | None) -> None:
        self.node = node


def _mark(node: yaml.Node | None) -> tuple[int, int]:
    if node is None:
        return (1, 1)
    return (node.start_mark.line + 1, node.start_mark.column + 1)


#: what the parser's context says it was inside -> the characters that open it, as named
_OPENERS = {
    "while parsing a flow ": {"[": "'['", "{": "'{'"},
    "while scanning a quoted scalar": {"'": "quote (')", '"': 'quote (")'},
}


def _unclosed(exc: yaml.MarkedYAMLError, text: str, display: str) -> Diagnostic | None:
    """A ``[``, ``{`` or quote left open: where it was opened, not where the parser gave up.

    The parser notices only at the next key or the end of the file, often a line (or several)
    later, and says "did not find expected ',' or ']'" there; its context mark is the bracket
    or quote the author forgot to close, which is the line to fix."""
    problem, context = exc.problem_mark, exc.context_mark
    if problem is None or context is None or context.line >= problem.line:
        return None
    if not 0 <= context.index < len(text):
        return None
    opener = text[context.index]
    named = next(
        (
            names.get(opener)
            for lead, names in _OPENERS.items()
            if (exc.context or "").startswith(lead)
        ),
        None,
    )
    if named is None:
        return None
    where = f"line {problem.line + 1}, column {problem.column + 1}"
    message = f"YAML syntax error: this {named} is not closed ({exc.problem} before {where})"
    return Diagnostic(display, context.line + 1, context.column + 1, message)


def _open_at_end(exc: yaml.MarkedYAMLError, text: str, display: str) -> Diagnostic | None:
    """A ``[`` or ``{`` the file ends inside (``key: [`` as its last line): the parser gives
    up at the end of the file, a line after the bracket, with no mark on the bracket itself."""
    mark = exc.problem_mark
    if mark is None or text[mark.index :].strip():
        return None  # not at the end of the text: another error
    opened = _still_open(text)
    if opened is None:
        return None
    line, column, bracket = opened
    message = f"YAML syntax error: this '{bracket}' is not closed (the file ends inside it)"
    return Diagnostic(display, line, column, message)


#: the line breaks YAML 1.1 (and so PyYAML and libyaml) counts besides ``\n``, ``\r\n`` and
#: ``\r``: NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR. Editors, the language server protocol,
#: ``grep -n`` and git count lines by the first three only, so a description holding one of
#: these would put every mark after it a line (or more) below the text it names.
_YAML_ONLY_BREAKS = ("\x85", "\u2028", "\u2029")
_PARSER_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_LINE_BREAK = re.compile("\r\n|[\r\n]")


def _editor_lines(text: str) -> Callable[[int, int], tuple[int, int]] | None:
    """The parser's 1-based ``(line, column)`` in ``text`` -> the line and column an editor
    shows; None when the two agree (no break only YAML counts)."""
    if not any(b in text for b in _YAML_ONLY_BREAKS):
        return None
    parsed = [0] + [m.end() for m in _PARSER_BREAK.finditer(text)]
    real = [0] + [m.end() for m in _LINE_BREAK.finditer(text)]

    def where(line: int, column: int) -> tuple[int, int]:
        if not 1 <= line <= len(parsed) or column < 1:
            return line, column
        offset = parsed[line - 1] + column - 1
        row = bisect_right(real, offset) - 1
        return row + 1, offset - real[row] + 1

    return where


def parse_yaml_text(text: str, display: str) -> tuple[YamlDoc | None, list[Diagnostic]]:
    """Parse YAML text; never raises for bad input. ``None`` document when it cannot be read.
    Lines and columns are the editor's (see ``_YAML_ONLY_BREAKS``)."""
    doc, problems = _parse(text, display)
    where = _editor_lines(text)
    if where is None:
        return doc, problems
    if doc is not None:
        doc.key_marks = {k: where(*m) for k, m in doc.key_marks.items()}
        doc.value_marks = {k: where(*m) for k, m in doc.value_marks.items()}
    moved = [
        replace(p, line=at[0], column=at[1]) for p in problems for at in [where(p.line, p.column)]
    ]
    return doc, moved


def _parse(text: str, display: str) -> tuple[YamlDoc | None, list[Diagnostic]]:
    problems: list[Diagnostic] = []
    doc = YamlDoc(file=display, data=None)
    try:
        node, doc.nodes = _compose(text)
    except _TooDeep as exc:
        line, col = _mark(exc.node)
        return None, [
            Diagnostic(display, line, col, f"YAML nesting deeper than {MAX_DEPTH} levels")
        ]
    except _TooMany as exc:
        line, col = _mark(exc.node)
        msg = f"YAML has more than {MAX_YAML_NODES:,} values; not read (split the file?)"
        return None, [Diagnostic(display, line, col, msg)]
    except yaml.MarkedYAMLError as exc:
        deep = _flow_too_deep(text)
        if deep is not None:
            return None, [Diagnostic(display, *deep, _TOO_DEEP_MESSAGE)]
        unclosed = _unclosed(exc, text, display)
        if unclosed is not None:
            return None, [unclosed]
        at_end = _open_at_end(exc, text, display)
        if at_end is not None:
            return None, [at_end]
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = exc.problem or exc.context or "invalid YAML"
        if mark is not None and 0 <= mark.index < len(text) and text[mark.index] == "\t":
            what += " (a tab: YAML does not allow tabs for indentation)"
        return None, [Diagnostic(display, line, col, f"YAML syntax error: {what}")]
    except yaml.YAMLError as exc:
        deep = _flow_too_deep(text)
        if deep is not None:
            return None, [Diagnostic(display, *deep, _TOO_DEEP_MESSAGE)]
        return None, [Diagnostic(display, 1, 1, f"YAML error: {exc}")]
    except RecursionError:
        return None, [Diagnostic(display, 1, 1, f"YAML nesting deeper than {MAX_DEPTH} levels")]
    if node is None:
        doc.data = None
        return doc, problems
    try:
        doc.data = _Builder(doc, problems).build(node, ())
    except _TooBig as exc:
        line, col = _mark(exc.node)
        msg = (
            f"YAML expands to more than {MAX_EXPANDED_NODES:,} values through aliases "
            "(an alias bomb?)"
        )
        return None, [Diagnostic(display, line, col, msg)]
    except _BadScalar as exc:
        line, col = _mark(exc.node)
        return None, [Diagnostic(display, line, col, f"YAML value error: {exc.message}")]
    except _Recursive as exc:
        line, col = _mark(exc.node)
        msg = (
            f"recursive YAML alias: the value anchored here contains itself "
            f"(at {format_path(exc.path) or 'the top'}); flowctx cannot resolve or show a value "
            "that includes itself"
        )
        return None, [Diagnostic(display, line, col, msg)]
    except _TooDeep as exc:
        line, col = _mark(exc.node)
        return None, [
            Diagnostic(display, line, col, f"YAML nesting deeper than {MAX_DEPTH} levels")
        ]
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        return None, [Diagnostic(display, line, col, f"YAML error: {exc.problem}")]
    except (ValueError, TypeError, OverflowError) as exc:
        return None, [Diagnostic(display, 1, 1, f"YAML value error: {exc}")]
    return doc, problems


def read_text_file(
    path: Path, display: str, *, limit: int = MAX_YAML_BYTES
) -> tuple[str | None, Diagnostic | None]:
    """Read a text file with the checks every loader needs; problems are Diagnostics."""
    raw, why = read_regular_file(path, limit)
    if raw is None:
        if why == "is a directory":
            why = "is a directory, expected a file"
        return None, Diagnostic(display, 0, 0, why or "cannot read")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        # UTF-16 (and UTF-32) text is full of NUL bytes; "binary" would send the user astray
        return None, Diagnostic(display, 1, 1, "UTF-16 or UTF-32 text; save the file as UTF-8")
    if b"\x00" in raw:
        return None, Diagnostic(display, 1, 1, "binary file (contains NUL bytes), expected text")
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, Diagnostic(display, line, col, "not valid UTF-8 text")


def load_yaml_file(path: Path, display: str) -> tuple[YamlDoc | None, list[Diagnostic]]:
    text, problem = read_text_file(path, display)
    if problem is not None:
        return None, [problem]
    assert text is not None
    return parse_yaml_text(text, display)
