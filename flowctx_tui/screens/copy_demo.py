"""Saving from the bundled demo: it lives inside the installed package, so nothing is written
there (a test saved into it would be run by every later ``flowctx test`` of the demo, and is
lost on the next upgrade). The user is offered a copy in a folder of theirs first
(``./flowctx-demo`` by default); the app then shows that copy, and the save goes there.

``writable_root(app, root, then)`` is the one entry point: ``then(root)`` at once when the
workspace may be written, else after the copy was made (with the copy's root), never when the
user cancels.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from flowctx_tui.cli.terminal import escape_controls
from flowctx_tui.messages import OpenWorkspace

#: where the copy goes unless the user says otherwise (beside where flowctx was started)
DEFAULT_NAME = "flowctx-demo"


def read_only_reason(root: Path) -> str | None:
    """Why flowctx does not write into ``root``: the bundled demo (part of the installed
    package), or a folder the user may not write; None when it may be written."""
    from flowctx_tui.cli.workspace_args import demo_path

    try:
        if root.resolve() == demo_path().resolve():
            return "the demo is part of the installed flowctx package"
    except OSError:
        pass
    if not os.access(root, os.W_OK):
        return f"{root} is not writable"
    return None


def default_target(cwd: Path) -> Path:
    """``cwd/flowctx-demo``, or ``flowctx-demo-2``... when that is taken."""
    target = cwd / DEFAULT_NAME
    n = 2
    while target.exists():
        target = cwd / f"{DEFAULT_NAME}-{n}"
        n += 1
    return target


def copy_workspace(source: Path, target: Path) -> Path:
    """Copy the workspace at ``source`` to the new folder ``target`` (absolute); an existing
    non-empty folder is refused rather than mixed with the demo's files."""
    target = target.expanduser()
    if not target.is_absolute():
        target = Path.cwd() / target
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise FileExistsError(f"{target} already exists and is not an empty folder")
    # the demo's caches are not the user's workspace
    shutil.copytree(
        source,
        target,
        dirs_exist_ok=True,
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
    )
    return target


class CopyDemoScreen(ModalScreen[Path | None]):
    """Dismissed with the root of the copy made, or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "apply", "Copy and use the copy", id="copy_demo.apply"),
        Binding("escape", "cancel", "Cancel", priority=True, id="copy_demo.cancel"),
    ]

    def __init__(self, source: Path, reason: str, what: str) -> None:
        super().__init__()
        self.source = source
        self.reason = reason
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical(id="copy-demo-box", classes="modal-box"):
            yield Static("Copy the demo to a folder of yours", classes="modal-title")
            yield Static(
                escape_controls(
                    f"flowctx does not write into this workspace: {self.reason}. Copy it to "
                    f"a folder of yours; flowctx then shows the copy and {self.what} there."
                ),
                classes="modal-hint",
                id="copy-demo-why",
            )
            yield Input(str(default_target(Path.cwd())), id="copy-demo-path")
            yield Static("", id="copy-demo-error")
            with Horizontal(classes="modal-buttons"):
                yield Button("Copy (ctrl+s)", variant="primary", id="copy-demo-apply")
                yield Button("Cancel (esc)", id="copy-demo-cancel")

    def on_mount(self) -> None:
        self.query_one("#copy-demo-path", Input).focus()

    @on(Input.Submitted, "#copy-demo-path")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_apply()

    @on(Button.Pressed, "#copy-demo-apply")
    def action_apply(self) -> None:
        text = self.query_one("#copy-demo-path", Input).value.strip()
        if not text:
            self._error("give the folder to copy the demo to")
            return
        try:
            target = copy_workspace(self.source, Path(text))
        except OSError as exc:
            self._error(str(exc))
            return
        self.dismiss(target)

    def _error(self, message: str) -> None:
        self.query_one("#copy-demo-error", Static).update(
            Text(escape_controls(message), "bold red")
        )

    @on(Button.Pressed, "#copy-demo-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


def writable_root(app: App[Any], root: Path, what: str, then: Callable[[Path], object]) -> None:
    """Call ``then(root)`` where saving may write: ``root`` itself, or a copy of the demo the
    user agreed to (the app switches to the copy first). ``what`` ends the dialog's sentence
    ("saves the test")."""
    reason = read_only_reason(root)
    if reason is None:
        then(root)
        return

    def copied(target: Path | None) -> None:
        if target is None:
            return
        app.post_message(OpenWorkspace(target))
        app.notify(f"The demo was copied to {target}; flowctx now shows the copy.")
        then(target)

    app.push_screen(CopyDemoScreen(root, reason, what), copied)
