"""What the language server answers, from the same snapshot, ``resolve``, ``decide`` and
``check`` calls as the CLI: problems per file, the variable or rule under the cursor, names to
complete (where a name is defined and used: ``occurrences.py``).

Nothing here speaks the protocol (``server.py`` does): positions are 0-based (line, character)
as editors count them, paths absolute. Editors' unsaved buffers are read instead of the disk
while a question is answered (``flowctx_core.base.fsview.buffers``). Values are masked as
everywhere else; completion offers names, never values.

Problems are checked incrementally (``incremental.py``) from the workspace's last analysis;
the variable, rule and name questions are answered from each workflow's part of the last
good analysis (``Workspace.good``: the last whose contract parsed), swapped in whole when a
check ends, so they never wait for the check that is running; only a workflow no analysis has
reached yet is read and resolved on the spot.
"""

from __future__ import annotations

import re
import threading
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import repeat
from operator import attrgetter, is_
from pathlib import Path
from typing import Any

from flowctx_core.base import fsview
from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.gcpause import gc_paused
from flowctx_core.base.peritem import flagged
from flowctx_core.base.secrets import MASK, mask_text
from flowctx_core.base.textlines import text_lines
from flowctx_core.base.yamledit import common_prefix
from flowctx_core.model.filenames import (
    CONTRACT_FILE,
    FLOW_FILE,
    HANDOFFS_FILE,
    PROFILE_FILE,
    TRANSITIONS_FILE,
    WORKFLOWS_DIR,
)
from flowctx_core.model.matrix import Matrix
from flowctx_core.model.workspace_root import WorkspaceNotFound, find_root
from flowctx_core.session import Session, open_session

_WORD = re.compile(r"[A-Za-z0-9_]+")
_SHOWN = 160


@dataclass(frozen=True)
class Located:
    """A problem of one file, 0-based, with the span it covers on its line."""

    path: Path
    line: int
    start: int
    end: int
    problem: Diagnostic
    #: the line's text (start and end count its code points; the server converts them)
    row: str = ""


@dataclass
class Workspace:
    """One workspace the editor has files of: its session, and the last answers.

    ``latest`` and ``good`` are replaced whole by the checker (never changed in place), so a
    request reads them without a lock while the next check runs."""

    root: Path
    session: Session
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: files that had problems at the last publication (cleared when they have none)
    published: set[Path] = field(default_factory=set)
    #: the last analysis (``incremental.Analysis``), the next one's starting point
    latest: Any = None
    #: each workflow's part of the last analysis whose contract parsed: hover, completion and
    #: definition answer from it at once, whatever check is running
    good: Mapping[str, Any] = field(default_factory=dict)
    #: flowctx.yaml's text the session was read with
    profile_text: str | None = None
    #: each workflow's last contract that parsed, kept by the checker across stopped checks
    #: (``incremental.analyse``'s ``latest``)
    parses: dict[str, Any] = field(default_factory=dict)
    #: the last problems located, by the id of their problem (``_located``), and the texts of
    #: their files then
    located: dict[int, Located] = field(default_factory=dict)
    texts: dict[Path, str] = field(default_factory=dict)


@dataclass
class MjWorkspace:
    """MemberJunction agent metadata the editor has files of: an agents entity folder (its
    ``.mj-sync.json`` names ``MJ: AI Agents``), checked as ``flowctx check`` checks it."""

    root: Path
    lock: threading.Lock = field(default_factory=threading.Lock)
    published: set[Path] = field(default_factory=set)


def mj_folder(path: Path) -> Path | None:
    """The agents entity folder a JSON file of MJ agent metadata belongs to, else None."""
    if path.suffix != ".json":
        return None
    from flowctx_core.memberjunction.metadata import agent_folders

    found = agent_folders(path)
    return found[0].resolve() if found else None


def open_workspace(
    path: Path, env: Mapping[str, str], runtime: str | None = None
) -> Workspace | MjWorkspace | None:
    """The workspace a file belongs to (as every command finds it), or None; a JSON file of
    MemberJunction agent metadata belongs to its entity folder; ``runtime`` (``flowctx lsp
    --runtime``) names a Mozaiks workspace's profile, else its flowctx.yaml does."""
    folder = mj_folder(path)
    if folder is not None:
        return MjWorkspace(folder)
    try:
        root, _ = find_root(path if path.is_dir() else path.parent)
    except WorkspaceNotFound:
        return None
    session = open_session(root, env=dict(env), runtime=runtime)
    resolved = Path(root).resolve()
    return Workspace(
        resolved, session, profile_text=_text_of(resolved / PROFILE_FILE, {}, resolved)
    )


def workflow_of(ws: Workspace, path: Path) -> str | None:
    """The workflow a file of ``workflows/<name>/`` belongs to."""
    try:
        parts = path.resolve().relative_to(ws.root).parts
    except ValueError:
        return None
    if len(parts) >= 3 and parts[0] == WORKFLOWS_DIR:
        return parts[1]
    return None


def _span(lines: list[str], line: int, column: int) -> tuple[int, int]:
    """The token a problem points at on its line (0-based), else the rest of the line."""
    if line >= len(lines):
        return column, column + 1
    text = lines[line]
    m = _WORD.match(text, column) if column < len(text) else None
    if m is not None:
        return column, m.end()
    stripped = len(text.rstrip())
    return column, max(column + 1, stripped)


def _json_span(lines: list[str], line: int, column: int) -> tuple[int, int]:
    """A JSON value's span on its line: a string to its closing quote, else the token."""
    if line >= len(lines) or column >= len(lines[line]):
        return column, column + 1
    text = lines[line]
    if text[column] == '"':
        i = column + 1
        while i < len(text):
            if text[i] == "\\":
                i += 2
                continue
            if text[i] == '"':
                return column, i + 1
            i += 1
    return _span(lines, line, column)


def mj_problems(ws: MjWorkspace, buffers: Mapping[Path, str]) -> dict[Path, list[Located]]:
    """The agent metadata's problems (the editor's unsaved text counts), by file, on the JSON
    value each points at: a ``Condition`` string, an unresolved ``@lookup:``."""
    from flowctx_core.memberjunction.agents import open_mj

    with fsview.buffers(buffers):
        found = open_mj(ws.root)
        listed = found.problems()
    out: dict[Path, list[Located]] = {}
    texts: dict[Path, list[str]] = {}
    for problem in listed:
        path = (found.root / problem.file).resolve()
        if ws.root not in path.parents and path != ws.root:
            continue
        if path not in texts:
            texts[path] = text_lines(_text_of(path, buffers, ws.root))
        line, column = max(problem.line - 1, 0), max(problem.column - 1, 0)
        start, end = _json_span(texts[path], line, column)
        out.setdefault(path, []).append(
            Located(path, line, start, end, problem, _row(texts[path], line))
        )
    return out


def problems(
    ws: Workspace | MjWorkspace, buffers: Mapping[Path, str], cancel: Any = None
) -> dict[Path, list[Located]]:
    """``flowctx check``'s problems of the whole workspace, by absolute file, located on the
    span they point at. Problems in no file of the workspace (an environment variable) are
    put on the profile or are left out.

    Checked incrementally (``incremental.analyse``) from the workspace's last analysis, which
    this one replaces; ``cancel`` (set when a newer change arrives) stops it with
    ``Cancelled``, leaving the last analysis in place."""
    if isinstance(ws, MjWorkspace):
        return mj_problems(ws, buffers)
    _profile_as_edited(ws, buffers)
    # the collector paused for the whole check, not only its loads and resolutions: it
    # otherwise walked the server's kept analyses again and again while the checks allocate
    with gc_paused():
        return _checked(ws, buffers, cancel)


def _checked(ws: Workspace, buffers: Mapping[Path, str], cancel: Any) -> dict[Path, list[Located]]:
    from flowctx_tui.lsp.incremental import analyse

    found = analyse(ws.session, buffers, ws.latest, cancel, ws.parses)
    ws.latest = found
    good = dict(ws.good)
    for name, part in found.parts.items():
        if part.wf.doc is not None:
            good[name] = part
    ws.good = {name: part for name, part in good.items() if name in found.parts}
    return _located(ws, found.problems, buffers)


def _located(
    ws: Workspace, listed: list[Diagnostic], buffers: Mapping[Path, str]
) -> dict[Path, list[Located]]:
    """``listed`` (sorted by ``problem_order``: each file's problems are one run, by line) on
    the spans they point at, by absolute file. A problem the last call located (the same
    object) keeps its ``Located`` while its line's text is the same: only the lines an edit
    touched are looked at again, so a file with thousands of problems costs what changed."""
    out: dict[Path, list[Located]] = {}
    before = ws.located
    hits: list[Located | None] = list(map(before.get, map(id, listed)))
    now: dict[int, Located] = {}
    texts: dict[Path, str] = {}
    i, n = 0, len(listed)
    while i < n:
        file = listed[i].file
        j = bisect_right(listed, file, lo=i, key=_FILE)  # this file's run
        path = _inside(ws.root, file) if file else None
        if path is None:  # in no file of the workspace (an environment variable)
            i = j
            continue
        text = _text_of(path, buffers, ws.root)
        rows = text_lines(text)
        # hits on lines the text changed on (and every later line when the count changed)
        # are looked at again; lines split at breaks other than "\n" (a lone "\r") are
        # counted apart from the text's "\n", so each is looked at again
        first, last = 0, None
        if len(rows) == text.count("\n") + (not text.endswith("\n")) - (not text):
            first, last = _touched(ws.texts.get(path), text)
            texts[path] = text
        lo = bisect_left(listed, first, lo=i, hi=j, key=_ROW)
        hi = j if last is None else max(lo, bisect_left(listed, last, lo=i, hi=j, key=_ROW))
        # those on touched lines looked at, then those never located (found by C's index)
        redo = [k for k in range(lo, hi) if (h := hits[k]) is None or _row(rows, h.line) != h.row]
        redo += positions(hits, None, i, lo) + positions(hits, None, hi, j)
        for k in redo:
            problem = listed[k]
            line, column = max(problem.line - 1, 0), max(problem.column - 1, 0)
            start, end = _span(rows, line, column)
            hits[k] = Located(path, line, start, end, problem, _row(rows, line))
        run = out.setdefault(path, [])
        run.extend(hits[i:j])  # type: ignore[arg-type]
        now.update(zip(map(id, listed[i:j]), hits[i:j], strict=True))  # type: ignore[arg-type]
        i = j
    ws.located = now
    ws.texts = texts
    return out


_FILE = attrgetter("file")


def positions(items: list[Any], wanted: Any, lo: int, hi: int) -> list[int]:
    """Where ``wanted`` itself stands in ``items[lo:hi]`` (by identity: C's passes only)."""
    return [lo + k for k in flagged(list(map(is_, items[lo:hi], repeat(wanted))))]


def _ROW(problem: Diagnostic) -> int:
    """The 0-based line a problem is shown on."""
    return max(problem.line - 1, 0)


def _inside(root: Path, file: str) -> Path | None:
    """A problem file's absolute path, None outside the workspace."""
    full = (root / file).resolve()
    return full if root in full.parents or full == root else None


def _touched(old: str | None, new: str) -> tuple[int, int | None]:
    """The lines (0-based, of ``new``) an edit from ``old`` may have changed: from the first
    that differs to the end (exclusive) of the last that differs when both texts have as many
    lines (the lines after them are the same lines), else to the end (None). ``(len, len)``
    for the same text; ``(0, None)`` when there is no old text."""
    if old is None:
        return 0, None
    if old == new:
        return len(new), len(new)
    same = common_prefix(old, new, min(len(old), len(new)))
    first = new.count("\n", 0, same)
    if old.count("\n") != new.count("\n"):
        return first, None
    tail = common_prefix(old[::-1], new[::-1], min(len(old), len(new)) - same)
    return first, new.count("\n", 0, len(new) - tail) + 1


def _profile_as_edited(ws: Workspace, buffers: Mapping[Path, str]) -> None:
    """Read flowctx.yaml again when its text (the editor's, else the disk's) is not the one
    the session was read with: ``check`` of these buffers reads that text."""
    text = _text_of(ws.root / PROFILE_FILE, buffers, ws.root)
    if text != ws.profile_text:
        with fsview.buffers(buffers):
            ws.session = ws.session.refreshed(profile=True)
        ws.profile_text = text


def line_of(ws: Workspace, path: Path, buffers: Mapping[Path, str], line: int) -> str:
    """Line ``line`` (0-based) of ``path`` as the editor or the disk has it ("" past the end)."""
    return _row(text_lines(_text_of(path, buffers, ws.root)), line)


def _row(rows: list[str], line: int) -> str:
    return rows[line] if 0 <= line < len(rows) else ""


def _text_of(path: Path, buffers: Mapping[Path, str], root: Path) -> str:
    """The editor's text of ``path``, else the disk's, read as the CLI's loaders read: only a
    regular file inside the workspace (a committed link to /dev/zero, a FIFO or a file
    elsewhere is never opened), at most ``MAX_YAML_BYTES`` (a larger one reads as empty)."""
    from flowctx_core.base.pathsafety import confine, read_regular_file
    from flowctx_core.base.yamlmarks import MAX_YAML_BYTES

    if path in buffers:
        return buffers[path]
    real, refused = confine(root, str(path), allow_outside=False, refuse_secrets=True)
    if real is None or refused:
        return ""
    data, _why = read_regular_file(real, MAX_YAML_BYTES)
    return "" if data is None else data.decode("utf-8", errors="replace")


def word_at(text: str, line: int, character: int) -> tuple[str, int, int] | None:
    """The identifier under the cursor and its span on the line, or None."""
    lines = text_lines(text)
    if line >= len(lines):
        return None
    row = lines[line]
    for m in _WORD.finditer(row):
        if m.start() <= character <= m.end():
            return m.group(0), m.start(), m.end()
    return None


def matrix_of(ws: Workspace, workflow: str, buffers: Mapping[Path, str]) -> Matrix | None:
    """The workflow's matrix of the last good analysis (never waiting for the running check);
    resolved now only before the first analysis has it."""
    part = ws.good.get(workflow)
    if part is not None:
        return part.matrix
    if workflow not in ws.session.workflows():
        return None
    with fsview.buffers(buffers):
        return ws.session.matrix(workflow)


def _show(value: Any) -> str:
    import json

    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    text = mask_text(text)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def variable_hover(matrix: Matrix, name: str) -> str | None:
    """Markdown for a variable: its value (masked), source, every step tried, who sees it."""
    from flowctx_core.base.secrets import is_secret_key, mask_value

    row = matrix.row(name)
    if row is None:
        return None
    secret = row.secret or is_secret_key(name)
    value = MASK if secret and row.value is not None else _show(mask_value(row.value))
    lines = [
        f"**{name}** · `{row.type}` · {row.source} · {row.status}",
        "",
        f"value: `{value}`",
        f"from: {mask_text(row.origin)}",
    ]
    if row.trace:
        lines.append("")
        lines.append("tried, in order:")
        for step in row.trace:
            detail = f": {mask_text(step.detail)}" if step.detail else ""
            lines.append(f"- {step.step}: {step.outcome}{detail}")
    authority = getattr(row, "authority", None)
    if authority is not None:
        lines.append("")
        lines.append(f"authority: {mask_text(str(authority))}")
    lines.append("")
    lines.append(f"seen by: {', '.join(row.agents) or 'no agent'}")
    for warning in row.warnings:
        lines.append(f"⚠ {mask_text(warning)}")
    lines.append("")
    lines.append(f"_runtime: {matrix.runtime}_")
    return "\n".join(lines)


@dataclass(frozen=True)
class RuleAt:
    """A routing rule or path of a file: where it starts, its source, its number."""

    kind: str
    index: int
    source: str
    number: int
    line: int  # 0-based line of the list item
    target: str


def rules_in(ws: Workspace, workflow: str, path: Path, buffers: Mapping[Path, str]) -> list[Any]:
    """Every decision (under the default inputs) whose rules live in ``path``."""
    from flowctx_core.routing import decide, sources

    part = ws.good.get(workflow)
    with fsview.buffers(buffers):
        if part is not None and part.routes is not None:  # the last good analysis's
            routes, matrix = part.routes, part.matrix
        else:
            snap = ws.session.snapshot([workflow])
            routes = snap.routes[workflow]
            matrix = ws.session.matrix(workflow)
        decisions = [d for s in sources(routes) for d in decide(routes, matrix, s)]
    rel = path.resolve().relative_to(ws.root).as_posix()
    return [_told(d, routes, matrix) for d in decisions if d.file == rel]


def _told(decision: Any, routes: Any, matrix: Matrix) -> Any:
    """The decision as a lens or hover may tell it: when its conditions read a secret, with
    no winner and no outcome (each would be a bit of the secret), saying which secret."""
    from dataclasses import replace

    from flowctx_core.testing.taint import decision_secret, withheld_text

    secret = decision_secret([decision], routes, matrix, matrix.values)
    if secret is None:
        return decision
    told = withheld_text(secret)
    candidates = tuple(
        replace(c, outcome="skipped", explained=None, error=None, note=told)
        for c in decision.candidates
    )
    return replace(decision, candidates=candidates, winner=None, reason=told, ended=False)


def rule_state(decision: Any, cand: Any) -> str:
    """A rule's lens title head: whether it wins under the default inputs."""
    if decision.reason.startswith("withheld: "):
        return f"default: {decision.reason}"
    return "wins under default" if decision.winner is cand else f"default: {cand.outcome}"


def rules_at(decisions: Iterable[Any]) -> list[tuple[RuleAt, Any, Any]]:
    """(rule, its decision, its candidate) for every candidate of ``decisions``."""
    out = []
    for d in decisions:
        for number, cand in enumerate(d.candidates, 1):
            rule = RuleAt(
                d.kind, cand.index, d.source, number, max(cand.loc.line - 1, 0), cand.target
            )
            out.append((rule, d, cand))
    out.sort(key=lambda item: item[0].line)
    return out


def rule_hover(decision: Any, cand: Any) -> str:
    """Markdown for a rule: whether it wins under the default inputs, and why. Numbered as
    ``routes`` and test files number rules: the Nth its source's rules in evaluation order."""
    won = decision.winner is cand
    number = next((n for n, c in enumerate(decision.candidates, 1) if c is cand), 0)
    if decision.unread:
        head = f"**NOT READ**: {mask_text(decision.unread)}"
    elif won:
        head = "**wins** under the default inputs"
    else:
        head = f"does **not** win under the default inputs ({cand.outcome})"
    if decision.reason.startswith("withheld: "):
        head = f"under the default inputs: {decision.reason} (`flowctx routes --reveal` tells)"
    lines = [
        f"rule {number} from **{decision.source}** → **{cand.target}**",
        "",
        head,
        "",
        f"route from {decision.source}: {mask_text(decision.reason)}",
    ]
    if cand.note and "order differs" in cand.note:
        lines += ["", mask_text(cand.note)]
    explain = cand.explain_lines()
    if explain:
        lines += ["", "```text", *explain[:20], "```"]
    return "\n".join(lines)


def rule_under(rules: list[tuple[RuleAt, Any, Any]], line: int) -> tuple[RuleAt, Any, Any] | None:
    """The rule whose list item holds ``line`` (the last one starting at or before it)."""
    found = None
    for item in rules:
        if item[0].line <= line:
            found = item
        else:
            break
    return found


# --- completion ---------------------------------------------------------------------------

_OPEN_DOLLAR = re.compile(r"\$\{([A-Za-z0-9_]*)$")
_OPEN_BRACES = re.compile(r"\{\{\s*([A-Za-z0-9_]*)$")
_KEY_VALUE = re.compile(r"^\s*(?:-\s*)?([A-Za-z_]+):\s*([A-Za-z0-9_]*)$")
_LIST_ITEM = re.compile(r"^\s*-\s*([A-Za-z0-9_]*)$")
_FLOW_LIST = re.compile(r"variables:\s*\[[^\]]*?([A-Za-z0-9_]*)$")
_CONDITION = re.compile(r"^\s*(?:-\s*)?condition:\s*['\"]?(.*)$")

AGENT_KEYS = frozenset({"source_agent", "target_agent", "source", "target", "agent"})
STEP_KEYS = frozenset({"from", "to"})


@dataclass(frozen=True)
class Completions:
    kind: str  # "variable" | "agent" | "step" | "source type" | "path"
    prefix: str
    items: tuple[str, ...]


def completions(
    path: Path, text: str, line: int, character: int, matrix: Matrix | None, names: Any
) -> Completions | None:
    """What to offer at the cursor. ``names`` gives the workflow's agents and steps."""
    lines = text_lines(text)
    row = lines[line][:character] if line < len(lines) else ""
    variables = tuple(r.name for r in matrix.rows) if matrix is not None else ()
    for pattern in (_OPEN_DOLLAR, _OPEN_BRACES):
        m = pattern.search(row)
        if m:
            return Completions("variable", m.group(1), variables)
    file = path.name
    m = _CONDITION.match(row)
    if m and file == FLOW_FILE and matrix is not None:
        return _condition_paths(m.group(1), matrix)
    m = _KEY_VALUE.match(row)
    if m:
        key, prefix = m.group(1), m.group(2)
        if key == "condition_key" or key == "selected_by":
            return Completions("variable", prefix, variables)
        if key == "type" and file == CONTRACT_FILE:
            from flowctx_core.model.source_types import SOURCE_TYPES

            return Completions("source type", prefix, tuple(SOURCE_TYPES))
        if key in AGENT_KEYS and file in (TRANSITIONS_FILE, HANDOFFS_FILE):
            return Completions("agent", prefix, tuple(names.agents))
        if key in STEP_KEYS and file == FLOW_FILE:
            return Completions("step", prefix, tuple(names.steps))
    if file == CONTRACT_FILE:
        m = _FLOW_LIST.search(row) or _LIST_ITEM.match(row)
        if m and _under_variables(lines, line):
            return Completions("variable", m.group(1), variables)
    return None


def _under_variables(lines: list[str], line: int) -> bool:
    """Whether ``line`` sits in an agent's ``variables:`` list of a contract."""
    if "variables:" in lines[line]:
        return True
    indent = len(lines[line]) - len(lines[line].lstrip())
    for n in range(line - 1, -1, -1):
        row = lines[n]
        if not row.strip() or row.lstrip().startswith("#"):
            continue
        here = len(row) - len(row.lstrip())
        if here < indent or (here == indent and not row.lstrip().startswith("-")):
            return row.strip().startswith("variables:")
    return False


def _condition_paths(before: str, matrix: Matrix) -> Completions | None:
    """Paths into the condition's scope (``data.``, ``context.``...): keys only."""
    from flowctx_core.expressions.completion import completions as complete
    from flowctx_core.expressions.pathcontext import build_path_context
    from flowctx_core.testing.taint import condition_roots

    scope = build_path_context(context=matrix.values)
    # a secret variable's keys are part of it (``api_tokens: {tok_live_...: ...}``)
    found = complete(before, len(before), scope, "mj", condition_roots(matrix, "mj"))
    if not found.candidates:
        return None
    return Completions("path", before[found.start :], tuple(found.candidates))


@dataclass(frozen=True)
class Names:
    agents: tuple[str, ...] = ()
    steps: tuple[str, ...] = ()


def names_of(ws: Workspace, workflow: str, buffers: Mapping[Path, str]) -> Names:
    part = ws.good.get(workflow)
    if part is not None and part.routes is not None:  # the last good analysis's
        wf, routes = part.wf, part.routes
    else:
        with fsview.buffers(buffers):
            wf = ws.session.load(workflow)
            snap = ws.session.snapshot([workflow])
        routes = snap.routes[workflow]
    agents = list(wf.agents)
    steps: list[str] = []
    if routes.flow is not None:
        steps = list(routes.flow.step_names)
    for extra in ("user", "terminate"):
        if extra not in agents:
            agents.append(extra)
    return Names(tuple(agents), tuple(steps))


def try_command(ws: Workspace, workflow: str, source: str) -> str:
    """The ``flowctx routes`` command that shows the same decision in a terminal."""
    import shlex

    return (
        f"flowctx routes {shlex.quote(str(ws.root))} -w {shlex.quote(workflow)} "
        f"--from {shlex.quote(source)}"
    )


def coverage_counts(ws: Workspace, buffers: Mapping[Path, str]) -> dict[tuple[str, str, int], int]:
    """How many test cases take each rule ((workflow, file kind, index) -> cases)."""
    from flowctx_core.testing.model import test_files

    if not test_files(ws.root):
        return {}
    from flowctx_core.testing.run import run_workspace_tests

    counts: dict[tuple[str, str, int], int] = {}
    with fsview.buffers(buffers):
        run = run_workspace_tests(ws.session)
    for result in run.results:
        for d in result.decisions:
            if d.winner is not None:
                key = (result.workflow, d.kind, d.winner.index)
                counts[key] = counts.get(key, 0) + 1
    return counts


def reload_session(ws: Workspace) -> None:
    """Read flowctx.yaml and the seeds again (after the author saved one of them)."""
    ws.session = ws.session.refreshed(profile=True, seeds=True)
    ws.profile_text = _text_of(ws.root / PROFILE_FILE, {}, ws.root)


__all__ = [
    "Completions",
    "Located",
    "Names",
    "RuleAt",
    "Workspace",
    "completions",
    "coverage_counts",
    "matrix_of",
    "names_of",
    "open_workspace",
    "problems",
    "reload_session",
    "rule_hover",
    "rule_under",
    "rules_at",
    "rules_in",
    "try_command",
    "variable_hover",
    "word_at",
    "workflow_of",
]


def mj_hover(
    ws: MjWorkspace, path: Path, line: int, character: int, buffers: Mapping[Path, str]
) -> str | None:
    """Markdown for the path whose ``Condition`` string is under the cursor (0-based): the
    condition's value when its step gives the result 5.51.3 stores for its type, over an
    empty payload, with the explanation, and the decision the step makes."""
    from flowctx_core.memberjunction.agents import open_mj
    from flowctx_core.memberjunction.flow import machine

    with fsview.buffers(buffers):
        found = open_mj(ws.root)
    target = path.resolve()
    for agent in found.flows.values():
        for p in agent.paths:
            loc = p.at("Condition")
            if not p.condition or (found.root / loc.file).resolve() != target:
                continue
            if loc.line - 1 != line:
                continue
            lines = text_lines(_text_of(target, buffers, ws.root))
            start, end = _json_span(lines, line, loc.column - 1)
            if not start <= character < end:
                continue
            source = agent.step(p.origin)
            if source is None:
                return None
            hop = machine.next_hop(agent, source, machine.default_result(source, {}), {})
            cand = next((c for c in hop.candidates if c.index == agent.path_index[id(p)]), None)
            out = [
                f"**{agent.name}**: path from **{source.name}** to "
                f"**{agent.name_of(p.destination)}**, priority {p.priority}",
                "",
            ]
            if cand is not None:
                out.append(
                    f"Under {source.name}'s own result (the one 5.51.3 stores for a "
                    f"{source.type} step) and an empty payload: **{cand.outcome}**"
                )
                out += ["", "```text", *cand.explain_lines(), "```"]
            winner = hop.winner.name if hop.winner is not None else None
            out.append(f"The step's decision: {'→ ' + winner if winner else hop.reason}")
            return "\n".join(out)
    return None


_MJ_ROOTS = ("payload", "stepResult", "flowContext", "data", "context")
_MJ_FLOW_CONTEXT = ("currentStepId", "completedSteps", "executionPath", "stepCount")
_DOTTED_TAIL = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\.?$")
_READ_PATH = re.compile(r"\b(payload|data|context)((?:\.[A-Za-z_$][\w$]*)+)")


def _condition_under(
    ws: MjWorkspace, path: Path, line: int, character: int, buffers: Mapping[Path, str]
) -> tuple[Any, Any, int] | None:
    """(agent, path, where the string's text starts) for the Condition string the cursor is in."""
    from flowctx_core.memberjunction.agents import open_mj

    with fsview.buffers(buffers):
        found = open_mj(ws.root)
    target = path.resolve()
    lines = text_lines(_text_of(target, buffers, ws.root))
    for agent in found.flows.values():
        for p in agent.paths:
            loc = p.at("Condition")
            if p.condition is None or loc.line - 1 != line:
                continue
            if (found.root / loc.file).resolve() != target:
                continue
            start, end = _json_span(lines, line, loc.column - 1)
            if start < character < end:
                return agent, p, start + 1
    return None


def mj_completions(
    ws: MjWorkspace, path: Path, text: str, line: int, character: int, buffers: Mapping[Path, str]
) -> Completions | None:
    """Inside a ``Condition`` string: the path context's names, then ``flowContext``'s keys,
    the origin step's result keys (as 5.51.3 stores it) and the payload, data and context
    paths the agent's output mappings and conditions use."""
    import json

    from flowctx_core.memberjunction.flow import machine

    under = _condition_under(ws, path, line, character, buffers)
    if under is None:
        return None
    agent, p, begin = under
    row = text_lines(text)[line][begin:character]
    m = _DOTTED_TAIL.search(row)
    chain = m.group(0) if m else ""
    base, _, word = chain.rpartition(".")
    if not base:
        return Completions("path", word, _MJ_ROOTS)
    keys: set[str] = set()
    parts = base.split(".")
    if parts[0] == "flowContext" and len(parts) == 1:
        keys.update(_MJ_FLOW_CONTEXT)
    elif parts[0] == "stepResult":
        source = agent.step(p.origin)
        value: Any = machine.default_result(source, {}) if source is not None else {}
        for part in parts[1:]:
            value = value.get(part) if isinstance(value, dict) else None
            if isinstance(value, list):
                value = value[0] if value else None
        if isinstance(value, dict):
            keys.update(value)
    elif parts[0] in ("payload", "data", "context"):
        prefix = ".".join(parts[1:])
        seen: list[str] = []
        for other in agent.paths:
            for rm in _READ_PATH.finditer(other.condition or ""):
                if rm.group(1) == parts[0]:
                    seen.append(rm.group(2).lstrip("."))
        if parts[0] == "payload":
            for st in agent.steps:
                try:
                    mapping = json.loads(st.output_mapping or "{}")
                except ValueError:
                    continue
                if isinstance(mapping, dict):
                    seen += [
                        t.replace("[]", "")
                        for t in mapping.values()
                        if isinstance(t, str) and not t.startswith("$")
                    ]
        for full in seen:
            segs = full.split(".")
            if prefix and ".".join(segs[: len(parts) - 1]) != prefix:
                continue
            if len(segs) >= len(parts):
                keys.add(segs[len(parts) - 1])
    if not keys:
        return None
    return Completions("path", word, tuple(sorted(keys)))
