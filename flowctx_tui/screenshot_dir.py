"""Where f8 saves screenshots: never the current directory (a user's repository).

``--screenshot-dir DIR`` wins; else ``$FLOWCTX_SCREENSHOT_DIR``; else a per-user folder,
XDG-style: ``$XDG_STATE_HOME/flowctx/screenshots``, which defaults to
``~/.local/state/flowctx/screenshots`` (on Windows ``%LOCALAPPDATA%\\flowctx\\screenshots``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

ENV = "FLOWCTX_SCREENSHOT_DIR"


def screenshot_dir(env: Mapping[str, str], chosen: Path | None = None) -> Path:
    """The folder for screenshots given the process environment ``env``; not created."""
    if chosen is not None:
        return chosen.expanduser()
    if env.get(ENV):
        return Path(env[ENV]).expanduser()
    if os.name == "nt" and env.get("LOCALAPPDATA"):
        return Path(env["LOCALAPPDATA"]) / "flowctx" / "screenshots"
    state = env.get("XDG_STATE_HOME", "")
    # the XDG spec: a relative path is invalid and is ignored
    if not state or not Path(state).is_absolute():
        home = Path(env["HOME"]) if env.get("HOME") else Path.home()
        state = str(home / ".local" / "state")
    return Path(state) / "flowctx" / "screenshots"
