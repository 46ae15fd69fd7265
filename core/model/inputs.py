"""The explicit inputs of a resolution: nothing is read from the process behind its back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.model.database import Database
from flowctx_core.model.profiles import MOZAIKS, RuntimeProfile

FALLBACKS_ENV = "MOZAIKS_CONTEXT_FALLBACKS_FILE"
ALLOW_OUTSIDE_ENV = "CONTEXT_FILE_ALLOW_OUTSIDE_ROOT"


@dataclass(frozen=True)
class ResolveInputs:
    """Environment, launch/runtime values (app_id, chat_id, user_id, ...) and the database."""

    env: Mapping[str, str] = field(default_factory=dict)
    launch: Mapping[str, Any] = field(default_factory=dict)
    database: Database | None = None
    #: why there is no database, shown in data_reference traces
    database_note: str = "no database configured"
    #: where each env/launch entry came from ("process env", "flowctx.yaml", "app override",
    #: "--env", ...), so provenance can say it; empty when the caller did not tell
    env_origins: Mapping[str, str] = field(default_factory=dict)
    launch_origins: Mapping[str, str] = field(default_factory=dict)
    #: the runtime whose behaviour resolution reproduces
    runtime: RuntimeProfile = MOZAIKS
    #: problems found loading the database's seed files (reported by ``flowctx check``)
    database_problems: tuple[Diagnostic, ...] = ()

    def env_flag(self, name: str) -> bool:
        return str(self.env.get(name, "")).strip().lower() in {"1", "true", "yes", "on"}

    def env_origin(self, name: str) -> str:
        """`` (app override)``: where the env var ``name`` came from, for an origin text."""
        where = self.env_origins.get(name)
        return f" ({where})" if where else ""

    def launch_origin(self, name: str) -> str:
        where = self.launch_origins.get(name)
        return f" ({where})" if where else ""

    @property
    def allow_outside_root(self) -> bool:
        return self.env_flag(ALLOW_OUTSIDE_ENV)


#: ``ResolveInputs.env_origins`` of a variable read from the process's own environment (on a CI
#: runner, where the secrets are, whatever their names)
PROCESS_ORIGIN = "process env"


#: the launch's runtime context (mozaiks 0.2.0, mozaiksai/core/workflow/context/variables.py
#: ``_load_context_async(runtime_context=...)``): read only by ``type: runtime`` sources
RUNTIME_CONTEXT_KEY = "$runtime_context"
