"""The help screen: every key binding active where the user was, as remapped by the key map."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static


@dataclass(frozen=True)
class HelpEntry:
    keys: str
    description: str
    binding_id: str


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "dismiss", "Close", id="help.close"),
    ]

    def __init__(self, entries: Sequence[HelpEntry]) -> None:
        super().__init__()
        self.entries = list(entries)

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box", classes="modal-box"):
            yield Static("Keys", classes="modal-title")
            yield Static(
                f"{self._close_keys()} closes this window. Remap any key with --keymap FILE: a "
                'JSON or YAML mapping of binding id to keys, e.g. {"matrix.next_error": "f10"}. '
                "ctrl+p lists every command.",
                classes="modal-hint",
                id="help-hint",
            )
            table: DataTable[Text] = DataTable(
                id="help-table", cursor_type="row", zebra_stripes=True
            )
            yield table

    def _close_keys(self) -> str:
        (close,) = (b for b in self.BINDINGS if isinstance(b, Binding) and b.id == "help.close")
        keys = self.app._keymap.get("help.close", close.key)
        return ", ".join(self.app.get_key_display(Binding(k.strip(), "")) for k in keys.split(","))

    def on_mount(self) -> None:
        table = self.query_one("#help-table", DataTable)
        table.add_columns("Keys", "Does", "Binding id")
        for e in self.entries:
            table.add_row(Text(e.keys, style="bold"), Text(e.description), Text(e.binding_id))
        table.focus()

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
