"""What the flowctx process configures before any command runs.

flowctx is an application, not a library: how its own process uses pydantic is its choice.
pydantic looks for plugins on the first model it builds, through ``importlib.metadata`` (an
import and a scan of every installed distribution's entry points: a fifth of a cold
``flowctx check``). flowctx's models are not meant to be observed by plugins, so the scan is
switched off, unless the user set ``PYDANTIC_DISABLE_PLUGINS`` themselves to something else
than "all off" (any other value, empty included, which pydantic reads as "load every
plugin"): then pydantic does as told. Only the process's own command does this
(``flowctx_tui.cli.main`` run as the program); a program that embeds ``main()`` keeps its
pydantic as it configured it. The environment is left as it is.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
import types
from collections.abc import Sequence
from typing import Any, Final, cast

_SETTING: Final = "PYDANTIC_DISABLE_PLUGINS"
#: the values pydantic reads as "no plugins at all" (``pydantic/plugin/_loader.py``)
_ALL_OFF: Final = ("__all__", "1", "true")
_LOADER: Final = "pydantic.plugin._loader"


def configure_pydantic() -> None:
    """No pydantic plugin scan in this process, unless the user's environment asks for one."""
    if _plugins_wanted() or _LOADER in sys.modules:
        return
    if not any(isinstance(f, _NoPluginsFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _NoPluginsFinder())


def _plugins_wanted() -> bool:
    """The user set ``PYDANTIC_DISABLE_PLUGINS`` to something else than "all off"."""
    setting = os.environ.get(_SETTING)
    return setting is not None and setting not in _ALL_OFF


class _NoPluginsFinder:
    """Imports ``pydantic.plugin._loader``, when pydantic first asks for it, as a module whose
    ``get_plugins()`` is empty, as pydantic's own is with every plugin off: pydantic's module
    imports ``importlib.metadata`` before it reads the setting. (The import protocol's
    methods, without importlib.abc's base classes: importing those costs more than the scan.)"""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != _LOADER or _plugins_wanted():
            return None
        return importlib.machinery.ModuleSpec(fullname, cast(Any, self))

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return _NoPlugins(spec.name)

    def exec_module(self, module: types.ModuleType) -> None:
        pass


class _NoPlugins(types.ModuleType):
    """``get_plugins()`` is empty; any other name loads pydantic's own module (a pydantic
    release that asks this module for more gets what it expects)."""

    @staticmethod
    def get_plugins() -> tuple[()]:
        return ()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # the import system's probes (``__path__``...)
            raise AttributeError(name)
        sys.modules.pop(_LOADER, None)
        sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _NoPluginsFinder)]
        import importlib

        return getattr(importlib.import_module(_LOADER), name)
