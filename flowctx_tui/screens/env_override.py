"""Overriding one environment variable for this session, without touching the process's.

The override only changes what flowctx resolves with (profile env < process env < overrides);
it is never written anywhere and is gone when the app closes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from flowctx_core.base.secrets import MASK, is_secret_key, mask_text
from flowctx_tui.widgets.keys import OrderedInput


@dataclass(frozen=True)
class EnvEdit:
    name: str
    value: str | None  # None: remove the override


def describe_current(
    name: str,
    env: Mapping[str, str],
    overrides: Mapping[str, str],
    profile: Mapping[str, str],
    process: Mapping[str, str],
    *,
    reveal: bool,
) -> str:
    """Where the value of ``name`` comes from now, masked unless revealed."""
    if name not in env:
        return "not set"
    value = env[name]
    shown = value if reveal else (MASK if is_secret_key(name) else mask_text(value))
    where = (
        "your override"
        if name in overrides
        else "the process environment"
        if name in process
        else "flowctx.yaml"
        if name in profile
        else "?"
    )
    return f"{shown!r} from {where}"


class EnvOverrideScreen(ModalScreen[EnvEdit | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="env.cancel"),
        Binding("ctrl+r", "remove", "Remove override", id="env.remove"),
    ]

    def __init__(
        self,
        name: str | None,
        *,
        env: Mapping[str, str],
        overrides: Mapping[str, str],
        profile: Mapping[str, str],
        process: Mapping[str, str],
        reveal: bool = False,
        variable: str | None = None,
    ) -> None:
        super().__init__()
        self.env_name = name or ""
        self.env = dict(env)
        self.overrides = dict(overrides)
        self.profile = dict(profile)
        self.process = dict(process)
        self.reveal = reveal
        self.variable = variable

    def compose(self) -> ComposeResult:
        prefill = self.overrides.get(self.env_name, self.env.get(self.env_name, ""))
        # a URI password is as secret as a secret-looking name: SERVICE_URL=https://u:pw@h
        # showed its password in this field
        secret = (is_secret_key(self.env_name) or mask_text(prefill) != prefill) and not self.reveal
        with Vertical(id="env-box", classes="modal-box"):
            title = "Environment override"
            if self.variable:
                title += f" for {self.variable}"
            yield Static(title, classes="modal-title")
            yield Label("Variable")
            yield OrderedInput(
                self.env_name,
                placeholder="name of the environment variable, e.g. FLOWCTX_MONGO_URI",
                id="env-name",
            )
            yield Label("Value")
            yield OrderedInput(prefill, password=secret, id="env-value")
            yield Static("", id="env-current", classes="modal-hint")
            with Horizontal(classes="modal-buttons"):
                yield Button("Apply (enter)", variant="primary", id="env-apply")
                yield Button("Remove (ctrl+r)", id="env-remove")
                yield Button("Cancel (esc)", id="env-cancel")
            yield Static(
                "Only this session resolves with it; nothing is written to disk.",
                classes="modal-hint",
            )

    def on_mount(self) -> None:
        self._describe()
        target = "#env-value" if self.env_name else "#env-name"
        self.query_one(target, Input).focus()

    def _describe(self) -> None:
        name = self.query_one("#env-name", Input).value.strip()
        text = describe_current(
            name, self.env, self.overrides, self.profile, self.process, reveal=self.reveal
        )
        self.query_one("#env-current", Static).update(Content(f"now: {text}" if name else ""))

    @on(Input.Changed, "#env-name")
    def _name_changed(self) -> None:
        self._describe()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "env-name":
            self.query_one("#env-value", Input).focus()
        else:
            self._apply()

    @on(Button.Pressed, "#env-apply")
    def _apply(self) -> None:
        name = self.query_one("#env-name", Input).value.strip()
        if not name:
            self.notify("Name the environment variable to override", severity="warning")
            return
        self.dismiss(EnvEdit(name, self.query_one("#env-value", Input).value))

    @on(Button.Pressed, "#env-remove")
    def action_remove(self) -> None:
        name = self.query_one("#env-name", Input).value.strip()
        self.dismiss(EnvEdit(name, None) if name else None)

    @on(Button.Pressed, "#env-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
