"""A thin horizontal scrollbar: a line under the table rather than a bright block.

Textual draws a horizontal scrollbar as a full-height block in the theme's primary colour, so
under the matrix it was the most prominent thing on the screen. This renderer draws the thumb
as a heavy line (``━``) over a blank track, in the colours the app's CSS gives scrollbars;
vertical bars stay Textual's. Installed by the app for its own lifetime (``ScrollBar.renderer``
is Textual's documented hook for this).
"""

from __future__ import annotations

from math import ceil

from rich.color import Color
from rich.segment import Segment, Segments
from rich.style import Style
from textual.scrollbar import ScrollBarRender

THUMB = "━"
_BACK = Color.parse("#555555")
_BAR = Color.parse("bright_magenta")


class ThinScrollBarRender(ScrollBarRender):
    @classmethod
    def render_bar(
        cls,
        size: int = 25,
        virtual_size: float = 50,
        window_size: float = 20,
        position: float = 0,
        thickness: int = 1,
        vertical: bool = True,
        back_color: Color = _BACK,
        bar_color: Color = _BAR,
    ) -> Segments:
        if vertical:
            return super().render_bar(
                size, virtual_size, window_size, position, thickness, vertical, back_color,
                bar_color,
            )  # fmt: skip
        size = int(size)
        back = Style(bgcolor=back_color)
        if not (window_size and size and virtual_size and size != virtual_size):
            return Segments([Segment(" " * size, back), Segment.line()] * thickness)
        thumb = max(1, ceil(window_size / (virtual_size / size)))
        span = max(virtual_size - window_size, 1)
        start = min(size - thumb, max(0, round((size - thumb) * position / span)))
        # the same mouse actions as Textual's bar (scroll_up is left here): page or drag
        before = Style(bgcolor=back_color, meta={"@mouse.down": "scroll_up"})
        grab = Style(color=bar_color, bgcolor=back_color, meta={"@mouse.down": "grab"})
        after = Style(bgcolor=back_color, meta={"@mouse.down": "scroll_down"})
        line = [
            Segment(" " * start, before),
            Segment(THUMB * thumb, grab),
            Segment(" " * (size - start - thumb), after),
            Segment.line(),
        ]
        return Segments(line * thickness)
