"""The outline of a workflow file (``textDocument/documentSymbol``) and the names of every open
workspace (``workspace/symbol``): variables, agents, routing rules, flow steps and paths,
test cases, and MemberJunction flow agents' steps and paths in their MetadataSync JSON.

Ranges are code points (the server converts them): ``range`` spans the whole entry (a
variable's definition, a rule's mapping), ``selection`` the name the outline shows.
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flowctx_core.base.secrets import mask_text
from flowctx_core.base.textlines import text_lines
from flowctx_core.base.yamlmarks import PathKey, YamlDoc
from flowctx_core.model.filenames import (
    CONTRACT_FILE,
    FLOW_FILE,
    HANDOFFS_FILE,
    TESTS_DIR,
    TRANSITIONS_FILE,
    WORKFLOWS_DIR,
)
from flowctx_tui.lsp.analysis import MjWorkspace, Workspace, _text_of
from flowctx_tui.lsp.occurrences import AGENTS_FILE

#: at most this many answers to a workspace/symbol query (a 3,000-variable contract)
WORKSPACE_LIMIT = 500

#: each YAML file's outline as last made, with the text it was made from: an editor asks for
#: the outline again and again (after each edit, on focus), and a 3,000-variable contract's
#: took 150 ms to make even from the checker's parse
_OUTLINES: dict[Path, tuple[str, list[Symbol]]] = {}
_OUTLINES_LIMIT = 32
#: requests run in worker threads side by side
_OUTLINES_LOCK = threading.Lock()


@dataclass(frozen=True)
class Symbol:
    name: str
    #: "variable" | "agent" | "rule" | "step" | "path" | "case"
    kind: str
    detail: str
    path: Path
    #: the whole entry: (line, column) to (line, column), 0-based code points
    start: tuple[int, int]
    end: tuple[int, int]
    #: the name: one line, (line, start, end)
    selection: tuple[int, int, int]
    container: str = ""


@dataclass
class _Doc:
    path: Path
    rows: list[str]
    doc: YamlDoc
    #: each entry (a path of two steps: ``definitions.<name>``, ``transition_rules[3]``): its
    #: first and last mark
    spans: dict[PathKey, tuple[tuple[int, int], tuple[int, int]]]
    marks: list[tuple[int, int]]

    def _end(self, last: tuple[int, int]) -> tuple[int, int]:
        """The entry's last line: the line of its last mark, or past it up to the line before
        the next mark (a multi-line scalar), leaving blank and comment lines out."""
        after = bisect.bisect_right(self.marks, last)
        stop = self.marks[after][0] - 1 if after < len(self.marks) else len(self.rows)
        line = last[0] - 1
        for n in range(stop - 1, line, -1):
            text = self.rows[n].strip() if n < len(self.rows) else ""
            if text and not text.startswith("#"):
                line = n
                break
        row = self.rows[line] if 0 <= line < len(self.rows) else ""
        return line, len(row.rstrip())

    def symbol(
        self, entry: PathKey, name_at: PathKey, name: str, kind: str, detail: str, *, key: bool
    ) -> Symbol | None:
        marks = self.doc.key_marks if key else self.doc.value_marks
        mark = marks.get(name_at)
        span = self.spans.get(entry)
        if mark is None or span is None:
            return None
        line, col = mark[0] - 1, mark[1] - 1
        row = self.rows[line] if line < len(self.rows) else ""
        if col < len(row) and row[col] in "'\"":
            col += 1
        width = len(name) if row[col : col + len(name)] == name else len(row.rstrip()) - col
        start = (span[0][0] - 1, span[0][1] - 1)
        end = max(self._end(span[1]), (line, col + max(width, 0)))
        return Symbol(name, kind, detail, self.path, start, end, (line, col, col + max(width, 1)))


def _read(path: Path, ws: Workspace, buffers: Mapping[Path, str]) -> _Doc | None:
    from flowctx_tui.lsp.occurrences import read_yaml

    f = read_yaml(path, ws, buffers)
    if f is None:
        return None
    spans: dict[PathKey, tuple[tuple[int, int], tuple[int, int]]] = {}
    for table in (f.doc.key_marks, f.doc.value_marks):
        for at, mark in table.items():
            if len(at) < 2:
                continue
            entry = at[:2]
            known = spans.get(entry)
            spans[entry] = (
                (mark, mark) if known is None else (min(known[0], mark), max(known[1], mark))
            )
    return _Doc(path, f.rows, f.doc, spans, f.marks)


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _rule_detail(rule: Mapping[str, Any]) -> str:
    kind = rule.get("transition_type") or rule.get("handoff_type") or ""
    if kind in ("after_turn", "after_work"):
        return str(kind)
    what = rule.get("condition_type") or ""
    said = rule.get("context_expression") or rule.get("condition")
    if rule.get("condition_key") is not None:
        said = f"{rule['condition_key']} == {rule.get('condition_value')!r}"
    elif rule.get("tool_name"):
        said = f"{rule['tool_name']} called"
    # the file's own text, masked as every answer is (a URI's password)
    return mask_text(" ".join(x for x in (_text(what), _text(said)) if x))[:120]


def _yaml_symbols(d: _Doc) -> Iterator[Symbol | None]:
    data = d.doc.data if isinstance(d.doc.data, dict) else {}
    name = d.path.name
    if name == CONTRACT_FILE:
        for var, spec in (
            (data.get("definitions") or {}).items()
            if isinstance(data.get("definitions"), dict)
            else ()
        ):
            spec = spec if isinstance(spec, dict) else {}
            source = spec.get("source")
            source = source if isinstance(source, dict) else {}
            detail = f"{_text(spec.get('type') or 'any')} · {_text(source.get('type'))}"
            yield d.symbol(
                ("definitions", var), ("definitions", var), str(var), "variable", detail, key=True
            )
        agents = data.get("agents")
        for agent, view in agents.items() if isinstance(agents, dict) else ():
            seen = view.get("variables") if isinstance(view, dict) else None
            detail = f"sees {len(seen)} variable(s)" if isinstance(seen, list) else "agent"
            yield d.symbol(
                ("agents", agent), ("agents", agent), str(agent), "agent", detail, key=True
            )
    elif name == AGENTS_FILE:
        for n, entry in enumerate(data.get("agents") or []):
            if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                yield d.symbol(
                    ("agents", n), ("agents", n, "name"), entry["name"], "agent", "agent", key=False
                )
    elif name in (TRANSITIONS_FILE, HANDOFFS_FILE):
        for section in ("transition_rules", "transitions", "handoff_rules"):
            for n, rule in enumerate(data.get(section) or []):
                if not isinstance(rule, dict):
                    continue
                source = rule.get("source_agent", rule.get("source"))
                target = rule.get("target_agent", rule.get("target"))
                if isinstance(target, dict):
                    target = target.get("agent") or target.get("type")
                label = f"rule {n + 1}: {_text(source)} → {_text(target)}"
                first = next(iter(rule), None)
                if first is None:
                    continue
                yield d.symbol(
                    (section, n), (section, n, first), label, "rule", _rule_detail(rule), key=True
                )
    elif name == FLOW_FILE:
        for n, step in enumerate(data.get("steps") or []):
            if isinstance(step, dict) and isinstance(step.get("name"), str):
                detail = _text(step.get("type")) + (" · starting" if step.get("starting") else "")
                yield d.symbol(
                    ("steps", n), ("steps", n, "name"), step["name"], "step", detail, key=False
                )
        for n, p in enumerate(data.get("paths") or []):
            if not isinstance(p, dict) or not p:
                continue
            label = f"{_text(p.get('from', p.get('from_')))} → {_text(p.get('to'))}"
            detail = f"priority {_text(p.get('priority', 0))}"
            if p.get("condition"):
                detail += f" · {mask_text(_text(p['condition']))[:100]}"
            yield d.symbol(
                ("paths", n), ("paths", n, next(iter(p))), label, "path", detail, key=True
            )
    elif d.path.parent.name == TESTS_DIR[-1] and isinstance(data.get("cases"), list):
        for n, case in enumerate(data["cases"]):
            if isinstance(case, dict) and isinstance(case.get("name"), str):
                yield d.symbol(
                    ("cases", n),
                    ("cases", n, "name"),
                    case["name"],
                    "case",
                    f"test of {_text(data.get('workflow'))}",
                    key=False,
                )


def _mj_symbols(ws: MjWorkspace, path: Path | None, buffers: Mapping[Path, str]) -> list[Symbol]:
    """The flow agents' symbols of one JSON file (``path``), or of every file (None: the
    metadata is read once for all)."""
    from flowctx_core.base import fsview
    from flowctx_core.memberjunction.agents import open_mj

    with fsview.buffers(buffers):
        found = open_mj(ws.root)
    texts: dict[Path, list[str]] = {}
    target = path.resolve() if path is not None else None
    out: list[Symbol] = []

    def at(loc: Any, name: str, kind: str, detail: str, container: str) -> None:
        where = (found.root / loc.file).resolve()
        if (target is not None and where != target) or loc.line < 1:
            return
        if where not in texts:
            texts[where] = text_lines(_text_of(where, buffers, ws.root))
        rows = texts[where]
        line = loc.line - 1
        col = max(loc.column - 1, 0)
        row = rows[line] if line < len(rows) else ""
        end = len(row.rstrip()) if len(row.rstrip()) > col else col + 1
        out.append(
            Symbol(name, kind, detail, where, (line, col), (line, end), (line, col, end), container)
        )

    for agent in found.flows.values():
        at(agent.locs.get("Name", agent.loc), agent.name, "agent", "flow agent", "")
        for step in agent.steps:
            detail = _text(step.type) + (" · starting" if step.starting else "")
            at(step.at("Name"), step.name, "step", detail, agent.name)
        for p in agent.paths:
            label = f"{agent.name_of(p.origin)} → {agent.name_of(p.destination)}"
            said = f" · {mask_text(p.condition)[:100]}" if p.condition else ""
            detail = f"priority {p.priority}{said}"
            at(p.loc, label, "path", detail, agent.name)
    return out


def document_symbols(
    ws: Workspace | MjWorkspace, path: Path, buffers: Mapping[Path, str]
) -> list[Symbol]:
    """The outline of one file, in file order."""
    if isinstance(ws, MjWorkspace):
        return sorted(_mj_symbols(ws, path, buffers), key=lambda s: s.start)
    # a YAML file's outline is made from its text alone
    text = _text_of(path, buffers, ws.root)
    with _OUTLINES_LOCK:
        known = _OUTLINES.get(path)
    if known is not None and known[0] == text:
        return list(known[1])
    d = _read(path, ws, buffers)
    found = [s for s in _yaml_symbols(d) if s is not None] if d is not None else []
    found.sort(key=lambda s: s.start)
    with _OUTLINES_LOCK:
        _OUTLINES.pop(path, None)
        if len(_OUTLINES) >= _OUTLINES_LIMIT:
            _OUTLINES.pop(next(iter(_OUTLINES)))
        _OUTLINES[path] = (text, found)
    return list(found)


def _fuzzy(query: str, name: str) -> bool:
    """Every character of the query, in order, in the name (case-insensitive)."""
    it = iter(name.lower())
    return all(c in it for c in query.lower())


def workspace_symbols(
    workspaces: list[Workspace | MjWorkspace], query: str, buffers: Mapping[Path, str]
) -> list[Symbol]:
    """The variables, agents and steps of every workflow of the workspaces (and the MJ flow
    agents and their steps) whose names match ``query``, each with its workflow."""
    out: list[Symbol] = []
    for ws in workspaces:
        if isinstance(ws, MjWorkspace):
            out += [
                s
                for s in _mj_symbols(ws, None, buffers)
                if s.kind in ("agent", "step") and _fuzzy(query, s.name)
            ]
            continue
        for workflow in ws.session.workflows():
            folder = ws.root / WORKFLOWS_DIR / workflow
            # an agent is where the runtime creates it (agents.yaml), else the contract's
            created = document_symbols(ws, folder / AGENTS_FILE, buffers)
            agents = {s.name for s in created}
            found = [
                *created,
                *(
                    s
                    for s in document_symbols(ws, folder / CONTRACT_FILE, buffers)
                    if s.kind == "variable" or s.name not in agents
                ),
                *document_symbols(ws, folder / FLOW_FILE, buffers),
            ]
            for s in found:
                if s.kind in ("variable", "agent", "step") and _fuzzy(query, s.name):
                    out.append(
                        Symbol(
                            s.name, s.kind, s.detail, s.path, s.start, s.end, s.selection, workflow
                        )
                    )
        if len(out) >= WORKSPACE_LIMIT:
            break
    return out[:WORKSPACE_LIMIT]
