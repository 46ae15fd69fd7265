"""Choosing the workflow to show, from the workflows found in the workspace."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option


class WorkflowPicker(ModalScreen[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="workflows.cancel")
    ]

    def __init__(self, workflows: Sequence[str], current: str) -> None:
        super().__init__()
        self.workflows = list(workflows)
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(id="workflow-box", classes="modal-box"):
            yield Static("Workflow", classes="modal-title")
            options = [
                Option(f"{name}  (shown)" if name == self.current else name, id=name)
                for name in self.workflows
            ]
            yield OptionList(*options, id="workflow-list")
            yield Static("enter: show it   escape: cancel", classes="modal-hint")

    def on_mount(self) -> None:
        options = self.query_one("#workflow-list", OptionList)
        if self.current in self.workflows:
            options.highlighted = self.workflows.index(self.current)
        options.focus()

    @on(OptionList.OptionSelected, "#workflow-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
