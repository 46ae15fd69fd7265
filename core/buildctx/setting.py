"""Whether build context is on, and where its registries are looked for (mozaiks 0.2.0,
``mozaiksai/core/session/build_context.py``).

The runtime's ``MOZAIKS_LAUNCH_CONTEXT_PROVIDER`` naming its merge function, or the tool's own
``FLOWCTX_BUILD_CONTEXT`` (the ``--build-context [PATH]`` option and the app's toggle), turns it
on; the registry root comes from the option's path, ``MOZAIKS_BUILD_CONTEXT_PATH``,
``MOZAIKS_APP_WORKSPACE_PATH/build_context`` or (option only) the workspace's ``build_context/``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from flowctx_core.model.filenames import BUILD_CONTEXT_DIR

PROVIDER_ENV = "MOZAIKS_LAUNCH_CONTEXT_PROVIDER"
PROVIDER = "mozaiksai.core.session.build_context:merge_build_context"
PATH_ENV = "MOZAIKS_BUILD_CONTEXT_PATH"
APP_WORKSPACE_ENV = "MOZAIKS_APP_WORKSPACE_PATH"
#: the tool's own switch, carried in the environment so the CLI, the app and flowctx.yaml share it
OPTION_ENV = "FLOWCTX_BUILD_CONTEXT"

_ON = {"1", "true", "yes", "on"}
_OFF = {"", "0", "false", "no", "off"}


@dataclass(frozen=True)
class BuildContextSetting:
    """Whether the provider is on, why, and where registries are looked for."""

    enabled: bool
    reason: str
    root: Path | None
    root_reason: str
    #: the root was named (MOZAIKS_BUILD_CONTEXT_PATH or the option's path): the runtime's
    #: resolve_build_context_root fails the launch when it is not an existing folder
    root_configured: bool = False

    def describe(self) -> str:
        state = "on" if self.enabled else "off"
        return f"build context {state}: {self.reason}; {self.root_reason}"


def _env_path(raw: str, workspace_root: Path) -> Path:
    path = Path(raw).expanduser()
    return path if path.is_absolute() else workspace_root / path


def build_context_setting(env: Mapping[str, str], workspace_root: Path) -> BuildContextSetting:
    """The build-context setting implied by ``env`` (the effective environment)."""
    provider = str(env.get(PROVIDER_ENV, "") or "").strip()
    option = str(env.get(OPTION_ENV, "") or "").strip()
    option_on = option.lower() not in _OFF
    option_path = option if option_on and option.lower() not in _ON else None
    if provider == PROVIDER:
        enabled, reason = True, PROVIDER_ENV
    elif option_on:
        enabled, reason = True, f"--build-context option ({OPTION_ENV}={option})"
    elif provider:
        enabled, reason = False, f"{PROVIDER_ENV}={provider} is not the build-context provider"
    else:
        enabled, reason = False, f"{PROVIDER_ENV} is not set (--build-context turns it on)"

    app_ws = str(env.get(APP_WORKSPACE_ENV, "") or "").strip()
    bc_path = str(env.get(PATH_ENV, "") or "").strip()
    root: Path | None
    if option_path:
        root = _env_path(option_path, workspace_root)
        root_reason = f"registry root from --build-context {option_path}"
    elif bc_path:
        root = _env_path(bc_path, workspace_root)
        root_reason = f"registry root from {PATH_ENV}={bc_path}"
    elif app_ws:
        root = _env_path(app_ws, workspace_root) / BUILD_CONTEXT_DIR
        root_reason = f"registry root from {APP_WORKSPACE_ENV}={app_ws} (its build_context/)"
    elif option_on:
        root = workspace_root / BUILD_CONTEXT_DIR
        root_reason = "registry root: the workspace's build_context/ (--build-context default)"
    else:
        root = None
        root_reason = f"no registry root ({PATH_ENV} and {APP_WORKSPACE_ENV} are not set)"
    return BuildContextSetting(enabled, reason, root, root_reason, bool(option_path or bc_path))
