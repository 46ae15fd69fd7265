"""The detail pane: everything about one variable, from its value to its definition as written."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from flowctx_core.base.secrets import MASK, is_secret_key, mask_text
from flowctx_core.model.matrix import Row
from flowctx_core.report.display import display_value
from flowctx_tui.cli.terminal import escape_controls as esc

if TYPE_CHECKING:
    from textual.css.styles import RulesMap
    from textual.strip import Strip
    from textual.style import Style
    from textual.visual import RenderOptions

    from flowctx_core.review.diff import VariableChange
    from flowctx_core.runtime.policy import AuthorityPolicy

#: outcome -> (icon, style)
OUTCOMES = {
    "used": ("✓", "$text-success"),
    "shadowed": ("↷", "$text-warning"),
    "missing": ("·", "$text-muted"),
    "skipped": ("-", "$text-muted"),
    "error": ("✗", "$text-error"),
}
STATUS_STYLES = {
    "resolved": "$text-success",
    "default": "$text-accent",
    "fallback": "$text-warning",
    "missing": "$text-secondary",
    "pending": "$text-muted",
    "error": "$text-error bold",
}
#: Values longer than this are cut in the pane (a file source may be megabytes).
MAX_VALUE_CHARS = 20_000
_YAML_ENTRY = re.compile(
    r"^(?P<head>\s*(?:-\s+)?(?P<key>[^\s:#'\"][^:#]*?)\s*:\s+)(?P<value>\S.*)$"
)


def value_text(row: Row, *, reveal: bool) -> tuple[str, bool]:
    """The full value as shown and whether it is JSON: multi-line text stays text."""
    value = display_value(row, reveal=reveal)
    is_json = not (isinstance(value, str) and "\n" in value)
    text = json.dumps(value, indent=2, ensure_ascii=False, default=str) if is_json else value
    if len(text) > MAX_VALUE_CHARS:
        more = len(text) - MAX_VALUE_CHARS
        text = text[:MAX_VALUE_CHARS] + f"\n… ({more:,} more characters not shown)"
    return text, is_json


def definition_lines(row: Row, contract_lines: Sequence[str], contract_file: str) -> list[str]:
    """The definition's lines as written in the contract (comments included), or []."""
    loc = row.loc
    if loc is None or loc.file != contract_file or not 0 < loc.line <= len(contract_lines):
        return []
    first = contract_lines[loc.line - 1]
    indent = len(first) - len(first.lstrip())
    out = [first]
    for line in contract_lines[loc.line :]:
        stripped = line.strip()
        if stripped and len(line) - len(line.lstrip()) <= indent and not stripped.startswith("#"):
            break
        out.append(line)
    while out and not out[-1].strip():
        out.pop()
    return out


#: one `key: value` entry of a flow mapping; the value runs to the next `,` `}` or `]` unless quoted
_FLOW_ENTRY = re.compile(
    r"(?P<head>[{,]\s*(?P<key>\"[^\"]*\"|'[^']*'|[\w.-]+)\s*:\s*)"
    r"(?P<value>\"(?:[^\"\\]|\\.)*\"|'(?:[^']|'')*'|[^,}\]]*)"
)


def mask_definition_line(line: str, *, secret_row: bool) -> str:
    """Secret-keyed values (and a secret variable's default) become ***; URI passwords too."""
    m = _YAML_ENTRY.match(line)
    if m:
        key = m.group("key").strip()
        if is_secret_key(key) or (secret_row and key == "default"):
            return m.group("head") + MASK

    # Flow style (`source: {type: config, default: "tok"}`) puts several entries on one line,
    # which the block-style match above sees as one value: mask each entry inside braces too.
    def flow_entry(e: re.Match[str]) -> str:
        key = e.group("key").strip("\"'")
        if is_secret_key(key) or (secret_row and key == "default"):
            return e.group("head") + MASK
        return e.group(0)

    return mask_text(_FLOW_ENTRY.sub(flow_entry, line))


def _trigger_text(trigger: Any) -> str:
    if not isinstance(trigger, dict):
        return mask_text(str(trigger))
    kind = trigger.get("type", "?")
    parts = [str(kind)]
    if trigger.get("agent"):
        parts.append(f"from {trigger['agent']}")
    if trigger.get("tool"):
        parts.append(f"when tool {trigger['tool']} completes")
    if trigger.get("response_key"):
        parts.append(f"sets response.{trigger['response_key']}")
    match = trigger.get("match")
    if isinstance(match, dict):
        rules = [f"{k} {v!r}" for k, v in match.items() if v is not None]
        parts.append("matching " + " or ".join(rules))
    if trigger.get("ui_hidden"):
        parts.append("(ui hidden)")
    return mask_text(" ".join(parts))


def _heading(text: str, extra: str = "") -> Content:
    return Content.assemble(
        (text, "bold $text-primary"), (f"  {extra}" if extra else "", "$text-muted")
    )


def highlight(code: str, *, language: str) -> Content:
    # pygments is imported on first use: the matrix paints before any detail is shown
    from textual.highlight import highlight as _highlight

    return _highlight(code, language=language)


def hanging(code: Content, width: int) -> Content:
    """``code`` with each line longer than ``width`` wrapped under its own indentation (two
    more cells), as an editor shows wrapped YAML; a plain wrap starts every continuation at
    column 0, where it reads as a new top-level key. ``width`` 0: as is."""
    if width <= 0 or (code.cell_length <= width and "\n" not in code.plain):
        return code
    out: list[Content] = []
    for line in code.split("\n"):
        if line.cell_length <= width:
            out.append(line)
            continue
        plain = line.plain
        hang = min(len(plain) - len(plain.lstrip(" ")) + 2, width // 2)
        pieces = line.wrap(max(width - hang, 1))
        out.append(pieces[0])
        for piece in pieces[1:]:
            lead = len(piece.plain) - len(piece.plain.lstrip(" "))
            out.append(Content(" " * hang) + piece[lead:])
    return Content("\n").join(out)


class HangingContent(Content):
    """Content drawn with ``hanging`` at whatever width it is given: the text stays whole
    (copying, tests), only what is drawn wraps under each line's indentation."""

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        return Content.render_strips(hanging(self, width), width, height, style, options)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return Content.get_height(hanging(self, width), rules, width)


def render_row(
    row: Row | None,
    *,
    reveal: bool,
    contract_lines: Sequence[str] = (),
    contract_file: str = "",
    notes: Sequence[str] = (),
    change: VariableChange | None = None,
    base: str = "",
    authority: AuthorityPolicy | None = None,
) -> Content:
    if row is None:
        return Content.styled("Select a variable to see its value and provenance.", "$text-muted")
    blocks: list[Content] = []
    title = Content.assemble(
        (esc(row.name), "bold"),
        (f"  {row.type} · {row.source} · ", "$text-muted"),
        (row.status, STATUS_STYLES.get(row.status, "")),
    )
    if row.secret:
        title = title.append(
            Content.styled("  secret" + (" (revealed)" if reveal else ""), "$text-error")
        )
    blocks.append(title)
    if row.description:
        blocks.append(Content.styled(esc(mask_text(row.description)), "italic $text-muted"))
    if row.error:
        blocks.append(Content.styled(f"✗ {esc(mask_text(row.error))}", "$text-error"))
    # warnings up here with the error, not below the definition: the first thing read
    blocks.extend(Content.styled(f"! {esc(mask_text(w))}", "$text-warning") for w in row.warnings)
    # check's warnings located in the definition (what marked the row), not said above
    blocks.extend(Content.styled(f"! {esc(mask_text(n))}", "$text-warning") for n in notes)
    if change is not None:  # review mode: before and after, where the eye lands first
        from flowctx_tui.widgets.changes import change_blocks

        blocks.extend(change_blocks(change, base, reveal=reveal))

    code, is_json = value_text(row, reveal=reveal)
    code = esc(code)  # a JSON escape in JSON text: still the same JSON
    blocks.append(_heading("Value", esc(mask_text(row.origin))))
    blocks.append(highlight(code, language="json") if is_json else Content(code))

    blocks.append(_heading("Provenance"))
    width = max((len(s.step) for s in row.trace), default=0)
    for step in row.trace:
        icon, style = OUTCOMES.get(step.outcome, ("?", ""))
        detail = esc(step.detail if reveal else mask_text(step.detail))
        blocks.append(
            Content.assemble(
                (f" {icon} ", style),
                (step.step.ljust(width), "bold"),
                (f"  {step.outcome:<8} ", style),
                detail,
            )
        )
    if not row.trace:
        blocks.append(Content.styled(" (no steps recorded)", "$text-muted"))

    lines = definition_lines(row, contract_lines, contract_file)
    where = esc(str(row.loc)) if row.loc else ""
    blocks.append(_heading("Definition", where))
    if lines:
        shown = (
            lines if reveal else [mask_definition_line(ln, secret_row=row.secret) for ln in lines]
        )
        blocks.append(highlight(esc("\n".join(shown)), language="yaml"))
    elif row.definition is not None:
        import yaml

        text = yaml.safe_dump(row.definition, sort_keys=False, allow_unicode=True).rstrip()
        shown = text.splitlines()
        if not reveal:
            shown = [mask_definition_line(ln, secret_row=row.secret) for ln in shown]
        blocks.append(highlight(esc("\n".join(shown)), language="yaml"))
    else:
        blocks.append(
            Content.styled(" injected by the runtime; not declared in the contract", "$text-muted")
        )

    blocks.append(_heading("Agents"))
    if row.agents:
        blocks.append(Content(esc(" " + ", ".join(row.agents))))
    else:
        blocks.append(Content.styled(" not exposed to any agent", "$text-muted"))

    source = row.definition.get("source") if isinstance(row.definition, dict) else None
    triggers = source.get("triggers") if isinstance(source, dict) else None
    if row.source == "state":
        blocks.append(_heading("Triggers"))
        if isinstance(triggers, list) and triggers:
            blocks.extend(Content(esc(f" • {_trigger_text(t)}")) for t in triggers)
        else:
            blocks.append(Content.styled(" none: only tools and agents change it", "$text-muted"))

    blocks.extend(authority_blocks(row.name, authority))
    return Content("\n").join(blocks)


def authority_blocks(name: str, policy: AuthorityPolicy | None) -> list[Content]:
    """The runtime's authority for the variable: class, flags, writers and why, and what the
    graph compiler or a silent trigger says about it."""
    held = policy.get(name) if policy is not None else None
    if policy is None or held is None:
        return []
    out = [_heading("Authority", "the runtime's context authority policy")]
    out.append(Content(f" {held.summary()}"))
    for field, why in held.why.items():
        out.append(Content.styled(f"   {field}: {why}", "$text-muted"))
    for failure in policy.compile_failures:
        if failure.key == name:
            out.append(
                Content.styled(
                    f"✗ graph compile refuses it: {failure.message}; fix: {failure.fix}",
                    "$text-error",
                )
            )
    for silent in policy.silent_triggers:
        if silent.key == name:
            out.append(
                Content.styled(
                    f"! trigger {silent.trigger + 1} never writes it ({silent.writer}: "
                    f"{silent.why})",
                    "$text-warning",
                )
            )
    return out


class DetailPane(VerticalScroll, can_focus=True):
    """Scrollable; focusable so long values can be scrolled with the keyboard."""

    _shown: tuple[object, ...] | None = None
    _content: Content | None = None

    def compose(self):  # type: ignore[no-untyped-def]
        yield Static(render_row(None, reveal=False), id="detail-body")

    def show_row(
        self,
        row: Row | None,
        *,
        reveal: bool,
        contract_lines: Sequence[str] = (),
        contract_file: str = "",
        notes: Sequence[str] = (),
        change: VariableChange | None = None,
        base: str = "",
        authority: AuthorityPolicy | None = None,
    ) -> None:
        key = (
            row,
            reveal,
            id(contract_lines),
            contract_file,
            tuple(notes),
            change,
            base,
            id(authority),
        )
        if key == self._shown:
            return  # unchanged: skip re-highlighting and the relayout it causes
        before = self._shown[0] if self._shown is not None else None
        self._shown = key
        if _name(row) != _name(before):
            # another variable opens at its top; the same one re-rendered after a reload or
            # a reveal keeps the place the user scrolled to
            self.scroll_home(animate=False, immediate=True)
        # long lines (the definition's YAML above all) wrap under their own indentation
        content = render_row(
            row,
            reveal=reveal,
            contract_lines=contract_lines,
            contract_file=contract_file,
            notes=notes,
            change=change,
            base=base,
            authority=authority,
        )
        if self._content is not None and content.is_same(self._content):
            # a reload brings new contract lines and a new policy, mostly saying the same:
            # the same text and styles skip the relayout and repaint of the pane
            return
        self._content = content
        self.query_one("#detail-body", Static).update(
            HangingContent(content.plain, list(content.spans))
        )


def _name(row: object) -> str | None:
    return row.name if isinstance(row, Row) else None
