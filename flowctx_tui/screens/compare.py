"""Asking what to compare with (review mode): a git revision or a workspace folder."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class CompareScreen(ModalScreen[str | None]):
    """Returns what the user typed (a revision such as ``HEAD`` or ``main``, or a folder),
    or None when cancelled."""

    DEFAULT_CSS = """
    CompareScreen {
        align: center middle;
    }
    CompareScreen #compare-box {
        width: 64;
        height: auto;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="compare.cancel")
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="compare-box", classes="modal-box"):
            yield Static("Compare with", classes="modal-title")
            yield Input(
                value="HEAD", placeholder="HEAD, main, a commit, or a folder", id="compare-spec"
            )
            yield Static(
                "a git revision of this workspace's repository (read through git: the working "
                "tree is not touched) or a folder\nenter: compare   escape: cancel",
                classes="modal-hint",
            )

    def on_mount(self) -> None:
        self.query_one("#compare-spec", Input).focus()

    @on(Input.Submitted, "#compare-spec")
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
