"""Record files as the push reads them: ``@include`` composition, then records flattened.

A record file holds one record or an array of them. A record has ``fields``,
``relatedEntities`` (``{"<entity>": [records]}``, any depth), ``primaryKey``, ``sync`` and
``deleteRecord``; other keys (``_comments``) are kept and ignored. Related records are
flattened parent first; the foreign key is never implied (the child writes ``@parent:ID``).

``@include`` runs first, and only in a file whose JSON holds the string ``"@include"`` or a
``"@include.`` key (the push's own test): in objects it spreads another file's object
(``"@include"``, ``"@include.any"``, or ``{"file", "mode"}``; the including object's own keys
win), in arrays ``"@include:path"`` inserts the file's items. That same pass reads ``@file:``
object values relative to the *including file*; everywhere else ``@file:`` is read relative
to the entity folder, later (``references``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.yamlmarks import read_text_file
from flowctx_core.memberjunction.metadata.jsontree import JsonTextError, Node, read_json_nodes
from flowctx_core.memberjunction.metadata.syncconfig import EntityFolder

INCLUDE = "@include"
FILE = "@file:"
_MAX_INCLUDE_DEPTH = 32
#: how a path is shown in messages (relative to the workspace)
DisplayFn = Callable[[Path], str]


def entity_key(name: str) -> str:
    """An entity name compared as MemberJunction's renamed entities are: case-insensitive,
    without the ``MJ: `` prefix (``AI Agent Actions`` is ``MJ: AI Agent Actions``)."""
    n = " ".join(name.split()).lower()
    return n[4:] if n.startswith("mj: ") else n


AGENTS = "ai agents"
STEPS = "ai agent steps"
PATHS = "ai agent step paths"
AGENT_ACTIONS = "ai agent actions"
AGENT_TYPES = "ai agent types"


@dataclass(eq=False)
class Record:
    entity: str
    node: Node
    folder: EntityFolder
    file: Path
    display: str
    parent: Record | None
    order: int
    children: list[Record] = field(default_factory=list)

    @property
    def key(self) -> str:
        return entity_key(self.entity)

    @property
    def fields(self) -> dict[str, Node]:
        f = self.node.get("fields")
        return f.value if f is not None and f.kind == "object" else {}

    @property
    def primary_key(self) -> Node | None:
        pk = self.node.get("primaryKey")
        return pk if pk is not None and pk.kind == "object" else None

    @property
    def deleted(self) -> bool:
        d = self.node.get("deleteRecord")
        flag = d.get("delete") if d is not None else None
        return flag is not None and flag.value is True

    def field_node(self, name: str) -> Node | None:
        return self.fields.get(name)


@dataclass
class FileRead:
    records: list[Record]
    problems: list[Diagnostic]


def _has_include(node: Node) -> bool:
    if node.kind == "string":
        return node.value == INCLUDE or node.value.startswith(INCLUDE + ".")
    if node.kind == "object":
        return any(
            k == INCLUDE or k.startswith(INCLUDE + ".") or _has_include(v)
            for k, v in node.value.items()
        )
    if node.kind == "array":
        return any(_has_include(v) for v in node.value)
    return False


class _Includer:
    def __init__(self, display_of: DisplayFn, problems: list[Diagnostic]) -> None:
        self.display_of = display_of
        self.problems = problems
        self.visiting: list[Path] = []

    def load(self, path: Path, at: Node) -> Node | None:
        real = path.resolve()
        if real in self.visiting or len(self.visiting) > _MAX_INCLUDE_DEPTH:
            self.problem(at, f"circular @include: {self.display_of(path)} is already being read")
            return None
        node = read_node(path, self.display_of(path), self.problems, at)
        if node is None:
            return None
        self.visiting.append(real)
        try:
            return self.walk(node, path)
        finally:
            self.visiting.pop()

    def problem(self, at: Node, message: str) -> None:
        self.problems.append(Diagnostic(at.loc.file, at.loc.line, at.loc.column, message))

    def walk(self, node: Node, current: Path) -> Node:
        if node.kind == "array":
            items: list[Node] = []
            for item in node.value:
                if item.kind == "string" and item.value.startswith(INCLUDE + ":"):
                    target = current.parent / item.value[len(INCLUDE) + 1 :].strip()
                    inc = self.load(target, item)
                    if inc is None:
                        continue
                    items.extend(inc.value if inc.kind == "array" else [inc])
                elif item.kind in ("object", "array"):
                    items.append(self.walk(item, current))
                else:
                    items.append(item)
            return Node("array", items, node.loc)
        if node.kind != "object":
            return node
        out: dict[str, Node] = {}
        keys = {}
        for key, value in node.value.items():
            if key == INCLUDE or key.startswith(INCLUDE + "."):
                file_node, mode = value, "spread"
                if value.kind == "object":
                    f, m = value.get("file"), value.get("mode")
                    file_node = f if f is not None else value
                    mode = m.value if m is not None and m.kind == "string" else "spread"
                elif value.kind != "string":
                    continue
                if file_node.kind != "string":
                    self.problem(value, "@include needs a file path")
                    continue
                inc = self.load(current.parent / file_node.value, file_node)
                if inc is None:
                    continue
                if mode == "spread":
                    if inc.kind != "object":
                        self.problem(
                            value,
                            f"cannot spread non-object content from "
                            f'{file_node.value} (use mode "element")',
                        )
                        continue
                    for k, v in inc.value.items():
                        out.pop(k, None)
                        out[k], keys[k] = v, inc.key_loc(k)
                elif mode == "element":
                    if "." in key:
                        prop = key.split(".", 1)[1]
                        out.pop(prop, None)
                        out[prop], keys[prop] = inc, node.key_loc(key)
                    else:
                        return inc
                continue
            if value.kind == "string" and value.value.startswith(FILE):
                content = read_file_reference(
                    current.parent / value.value[len(FILE) :].strip(),
                    value,
                    self.display_of,
                    self.problems,
                )
                value = content if content is not None else value
            elif value.kind in ("object", "array"):
                value = self.walk(value, current)
            out.pop(key, None)
            out[key], keys[key] = value, node.key_loc(key)
        return Node("object", out, node.loc, keys)


def read_node(path: Path, display: str, problems: list[Diagnostic], at: Node | None) -> Node | None:
    text, problem = read_text_file(path, display)
    if text is None:
        if at is not None:
            why = problem.message if problem is not None else "cannot read"
            problems.append(
                Diagnostic(at.loc.file, at.loc.line, at.loc.column, f"{display}: {why}")
            )
        elif problem is not None:
            problems.append(problem)
        return None
    try:
        return read_json_nodes(text, display)
    except JsonTextError as exc:
        problems.append(Diagnostic(display, exc.line, exc.column, exc.reason))
        return None


def read_file_reference(
    path: Path, at: Node, display_of: DisplayFn, problems: list[Diagnostic]
) -> Node | None:
    """``@file:`` content: a ``.json`` file as its JSON, any other file as text."""
    display = display_of(path)
    if str(path).endswith(".json"):
        node = read_node(path, display, problems, at)
        if node is not None and _has_include(node):
            node = _Includer(display_of, problems).walk(node, path)
        return node
    text, problem = read_text_file(path, display)
    if text is None:
        why = problem.message if problem is not None else "cannot read"
        problems.append(
            Diagnostic(at.loc.file, at.loc.line, at.loc.column, f"@file: {display}: {why}")
        )
        return None
    return Node("string", text, at.loc)


def read_record_file(
    path: Path,
    folder: EntityFolder,
    display_of: DisplayFn,
    start_order: int,
) -> FileRead:
    problems: list[Diagnostic] = []
    display = display_of(path)
    root = read_node(path, display, problems, None)
    if root is None:
        return FileRead([], problems)
    if _has_include(root):
        root = _Includer(display_of, problems).walk(root, path)
    items = root.value if root.kind == "array" else [root]
    records: list[Record] = []

    def bad(at: Node, message: str) -> None:
        problems.append(Diagnostic(display, at.loc.line, at.loc.column, message))

    def add(node: Node, entity: str, parent: Record | None) -> None:
        if node.kind != "object":
            bad(node, f"a record of '{entity}' must be a JSON object")
            return
        rec = Record(entity, node, folder, path, display, parent, start_order + len(records))
        records.append(rec)
        if parent is not None:
            parent.children.append(rec)
        fields = node.get("fields")
        if fields is not None and fields.kind != "object":
            bad(fields, "'fields' must be a JSON object")
        related = node.get("relatedEntities")
        if related is None:
            return
        if related.kind != "object":
            bad(related, "'relatedEntities' must map entity names to arrays")
            return
        for child_entity, group in related.value.items():
            if group.kind != "array":
                bad(group, f"relatedEntities '{child_entity}' must be an array")
                continue
            for child in group.value:
                add(child, child_entity, rec)

    for item in items:
        add(item, folder.entity, None)
    return FileRead(records, problems)
