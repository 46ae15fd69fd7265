"""The footer: Textual's, plus the tab keys that still work while a text field has the focus.

The tabs' first keys are digits (``1`` the matrix, ``2`` the scratchpad ...), shown in the tab
titles; in a text field a digit is text, so only the tabs' other keys (function keys) switch
there. The footer says which, while the focus is in a text field, so nobody types ``3`` into a
condition expecting the routes.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.widgets import Footer, Input, TextArea
from textual.widgets._footer import FooterKey


def is_text_field(widget: object) -> bool:
    """A widget where printable keys are text: an input, or a text area that can be edited."""
    if isinstance(widget, Input):
        return True
    return isinstance(widget, TextArea) and not widget.read_only


class AppFooter(Footer):
    """``typing_keys()`` gives ``(key, display)`` of the key that switches tabs while typing,
    or None (nothing to add); it is asked each time the bindings change (a focus move).

    Keys that do not fit whole beside the palette key are left out rather than cut
    (``w Workf▏``): they are all in f1's list and the palette."""

    def __init__(self, typing_keys: Callable[[], tuple[str, str] | None], **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._typing_keys = typing_keys

    def compose(self) -> ComposeResult:
        hint = self._typing_keys() if is_text_field(self.screen.focused) else None
        if hint is not None:
            key, display = hint
            # first: it is what a digit would have done outside the text field
            yield FooterKey(key, display, "Tabs", "", tooltip="switch tabs while typing").data_bind(
                compact=Footer.compact
            )
        yield from super().compose()

    async def recompose(self) -> None:
        await super().recompose()
        self.call_after_refresh(self._fit)

    def on_resize(self) -> None:
        for key in self.query(FooterKey):
            key.display = True
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """Leave out, from the right, the keys that would reach under the palette key or past
        the edge; the help key (which lists them all) is kept."""
        keys = [k for k in self.query(FooterKey) if k.display]
        if any(not k.region.width for k in keys):
            self.call_after_refresh(self._fit)  # not laid out yet: after the next refresh
            return
        palette = [k for k in keys if k.has_class("-command-palette")]
        room = (palette[0].region.x if palette else self.region.right) - self.region.x

        def width(key: FooterKey) -> int:
            return key.outer_size.width + key.styles.margin.width

        kept = [k for k in keys if k not in palette and k.action in ("help", "app.help")]
        room -= sum(width(k) for k in kept)
        used = 0
        full = False
        for key in keys:
            if key in palette or key in kept:
                continue
            used += width(key)
            if full or used > room:
                full = True  # the keys after one left out go too: no gaps in the order
                key.display = False
