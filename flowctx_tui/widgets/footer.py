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
    or None (nothing to add); it is asked each time the bindings change (a focus move)."""

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
