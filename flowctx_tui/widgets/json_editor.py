"""A JSON editor that keeps the last valid value while the text is being fixed.

``JsonEditor`` wraps ``TextArea.code_editor(language="json")`` (through ``json_code_editor``,
which avoids a tree-sitter crash). Text is parsed off the UI thread,
debounced, so a multi-megabyte document stays responsive; an older parse finishing late is
dropped (a generation counter). While the text is invalid the editor keeps its last valid value,
says so under the text ("using last valid data (line 3, col 9: Expecting ',' delimiter)") and
marks the offending line and column in the text without moving the cursor; ``ctrl+g`` jumps
there. Every parse posts ``JsonEditor.Parsed``.
"""

from __future__ import annotations

import asyncio
import json
import operator
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from itertools import repeat
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.document._document import Document, EditResult
from textual.document._wrapped_document import WrappedDocument
from textual.geometry import Size
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Static, TextArea
from textual.widgets.text_area import LanguageDoesNotExist, Location, Selection

from flowctx_core.base.jsontext import JsonTextError
from flowctx_core.base.jsontext import parse_json as load_json_text
from flowctx_tui.widgets.keys import BoundKeysInOrder

#: Seconds of quiet typing before the text is parsed.
DEBOUNCE = 0.1
#: Characters above which syntax colouring is switched off: Textual rebuilds the whole
#: highlight map in Python on every edit, which takes seconds for a multi-megabyte document.
LARGE = 200_000


@dataclass(frozen=True)
class JsonProblem:
    """Why the text is not usable; ``line``/``column`` are 1-based as editors show them."""

    message: str
    line: int
    column: int

    def describe(self) -> str:
        return f"line {self.line}, col {self.column}: {self.message}"


def parse_json(
    text: str, empty: Any, check: Callable[[Any], str | None] | None = None
) -> tuple[Any, JsonProblem | None]:
    """``(value, None)`` or ``(None, problem)``; blank text means ``empty``."""
    if not text.strip():
        return empty, None
    try:
        # huge integers and deep nesting are located problems, never a traceback; the depth
        # json.loads accepts is left as it was (this editor has its own checks)
        value = load_json_text(text, check_nesting=False)
    except JsonTextError as exc:
        return None, JsonProblem(exc.reason, exc.line, exc.column)
    if check is not None:
        message = check(value)
        if message:
            return None, JsonProblem(message, 1, 1)
    return value, None


# Textual's bundled JSON highlight query ends with an ``#eq?`` text predicate (concealing
# escaped quotes). With tree-sitter 0.26.1 that predicate corrupts the heap and the app
# segfaults a moment later (pyproject pins tree-sitter below 0.26 for the same reason); JSON
# editors use this query anyway, so an environment with 0.26 still works: same captures, no
# predicates.
JSON_HIGHLIGHTS = """
[(true) (false)] @boolean
(null) @json.null
(number) @number
(pair key: (string) @json.label)
(pair value: (string) @string)
(array (string) @string)
(escape_sequence) @string.escape
(ERROR) @json.error
["," ":"] @punctuation.delimiter
["[" "]" "{" "}"] @punctuation.bracket
"""


def json_code_editor(text: str = "", cls: type[TextArea] = TextArea, **kwargs: Any) -> TextArea:
    """``TextArea.code_editor(language="json")`` with the predicate-free highlight query.

    Use this wherever a JSON TextArea is needed (see ``JSON_HIGHLIGHTS`` for why).
    """
    # tab moves the focus, as everywhere else in the app (and as help says): an editor that
    # swallows it traps a keyboard user in the text; indenting is two spaces typed
    kwargs.setdefault("tab_behavior", "focus")
    area = cls.code_editor(text, language=None, **kwargs)
    area.update_highlight_query("json", JSON_HIGHLIGHTS)
    # without a tree-sitter JSON grammar, plain text still edits fine
    small = len(text) <= LARGE
    area.match_cursor_bracket = small
    with suppress(LanguageDoesNotExist):
        area.language = "json" if small else None
    return area


def dumps(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


class _CountedWrap(WrappedDocument):
    """Textual's wrapped document, with ``height`` in O(1).

    Textual sums every line's wrap offsets for ``height`` and asks for it once per rendered
    row, so a 40 000-line document took seconds per keystroke. One entry per visual line is
    already kept in ``_offset_to_line_info``; its length is the height.
    """

    @property
    def height(self) -> int:
        return len(self._offset_to_line_info)


class _JoinedOnce(Document):
    """Textual's document, with ``text`` joined once per change.

    ``TextArea.render_line`` tests ``not self.text`` for every line it draws, and ``text``
    joins the whole document: 13 ms a line, half a second a frame for 10 MB. Every change
    goes through ``replace_range``, which drops the joined text.
    """

    _joined: str | None = None

    @property
    def text(self) -> str:
        if self._joined is None:
            self._joined = super().text
        return self._joined

    def replace_range(self, start: Location, end: Location, text: str) -> EditResult:
        self._joined = None
        return super().replace_range(start, end, text)


class _JsonArea(BoundKeysInOrder, TextArea):
    """The text area, able to mark the line and column of a JSON error."""

    error_at: tuple[int, int] | None = None  # 0-based (row, column)

    def find_matching_bracket(self, bracket: str, search_from: Location) -> Location | None:
        # Textual looks for the matching bracket on every cursor move even when matching is
        # off; from the opening ``{`` of a large document that is a scan of all of it.
        if not self.match_cursor_bracket:
            return None
        return super().find_matching_bracket(bracket, search_from)

    def _set_document(self, text: str, language: str | None) -> None:
        super()._set_document(text, language)
        if type(self.document) is Document:  # large documents: no syntax highlighting
            self.document.__class__ = _JoinedOnce
        wrapped = self.wrapped_document
        if type(wrapped) is WrappedDocument and hasattr(wrapped, "_offset_to_line_info"):
            wrapped.__class__ = _CountedWrap

    def _rewrap_and_refresh_virtual_size(self) -> None:
        # Unwrapped (width 0), the wrap depends on the text and tab width only, not on the
        # widget's size, yet Textual redoes it for every line on each resize: a status line
        # appearing under a 10 MB document cost 2 s a time. Edits keep it current themselves.
        wrapped = self.wrapped_document
        if (
            self.wrap_width == 0
            and getattr(wrapped, "_width", None) == 0
            and getattr(wrapped, "_tab_width", None) == self.indent_width
        ):
            self._line_cache.clear()
            self._refresh_size()
            return
        super()._rewrap_and_refresh_virtual_size()

    def _refresh_size(self) -> None:
        lines = self.document.lines
        if self.soft_wrap or len(lines) < 2_000:
            super()._refresh_size()
            return
        # Textual measures every line's cells (tabs expanded) in Python on each keystroke:
        # 0.5 s in a 90,000-line document. Character counts (at C speed) are the cell widths
        # of tab-free ASCII; with tabs or wide characters, a bound on them.
        widest = max(map(len, lines), default=0)
        if not all(map(str.isascii, lines)) or any(map(operator.contains, lines, repeat("\t"))):
            widest *= max(2, self.indent_width)
        self.virtual_size = Size(widest + self.gutter_width + 1, len(lines))
        self._refresh_scrollbars()

    def mark_error(self, at: tuple[int, int] | None) -> None:
        if at != self.error_at:
            self.error_at = at
            self.notify_style_update()  # drops cached lines so the mark appears or goes
            self.refresh()

    def get_line(self, line_index: int) -> Text:
        line = super().get_line(line_index)
        if self.error_at is not None and self.error_at[0] == line_index:
            line.stylize("on #4a1212")
            col = min(self.error_at[1], max(len(line.plain) - 1, 0))
            if line.plain:
                line.stylize("bold white on red", col, col + 1)
        return line


class JsonEditor(Widget):
    """One JSON document with a label (``data``, ``payload``...) and its parse status."""

    DEFAULT_CSS = """
    JsonEditor {
        height: 1fr;
        layout: vertical;
    }
    JsonEditor > TextArea {
        height: 1fr;
        border: none;
        padding: 0;
    }
    JsonEditor > TextArea:focus {
        background-tint: $foreground 4%;
    }
    JsonEditor > .json-status {
        height: auto;
        max-height: 3;
        color: $text-muted;
    }
    JsonEditor.-invalid > .json-status {
        color: $text-error;
        text-style: bold;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+g", "goto_error", "Go to JSON error", show=False, id="json.goto_error"),
    ]

    @dataclass
    class Parsed(Message):
        """The text was parsed: ``value`` is what is in use (the last valid one on a problem)."""

        editor: JsonEditor
        value: Any
        problem: JsonProblem | None

        @property
        def control(self) -> JsonEditor:
            return self.editor

    def __init__(
        self,
        label: str,
        value: Any = None,
        *,
        empty: Any = None,
        check: Callable[[Any], str | None] | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.label = label
        self.empty = {} if empty is None else empty
        self.check = check
        self.value: Any = self.empty if value is None else value
        self.problem: JsonProblem | None = None
        self._generation = 0
        self._parsed_generation = 0
        self._timer: Timer | None = None
        self._loaded_text: str | None = dumps(self.value)

    def compose(self) -> ComposeResult:
        # compact: no border. Textual's focus border (tall, drawn with ▊ down the left
        # edge) read as a column of tick marks beside the text; the tint says focused instead
        area = json_code_editor(self._loaded_text or "", _JsonArea, soft_wrap=False, compact=True)
        self._loaded_text = None  # compose does not post a Changed for the initial text
        yield area
        yield Static("", classes="json-status")

    @property
    def text_area(self) -> _JsonArea:
        return self.query_one(_JsonArea)

    @property
    def text(self) -> str:
        return self.text_area.text

    def set_value(self, value: Any) -> None:
        """Show ``value`` (replacing the text, keeping the cursor where it can) and use it."""
        text = dumps(value)
        self.value = value
        self._generation += 1  # a parse still running describes the old text
        self._parsed_generation = self._generation
        if not self.is_mounted:
            self._loaded_text = text
            return
        self._set_problem(None)
        if text == self.text_area.text:
            return
        self._loaded_text = text
        self._colour(len(text) <= LARGE)
        area = self.text_area
        cursor = area.cursor_location
        area.load_text(text)
        area.cursor_location = area.clamp_visitable(cursor)

    def set_text(self, text: str) -> None:
        """Replace the text as if the user typed it (parsed like an edit)."""
        self._colour(len(text) <= LARGE)
        self.text_area.load_text(text)

    def _colour(self, on: bool) -> None:
        """Syntax colouring on or off (off for large documents), keeping the cursor."""
        area = self.text_area
        if on == (area.language == "json"):
            return
        selection = area.selection
        # bracket matching scans the document from the cursor on every move: off when large
        area.match_cursor_bracket = on
        if on:
            with suppress(LanguageDoesNotExist):
                area.language = "json"
        else:
            area.language = None
        area.selection = Selection(
            area.clamp_visitable(selection.start), area.clamp_visitable(selection.end)
        )

    @on(TextArea.Changed)
    def _text_changed(self, event: TextArea.Changed) -> None:
        event.stop()
        text = event.text_area.text
        self._colour(len(text) <= LARGE)
        if self._loaded_text is not None and text == self._loaded_text:
            # our own load_text: the value is already known
            self._loaded_text = None
            return
        self._loaded_text = None
        self._generation += 1
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(DEBOUNCE, self._start_parse)

    def _start_parse(self) -> None:
        self._timer = None
        self.run_worker(
            self._parse(self.text_area.text, self._generation),
            group="json-parse",
            exclusive=True,
            exit_on_error=False,
        )

    async def _parse(self, text: str, generation: int) -> None:
        value, problem = await asyncio.to_thread(parse_json, text, self.empty, self.check)
        if generation != self._generation:
            return  # the text changed while parsing; a newer parse is on its way
        self._parsed_generation = generation
        if problem is None:
            self.value = value
        self._set_problem(problem)
        self.post_message(self.Parsed(self, self.value, problem))

    def _set_problem(self, problem: JsonProblem | None) -> None:
        self.problem = problem
        self.set_class(problem is not None, "-invalid")
        area = self.text_area
        status = self.query_one(".json-status", Static)
        if problem is None:
            area.mark_error(None)
            status.update("")
            return
        area.mark_error((problem.line - 1, problem.column - 1))
        status.update(
            Text(f"using last valid {self.label} ({problem.describe()})  ctrl+g: go to error")
        )

    @property
    def pending(self) -> bool:
        """True while an edit has not been parsed yet (tests and callers can wait on it)."""
        return self._parsed_generation != self._generation

    def action_goto_error(self) -> None:
        if self.problem is None:
            return
        area = self.text_area
        area.focus()
        row, col = area.clamp_visitable((self.problem.line - 1, self.problem.column - 1))
        end = area.clamp_visitable((row, col + 1))
        area.selection = Selection((row, col), end)
