"""Editing the launch values (app_id, user_id, declared variables ...) and the runtime context
(what the host supplies for ``type: runtime`` sources) as JSON.

What the user types here is merged over flowctx.yaml's ``launch:`` for this session only. The
runtime context travels with the launch values under ``$runtime_context``, as
``--runtime-context`` sends it; the dialog shows it in a box of its own, because a launch
value never supplies one (the loader reads runtime sources before any launch value applies).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static, TextArea

from flowctx_core.base.jsontext import JsonTextError, parse_json
from flowctx_core.base.secrets import mask_value
from flowctx_core.model.inputs import RUNTIME_CONTEXT_KEY
from flowctx_tui.widgets.keys import OrderedTextArea


def parse_launch(
    text: str, what: str = "launch values"
) -> tuple[dict[str, Any] | None, str | None]:
    """The launch object, or a message naming line:column of the problem."""
    if not text.strip():
        return {}, None
    try:
        value = parse_json(text)  # huge integers and deep nesting too, never a traceback
    except JsonTextError as exc:
        return None, f"{what}: line {exc.line}, column {exc.column}: {exc.reason}"
    if not isinstance(value, dict):
        return None, f"{what} must be a JSON object, not {type(value).__name__}"
    return value, None


def keep_masked(edited: dict[str, Any], before: Mapping[str, Any]) -> dict[str, Any]:
    """``edited`` with every value still shown as masked replaced by the real one it hid."""
    out = dict(edited)
    for key, value in edited.items():
        if key in before and before[key] != value and mask_value(before[key], key) == value:
            out[key] = before[key]
    return out


class LaunchScreen(ModalScreen[dict[str, Any] | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "apply", "Apply", id="launch.apply"),
        # priority: the JSON editor would take the first escape to move the focus out
        Binding("escape", "cancel", "Cancel", priority=True, id="launch.cancel"),
    ]

    def __init__(
        self, launch: Mapping[str, Any], profile_launch: Mapping[str, Any], reveal: bool = False
    ) -> None:
        super().__init__()
        given = dict(launch)
        runtime = given.pop(RUNTIME_CONTEXT_KEY, None)
        self.launch = given
        self.runtime_context: dict[str, Any] = dict(runtime) if isinstance(runtime, dict) else {}
        self.profile_launch = dict(profile_launch)
        self.reveal = reveal

    def compose(self) -> ComposeResult:
        with Vertical(id="launch-box", classes="modal-box"):
            yield Static("Launch values", classes="modal-title")
            base = json.dumps(mask_value(self.profile_launch), ensure_ascii=False, default=str)
            yield Static(
                Content(f"flowctx.yaml launch: {base}\nYours are merged over it (yours win)."),
                classes="modal-hint",
            )
            # secret-looking keys and URI passwords are shown masked, like everywhere else;
            # a masked value left as it is keeps the real one (see keep_masked)
            shown = self.launch if self.reveal else mask_value(self.launch)
            text = json.dumps(shown, indent=2, ensure_ascii=False) if shown else "{\n}"
            area = OrderedTextArea.code_editor(
                text, language="json", id="launch-text", tab_behavior="focus"
            )
            area.cursor_blink = False
            yield area
            yield Static(
                Content(
                    "Runtime context: what the host supplies for 'type: runtime' sources "
                    "(as --runtime-context; a launch value never supplies one)"
                ),
                classes="modal-hint",
            )
            rshown = self.runtime_context if self.reveal else mask_value(self.runtime_context)
            rtext = json.dumps(rshown, indent=2, ensure_ascii=False) if rshown else "{\n}"
            runtime = OrderedTextArea.code_editor(
                rtext, language="json", id="launch-runtime", tab_behavior="focus"
            )
            runtime.cursor_blink = False
            yield runtime
            yield Static("", id="launch-error")
            with Horizontal(classes="modal-buttons"):
                yield Button("Apply (ctrl+s)", variant="primary", id="launch-apply")
                yield Button("Cancel (esc)", id="launch-cancel")

    def on_mount(self) -> None:
        self.query_one("#launch-text", TextArea).focus()

    def _parsed(self) -> tuple[dict[str, Any] | None, str | None]:
        """Both boxes as the launch the app resolves with, or the first problem."""
        value, problem = parse_launch(self.query_one("#launch-text", TextArea).text)
        if problem is not None:
            return None, problem
        runtime, problem = parse_launch(
            self.query_one("#launch-runtime", TextArea).text, "the runtime context"
        )
        if problem is not None:
            return None, problem
        assert value is not None and runtime is not None
        out = keep_masked(value, self.launch)
        out.pop(RUNTIME_CONTEXT_KEY, None)
        runtime = keep_masked(runtime, self.runtime_context)
        if runtime:
            out[RUNTIME_CONTEXT_KEY] = runtime
        return out, None

    @on(TextArea.Changed)
    def _changed(self, event: TextArea.Changed) -> None:
        _, problem = self._parsed()
        self.query_one("#launch-error", Static).update(problem or "")

    @on(Button.Pressed, "#launch-apply")
    def action_apply(self) -> None:
        value, problem = self._parsed()
        if problem is not None:
            self.query_one("#launch-error", Static).update(problem)
            self.notify(problem, title="Launch values not applied", severity="error")
            return
        self.dismiss(value)

    @on(Button.Pressed, "#launch-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
