"""Save as test: the current inputs and verdict (what the author sees) as a new case.

Shown from the routes view (the route that wins from the selected source) and the scratchpad
(the condition's value). The author picks the test file (``.flowctx/tests/<name>.yaml``,
created when missing) and names the case; the screen shows the case as it will be written, and
the file is only written when the author applies. Problems (a file of another workflow, a name
flowctx cannot use) stay on the screen, one line, and nothing is written.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from flowctx_core.model.scenarios import SecretGuard
from flowctx_core.testing.save import NewCase, SaveError, append_case
from flowctx_tui.cli.terminal import escape_controls


def saved_as_test(app: App[object], path: Path | None) -> None:
    """The toast after a save: the file's full path (where it went is never a guess: the
    demo's copy, a test file of another name), wrapped by the toast rather than cut."""
    if path is not None:
        app.notify(f"Saved as a test in {path}", title="Save as test", timeout=8)


class SaveTestScreen(ModalScreen[Path | None]):
    """Dismissed with the path written, or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "apply", "Save", id="save_test.apply"),
        Binding("escape", "cancel", "Cancel", priority=True, id="save_test.cancel"),
    ]

    def __init__(
        self, root: Path, workflow: str, case: NewCase, guard: SecretGuard, file_name: str
    ) -> None:
        super().__init__()
        self.root = root
        self.workflow = workflow
        self.case = case
        self.guard = guard
        self.file_name = file_name

    def compose(self) -> ComposeResult:
        with Vertical(id="save-test-box", classes="modal-box"):
            yield Static("Save as test", classes="modal-title")
            yield Static(
                "Appended to .flowctx/tests/<file>.yaml (created when missing); run it with "
                "`flowctx test` or see it in the Tests tab.",
                classes="modal-hint",
            )
            yield Input(self.file_name, placeholder="test file", id="save-test-file")
            yield Input(self.case.name, placeholder="case name", id="save-test-name")
            yield Static(self._preview(), id="save-test-preview")
            yield Static("", id="save-test-error")
            with Horizontal(classes="modal-buttons"):
                yield Button("Save (ctrl+s)", variant="primary", id="save-test-apply")
                yield Button("Cancel (esc)", id="save-test-cancel")

    def on_mount(self) -> None:
        self.query_one("#save-test-name", Input).focus()

    def _current(self) -> NewCase:
        from dataclasses import replace

        name = self.query_one("#save-test-name", Input).value.strip() or self.case.name
        return replace(self.case, name=name)

    def _preview(self, case: NewCase | None = None) -> Text:
        lines = (case or self.case).lines(self.guard)
        return Text(escape_controls("\n".join(lines)), "dim")

    @on(Input.Changed, "#save-test-name")
    def _renamed(self, event: Input.Changed) -> None:
        self.query_one("#save-test-preview", Static).update(self._preview(self._current()))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_apply()

    @on(Button.Pressed, "#save-test-apply")
    def action_apply(self) -> None:
        file_name = self.query_one("#save-test-file", Input).value
        try:
            path = append_case(self.root, file_name, self.workflow, self._current(), self.guard)
        except (SaveError, OSError) as exc:
            message = escape_controls(str(exc))
            self.query_one("#save-test-error", Static).update(Text(message, "bold red"))
            return
        self.dismiss(path)

    @on(Button.Pressed, "#save-test-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
