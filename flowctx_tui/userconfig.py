"""The user's own settings, kept between runs: ``$XDG_CONFIG_HOME/flowctx/config.yaml``
(``~/.config/flowctx/config.yaml``; ``$FLOWCTX_CONFIG`` names another file)::

    theme: nord                 # the app's colour theme (ctrl+t writes it here)
    keymap:                     # binding id: keys, as --keymap FILE takes them
      matrix.next_error: f10
    runtime: mozaiks-0.2.0      # the profile used when neither --runtime nor a workspace's
                                # flowctx.yaml names one

A setting given on the command line wins (``--keymap``, ``--runtime``), then the workspace's
``flowctx.yaml``, then this file. A mistake in it is reported with file:line:col and the
rest of the file still applies: a typo never keeps the app from starting.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from flowctx_core.base.diagnostics import Diagnostic, did_you_mean

ENV = "FLOWCTX_CONFIG"
KEYS = ("theme", "keymap", "runtime")


def config_path(env: Mapping[str, str] | None = None) -> Path:
    """Where the user's settings live (the file need not exist)."""
    env = os.environ if env is None else env
    if env.get(ENV):
        return Path(env[ENV]).expanduser()
    base = env.get("XDG_CONFIG_HOME", "")
    # the XDG spec: a relative path is invalid and is ignored
    if not base or not Path(base).is_absolute():
        home = Path(env["HOME"]) if env.get("HOME") else Path.home()
        base = str(home / ".config")
    return Path(base) / "flowctx" / "config.yaml"


@dataclass(frozen=True)
class UserConfig:
    path: Path
    theme: str | None = None
    keymap: Mapping[str, str] = field(default_factory=dict)
    runtime: str | None = None
    problems: tuple[Diagnostic, ...] = ()

    def as_yaml(self) -> str:
        """The effective settings, as ``flowctx config --show`` prints them."""
        lines = [f"# {self.path}{'' if self.path.is_file() else ' (not written yet)'}"]
        lines.append(f"theme: {self.theme or '(the default)'}")
        lines.append(f"runtime: {self.runtime or '(flowctx.yaml, else the newest release)'}")
        if self.keymap:
            lines.append("keymap:")
            lines += [f"  {k}: {v}" for k, v in sorted(self.keymap.items())]
        else:
            lines.append("keymap: {}")
        return "\n".join(lines) + "\n"


def load_user_config(env: Mapping[str, str] | None = None) -> UserConfig:
    """The settings file read (an absent file is no settings, never an error)."""
    path = config_path(env)
    if not path.is_file():
        return UserConfig(path)
    from flowctx_core.base.yamlmarks import load_yaml_file

    doc, problems = load_yaml_file(path, str(path))
    if doc is None:
        return UserConfig(path, problems=tuple(problems))
    data = doc.data or {}
    if not isinstance(data, dict):
        return UserConfig(path, problems=(doc.diag((), "the settings must be a mapping"),))
    found: list[Diagnostic] = list(problems)
    for key in data:
        if key not in KEYS:
            found.append(doc.diag((key,), f"unknown setting{did_you_mean(str(key), KEYS)}"))
    theme = data.get("theme")
    if theme is not None and not isinstance(theme, str):
        found.append(doc.diag(("theme",), "theme must be a theme's name", key=False))
        theme = None
    from flowctx_core.model.workspace_root import runtime_named

    runtime = runtime_named(data, doc, found)
    keymap: dict[str, str] = {}
    raw = data.get("keymap")
    if raw is not None:
        if isinstance(raw, dict):
            keymap = {str(k): str(v) for k, v in raw.items()}
        else:
            found.append(doc.diag(("keymap",), "keymap must map binding ids to keys", key=False))
    return UserConfig(path, theme, keymap, runtime, tuple(found))


_THEME_LINE = re.compile(r"^theme\s*:.*$", re.MULTILINE)


def save_theme(theme: str, env: Mapping[str, str] | None = None) -> Path:
    """Write ``theme`` into the settings file, keeping every other line (and comment) as the
    user wrote it; the file and its folder are made when missing."""
    path = config_path(env)
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    line = f"theme: {theme}"
    if _THEME_LINE.search(text):
        text = _THEME_LINE.sub(line, text, count=1)
    else:
        text = f"{line}\n{text}" if text else f"{line}\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)  # never a half-written file if flowctx is stopped mid-write
    return path
