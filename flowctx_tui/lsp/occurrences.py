"""Where a workflow names a context variable, an agent or a flow step as an identifier: the
places rename, references and definitions work on, never prose (a description that says
``llm_model``) and never a longer name (``llm_model_2``).

Every file is read as YAML with marks (a scenario's JSON too: JSON is YAML's flow style) and
each scalar is judged by where it sits: the contract's ``definitions.<name>`` and an agent's
``variables`` list, ``agents.yaml``'s ``name``, a rule's ``source_agent``/``condition_key``, a
test case's ``context``/``expect.values`` keys... Inside a string only the template forms
count: ``${name}`` in a condition, ``{{name}}`` / ``{{name.path}}`` in a prompt or a
``query_template``, ``context.name`` in a test's or scenario's expression.
"""

from __future__ import annotations

import bisect
import re
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from flowctx_core.base.textlines import text_lines
from flowctx_core.base.yamlmarks import PathKey, YamlDoc, parse_yaml_text
from flowctx_core.model.filenames import (
    BUILD_CONTEXT_DIR,
    CONTRACT_FILE,
    FLOW_FILE,
    HANDOFFS_FILE,
    MIDDLEWARE_FILE,
    REGISTRY_FILE,
    SCENARIO_DIR,
    TESTS_DIR,
    TRANSITIONS_FILE,
    WORKFLOWS_DIR,
)
from flowctx_tui.lsp.analysis import Workspace, _text_of

Kind = Literal["variable", "agent", "step"]
KINDS: tuple[Kind, ...] = ("variable", "agent", "step")
AGENTS_FILE = "agents.yaml"
ORCHESTRATOR_FILE = "orchestrator.yaml"
#: names the runtime gives a meaning of its own as routing targets
PSEUDO_AGENTS = frozenset({"user", "terminate"})
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Occurrence:
    """One identifier occurrence: 0-based line, code-point span, and whether it defines."""

    path: Path
    line: int
    start: int
    end: int
    declaration: bool = False


# A rule: (path pattern, what the scalar there is, where: "key" or "value"). In a pattern
# ``None`` is any one step (a name or an index) and ``...`` any rest of the path. What it is:
# "variable"/"agent" (the whole scalar), "variable!"/"agent!" (and it defines it), or a
# template kind whose names are found inside the string.
_Rule = tuple[tuple[Any, ...], str, str]

_CONTRACT: list[_Rule] = [
    (("definitions", None), "variable!", "key"),
    (("agents", None), "agent", "key"),
    (("agents", None, "variables", int), "variable", "value"),
    (("definitions", None, "source", "inputs", int), "variable", "value"),
    (("definitions", None, "source", "query_template", ...), "braces", "value"),
    (("definitions", None, "source", "triggers", int, "agent"), "agent", "value"),
]
# the older runtime's wrapper: the same keys under ``context_variables:``
_CONTRACT += [(("context_variables", *pattern), what, where) for pattern, what, where in _CONTRACT]
_AGENTS: list[_Rule] = [
    (("agents", int, "name"), "agent!", "value"),
    (("agents", int, ...), "braces", "value"),
]
_ORCHESTRATOR: list[_Rule] = [(("initial_agent",), "agent", "value")]
_TRANSITIONS: list[_Rule] = [
    (("transition_rules", int, "source_agent"), "agent", "value"),
    (("transition_rules", int, "target_agent"), "agent", "value"),
    (("transition_rules", int, "condition_key"), "variable", "value"),
    (("transition_rules", int, "context_expression"), "dollar", "value"),
    (("transition_rules", int, "condition"), "dollar", "value"),
    (("transitions", int, "source"), "agent", "value"),
    (("transitions", int, "target"), "agent", "value"),
    (("transitions", int, "target", "agent"), "agent", "value"),
    (("transitions", int, "target", "agents", int), "agent", "value"),
    (("transitions", int, "condition_key"), "variable", "value"),
    (("transitions", int, "condition"), "dollar", "value"),
]
_HANDOFFS: list[_Rule] = [
    (("handoff_rules", int, "source_agent"), "agent", "value"),
    (("handoff_rules", int, "target_agent"), "agent", "value"),
    (("handoff_rules", int, "condition"), "dollar", "value"),
]
_FLOW: list[_Rule] = [
    (("steps", int, "name"), "step!", "value"),
    (("paths", int, "from"), "step", "value"),
    (("paths", int, "from_"), "step", "value"),
    (("paths", int, "to"), "step", "value"),
]
_MIDDLEWARE: list[_Rule] = [(("prompt_middleware", int, "agent"), "agent", "value")]
_CASE = ("cases", int)
_TESTS: list[_Rule] = [
    ((*_CASE, "context", None), "variable", "key"),
    ((*_CASE, "launch", None), "variable", "key"),
    ((*_CASE, "context_removed", int), "variable", "value"),
    ((*_CASE, "expect", "values", None), "variable", "key"),
    ((*_CASE, "expect", "route", "from"), "actor", "value"),
    ((*_CASE, "expect", "route", "to"), "actor", "value"),
    ((*_CASE, "expect", "prompt", "agent"), "agent", "value"),
    ((*_CASE, "expect", "prompt", int, "agent"), "agent", "value"),
    ((*_CASE, "expect", "path", int), "actor", "value"),
    ((*_CASE, "turns", int, "agent"), "actor", "value"),
    ((*_CASE, "turns", int, "set", None), "variable", "key"),
    ((*_CASE, "turns", int, "delete", int), "variable", "value"),
    ((*_CASE, "expect", "condition", "expression"), "expression", "value"),
    ((*_CASE, "expect", "condition", int, "expression"), "expression", "value"),
]
#: a build-context registry that serves this workflow alone (one shared by several is left
#: to the author: renaming its projection would break the other workflows)
_REGISTRY: list[_Rule] = [
    (("projections", "context_variables", None), "variable", "key"),
    (("assets", int, "projections", int, "recipients", int), "agent", "value"),
]
_SCENARIO: list[_Rule] = [
    (("context", None), "variable", "key"),
    (("contextRemoved", int), "variable", "value"),
    (("expression",), "expression", "value"),
]
_BY_FILE: dict[str, list[_Rule]] = {
    CONTRACT_FILE: _CONTRACT,
    AGENTS_FILE: _AGENTS,
    ORCHESTRATOR_FILE: _ORCHESTRATOR,
    TRANSITIONS_FILE: _TRANSITIONS,
    HANDOFFS_FILE: _HANDOFFS,
    FLOW_FILE: _FLOW,
    MIDDLEWARE_FILE: _MIDDLEWARE,
}


def _templates(kind: str, name: str) -> list[re.Pattern[str]]:
    """The patterns whose group 1 is ``name`` as a template names it inside a string."""
    n = re.escape(name)
    dollar = re.compile(rf"\$\{{\s*({n})\s*\}}")
    braces = re.compile(rf"\{{\{{\s*({n})(?=\s*\}}\}}|[.\[])")
    context = re.compile(rf"(?<![\w$.])context\s*\.\s*({n})(?![\w$])")
    return {
        "dollar": [dollar],
        "braces": [braces],
        "expression": [dollar, context],
    }.get(kind, [])


def _matches(pattern: tuple[Any, ...], path: PathKey) -> bool:
    for n, want in enumerate(pattern):
        if want is ...:
            return True
        if n >= len(path):
            return False
        got = path[n]
        if want is None:
            continue
        if want is int:
            if not isinstance(got, int):
                return False
        elif got != want:
            return False
    return len(pattern) == len(path)


def _lookup(data: Any, path: PathKey) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


@dataclass
class _File:
    path: Path
    rows: list[str]
    doc: YamlDoc
    #: every mark of the document in order: where a value's text ends (the next one begins)
    marks: list[tuple[int, int]]
    #: (key or value, first step of the path, its length) -> the marks there
    heads: dict[tuple[str, Any, int], list[tuple[PathKey, tuple[int, int]]]]

    def under(
        self, where: str, pattern: tuple[Any, ...]
    ) -> Iterator[tuple[PathKey, tuple[int, int]]]:
        """The marks a rule's pattern can match: its first step, its length (any longer one
        for a pattern ending in ``...``)."""
        if pattern and pattern[-1] is ...:
            for (w, head, size), found in self.heads.items():
                if w == where and head == pattern[0] and size >= len(pattern) - 1:
                    yield from found
        else:
            yield from self.heads.get((where, pattern[0], len(pattern)), ())


#: the files last read, with their text: a prepareRename, its rename and the references that
#: follow parse a 3,000-variable contract once (a changed text is read again)
_READ: dict[Path, tuple[str, _File]] = {}
_READ_LIMIT = 32
#: requests run in worker threads side by side
_READ_LOCK = threading.Lock()


def read_yaml(path: Path, ws: Workspace, buffers: Mapping[Path, str]) -> _File | None:
    text = _text_of(path, buffers, ws.root)
    if not text:
        return None
    with _READ_LOCK:
        known = _READ.get(path)
    if known is not None and known[0] == text:
        return known[1]
    doc = _checked(path, ws, text)
    if doc is None:
        doc = _parsed(path, text)
    if doc is None:
        return None
    return _remember(path, text, doc)


#: each file's last parse made here that found no problem, with its text: a request that
#: comes before the checker has parsed a contract's new text parses again only the edited
#: definition (``yamledit``), where a whole parse of a 3,000-variable contract held the
#: interpreter for a few hundred milliseconds during a typing burst
_PARSED: dict[Path, tuple[str, YamlDoc]] = {}


def _parsed(path: Path, text: str) -> YamlDoc | None:
    from flowctx_core.base.yamledit import reparse_yaml_text

    with _READ_LOCK:
        known = _PARSED.get(path)
    again = None if known is None else reparse_yaml_text(*known, (), text, path.name)
    doc, problems = again if again is not None else parse_yaml_text(text, path.name)
    with _READ_LOCK:
        _PARSED.pop(path, None)
        if doc is not None and not problems:
            if len(_PARSED) >= _READ_LIMIT:
                _PARSED.pop(next(iter(_PARSED)))
            _PARSED[path] = (text, doc)
    return doc


def _checked(path: Path, ws: Workspace, text: str) -> YamlDoc | None:
    """The parse the checker made of this contract text, if it made one: as an author types
    in a 3,000-variable contract, the checker parses only the edited definition again
    (``yamledit``), where a parse of the whole text here took a few hundred milliseconds for
    each completion, definition or outline request after each key."""
    for wf in list(ws.parses.values()):
        if wf.doc is not None and wf.text == text and wf.folder / CONTRACT_FILE == path:
            return wf.doc  # type: ignore[no-any-return]
    return None


def _remember(path: Path, text: str, doc: YamlDoc) -> _File:
    marks = sorted({*doc.key_marks.values(), *doc.value_marks.values()})
    heads: dict[tuple[str, Any, int], list[tuple[PathKey, tuple[int, int]]]] = {}
    for where, table in (("key", doc.key_marks), ("value", doc.value_marks)):
        for at, mark in table.items():
            if at:
                heads.setdefault((where, at[0], len(at)), []).append((at, mark))
    f = _File(path, text_lines(text), doc, marks, heads)
    with _READ_LOCK:
        if len(_READ) >= _READ_LIMIT:
            _READ.pop(next(iter(_READ)))
        _READ[path] = (text, f)
    return f


def _at(f: _File, mark: tuple[int, int], name: str) -> tuple[int, int, int] | None:
    """The scalar ``name`` written at ``mark`` (1-based; a quote before it is skipped)."""
    line, col = mark[0] - 1, mark[1] - 1
    if not 0 <= line < len(f.rows):
        return None
    row = f.rows[line]
    if col < len(row) and row[col] in "'\"":
        col += 1
    end = col + len(name)
    if row[col:end] != name:
        return None
    if end < len(row) and (row[end].isalnum() or row[end] == "_"):
        return None
    return line, col, end


def _inside(
    f: _File, mark: tuple[int, int], patterns: list[re.Pattern[str]]
) -> Iterator[tuple[int, int, int]]:
    """Template occurrences in the string whose value starts at ``mark`` (it runs to the next
    mark of the document): comment lines in between are skipped."""
    line, col = mark[0] - 1, mark[1] - 1
    after = bisect.bisect_right(f.marks, mark)
    stop = f.marks[after] if after < len(f.marks) else (len(f.rows) + 1, 1)
    for n in range(line, min(stop[0], len(f.rows))):
        row = f.rows[n]
        lo = col if n == line else 0
        hi = stop[1] - 1 if n == stop[0] - 1 else len(row)
        if n != line and row.lstrip().startswith("#"):
            continue
        for pattern in patterns:
            for m in pattern.finditer(row, lo, hi):
                yield n, m.start(1), m.end(1)


def _in_file(f: _File, rules: list[_Rule], kind: Kind, name: str) -> Iterator[Occurrence]:
    doc = f.doc
    seen: set[tuple[int, int]] = set()

    def emit(found: tuple[int, int, int] | None, declaration: bool) -> Iterator[Occurrence]:
        if found is not None and (found[0], found[1]) not in seen:
            seen.add((found[0], found[1]))
            yield Occurrence(f.path, found[0], found[1], found[2], declaration)

    for pattern, what, where in rules:
        for path, mark in f.under(where, pattern):
            if not _matches(pattern, path):
                continue
            if what.rstrip("!") == kind or (what == "actor" and kind in ("agent", "step")):
                scalar = path[-1] if where == "key" else _lookup(doc.data, path)
                if scalar == name:
                    yield from emit(_at(f, mark, name), what.endswith("!"))
            elif (
                kind == "variable"
                and what in ("dollar", "braces", "expression")
                and isinstance(_lookup(doc.data, path), str)
            ):
                for found in _inside(f, mark, _templates(what, name)):
                    yield from emit(found, False)


def workflow_files(
    ws: Workspace, workflow: str, buffers: Mapping[Path, str]
) -> list[tuple[Path, list[_Rule]]]:
    """Every file of the workspace that can name the workflow's variables and agents, with
    the rules of its kind: the workflow folder's, its test files and its saved scenarios."""
    folder = ws.root / WORKFLOWS_DIR / workflow
    out: list[tuple[Path, list[_Rule]]] = []
    for file, rules in _BY_FILE.items():
        out.append((folder / file, rules))
    tests = ws.root.joinpath(*TESTS_DIR)
    found = {p.resolve() for p in tests.glob("*.yaml")} if tests.is_dir() else set()
    found |= {p for p in buffers if p.parent == tests.resolve() and p.suffix == ".yaml"}
    for path in sorted(found):
        f = read_yaml(path, ws, buffers)
        if (
            f is not None
            and isinstance(f.doc.data, dict)
            and f.doc.data.get("workflow") == workflow
        ):
            out.append((path, _TESTS))
    registries = ws.root / BUILD_CONTEXT_DIR
    for path in sorted(registries.glob(f"*/{REGISTRY_FILE}")) if registries.is_dir() else []:
        f = read_yaml(path.resolve(), ws, buffers)
        data = f.doc.data if f is not None else None
        if isinstance(data, dict) and data.get("applies_to_workflows") == [workflow]:
            path = path.resolve()
            out.append((path, _REGISTRY))
    saved = ws.root.joinpath(*SCENARIO_DIR, workflow)
    if saved.is_dir():
        out += [(p.resolve(), _SCENARIO) for p in sorted(saved.glob("*.json"))]
    return out


def occurrences(
    ws: Workspace, workflow: str, kind: Kind, name: str, buffers: Mapping[Path, str]
) -> list[Occurrence]:
    """Every place the workflow's files name the variable or agent ``name``, in file order."""
    out: list[Occurrence] = []
    for path, rules in workflow_files(ws, workflow, buffers):
        f = read_yaml(path.resolve(), ws, buffers)
        if f is not None:
            out += sorted(_in_file(f, rules, kind, name), key=lambda o: (o.line, o.start))
    return out


def declared(ws: Workspace, workflow: str, buffers: Mapping[Path, str]) -> dict[Kind, set[str]]:
    """The workflow's variable names (its contract's) and agent names (agents.yaml's and the
    contract's ``agents``)."""
    folder = ws.root / WORKFLOWS_DIR / workflow
    names: dict[Kind, set[str]] = {"variable": set(), "agent": set(), "step": set()}
    contract = read_yaml(folder / CONTRACT_FILE, ws, buffers)
    if contract is not None and isinstance(contract.doc.data, dict):
        for section, kind in (("definitions", "variable"), ("agents", "agent")):
            block = contract.doc.data.get(section)
            if isinstance(block, dict):
                names[kind].update(str(k) for k in block)  # type: ignore[index]
    agents = read_yaml(folder / AGENTS_FILE, ws, buffers)
    if agents is not None and isinstance(agents.doc.data, dict):
        for entry in agents.doc.data.get("agents") or []:
            if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                names["agent"].add(entry["name"])
    flow = read_yaml(folder / FLOW_FILE, ws, buffers)
    if flow is not None and isinstance(flow.doc.data, dict):
        for entry in flow.doc.data.get("steps") or []:
            if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                names["step"].add(entry["name"])
    return names


def symbol_at(
    ws: Workspace, workflow: str, path: Path, line: int, character: int, buffers: Mapping[Path, str]
) -> tuple[Kind, str, Occurrence, list[Occurrence]] | None:
    """The variable or agent named at the cursor (0-based, code points) where it is an
    identifier, with that occurrence and all of them; None on prose or anything else."""
    from flowctx_tui.lsp.analysis import word_at

    text = _text_of(path, buffers, ws.root)
    word = word_at(text, line, character)
    if word is None:
        return None
    names = declared(ws, workflow, buffers)
    for kind in KINDS:
        if word[0] not in names[kind]:
            continue
        found = occurrences(ws, workflow, kind, word[0], buffers)
        for o in found:
            if o.path == path and o.line == line and o.start <= character <= o.end:
                return kind, word[0], o, found
    return None


def references(
    ws: Workspace,
    workflow: str,
    path: Path,
    line: int,
    character: int,
    buffers: Mapping[Path, str],
    *,
    include_declaration: bool = True,
) -> list[Occurrence] | None:
    """The identifier occurrences of what the cursor names (its definition only when asked);
    None when the cursor is on no variable, agent or step."""
    found = symbol_at(ws, workflow, path, line, character, buffers)
    if found is None:
        return None
    return [o for o in found[3] if include_declaration or not o.declaration]


def _last_good_contract(
    ws: Workspace, workflow: str, buffers: Mapping[Path, str]
) -> Mapping[Path, str]:
    """``buffers`` with the workflow's contract as the last good analysis read it (its text
    and its parsed document, never parsed again): a definition answers at once while the
    author types in a large contract and the check of the newest text runs."""
    part = (getattr(ws, "good", None) or {}).get(workflow)
    wf = getattr(part, "wf", None)
    if wf is None or wf.doc is None or not wf.text:
        return buffers
    contract = (ws.root / WORKFLOWS_DIR / workflow / CONTRACT_FILE).resolve()
    with _READ_LOCK:
        known = _READ.get(contract)
    if known is None or known[0] != wf.text:
        _remember(contract, wf.text, wf.doc)
    return {**buffers, contract: wf.text}


def definition(
    ws: Workspace, workflow: str, path: Path, line: int, character: int, buffers: Mapping[Path, str]
) -> Occurrence | None:
    """Where what the cursor names is defined: a variable in the contract's ``definitions``,
    an agent in ``agents.yaml`` (where the runtime creates it; the contract's ``agents``
    section when the workflow has no agents.yaml entry), a step in flow.yaml."""
    buffers = _last_good_contract(ws, workflow, buffers)
    found = symbol_at(ws, workflow, path, line, character, buffers)
    if found is None:
        return None
    kind, _name, _here, every = found
    for o in every:
        if o.declaration:
            return o
    if kind == "agent":
        contract = ws.root / WORKFLOWS_DIR / workflow / CONTRACT_FILE
        return next((o for o in every if o.path == contract.resolve()), None)
    return None


def workflow_named(ws: Workspace, path: Path, buffers: Mapping[Path, str]) -> str | None:
    """The workflow a file outside ``workflows/`` names: a test file's ``workflow:``, a saved
    scenario's folder, a build-context registry serving one workflow alone."""
    try:
        parts = path.resolve().relative_to(ws.root).parts
    except ValueError:
        return None
    if parts[: len(SCENARIO_DIR)] == SCENARIO_DIR and len(parts) == len(SCENARIO_DIR) + 2:
        return parts[len(SCENARIO_DIR)]
    tests = parts[: len(TESTS_DIR)] == TESTS_DIR and len(parts) == len(TESTS_DIR) + 1
    registry = len(parts) == 3 and parts[0] == BUILD_CONTEXT_DIR and parts[2] == REGISTRY_FILE
    if not (tests or registry):
        return None
    doc, _ = parse_yaml_text(_text_of(path, buffers, ws.root), path.name)
    data = doc.data if doc is not None else None
    if not isinstance(data, dict):
        return None
    if tests:
        named = data.get("workflow")
        return named if isinstance(named, str) else None
    served = data.get("applies_to_workflows")
    if isinstance(served, list) and len(served) == 1 and isinstance(served[0], str):
        return served[0]
    return None
