"""Nothing from a workspace reaches the terminal raw: the app's last line of defence.

Names, values, descriptions, conditions and folder names come from files someone else may
have written; an OSC 52 sequence in a variable name wrote the clipboard, an OSC 0 retitled the
window, ``ESC[2J`` cleared the screen, bidi overrides reordered a line. The views escape what
they show with the CLI's :func:`~flowctx_tui.cli.terminal.escape_controls` (a visible
``\\u001b``), and every line any widget draws (Textual's own included: toasts, headers, input
fields, the F8 screenshot) passes this filter too, which escapes whatever a view missed. A
control character takes no cell, its escape six, so a line the filter had to change is cut back
to its width rather than pushing the layout out of shape.
"""

from __future__ import annotations

from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from flowctx_tui.cli.terminal import escape_controls, has_controls


class EscapeControls(LineFilter):
    """A line filter writing every control, bidi and separator character as ``\\uXXXX``."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if not any(not s.control and has_controls(s.text) for s in segments):
            return segments
        length = Segment.get_line_length(segments)
        escaped = [
            s if s.control else Segment(escape_controls(s.text), s.style, s.control)
            for s in segments
            # a control segment is Textual's own (cursor moves), never text from a file
        ]
        return list(Segment.adjust_line_length(escaped, length))


#: one instance: Textual caches filtered lines per filter object
ESCAPE_CONTROLS = EscapeControls()
