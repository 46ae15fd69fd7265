"""A workspace opened for resolution: the root, its profile, the database and the inputs.

The CLI and the app both go through here, so what one shows the other can reproduce.
The process environment is passed in by the caller (``env``), never read here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.database import Database, open_database
from core.diagnostics import Diagnostic
from core.inputs import ResolveInputs
from core.resolve import resolve
from core.results import Matrix
from core.workspace import (
    Profile,
    WorkflowSnapshot,
    find_root,
    list_workflows,
    load_profile,
    load_workflow,
)

#: where an input came from, as provenance names it
PROCESS_ORIGIN = "process env"
PROFILE_ORIGIN = "flowctx.yaml"


@dataclass
class Session:
    root: Path
    env: Mapping[str, str]
    profile: Profile
    database: Database | None
    database_problems: list[Diagnostic] = field(default_factory=list)
    selected: str | None = None

    def workflows(self) -> list[str]:
        return list_workflows(self.root)

    def effective_env(self, overrides: Mapping[str, str] | None = None) -> dict[str, str]:
        """Profile env, then the process env, then the user's overrides (last wins)."""
        env = dict(self.profile.env)
        env.update(self.env)
        if overrides:
            env.update(overrides)
        return env

    def inputs(
        self,
        env_overrides: Mapping[str, str] | None = None,
        launch: Mapping[str, Any] | None = None,
        *,
        overrides_from: str = "override",
        launch_from: str = "",
    ) -> ResolveInputs:
        """``overrides_from``/``launch_from`` name who gave ``env_overrides`` and ``launch``
        (the app: "app override"; the CLI: "--env", "--launch"), for the provenance."""
        merged_launch = dict(self.profile.launch)
        merged_launch.update(launch or {})
        return ResolveInputs(
            env=self.effective_env(env_overrides),
            launch=merged_launch,
            database=self.database,
            env_origins=self.env_origins(env_overrides, overrides_from),
            launch_origins={
                k: launch_from if k in (launch or {}) else PROFILE_ORIGIN
                for k in merged_launch
                if launch_from or k not in (launch or {})
            },
        )

    def env_origins(
        self, overrides: Mapping[str, str] | None = None, overrides_from: str = "override"
    ) -> dict[str, str]:
        """Where each variable of ``effective_env(overrides)`` came from (last wins)."""
        origins = {k: PROFILE_ORIGIN for k in self.profile.env}
        origins.update({k: PROCESS_ORIGIN for k in self.env})
        origins.update({k: overrides_from for k in overrides or {}})
        return origins

    def load(self, workflow: str) -> WorkflowSnapshot:
        return load_workflow(self.root, workflow)

    def matrix(
        self,
        workflow: str | WorkflowSnapshot,
        env_overrides: Mapping[str, str] | None = None,
        launch: Mapping[str, Any] | None = None,
        **origins: str,
    ) -> Matrix:
        snap = self.load(workflow) if isinstance(workflow, str) else workflow
        return resolve(snap, self.inputs(env_overrides, launch, **origins))

    def reload_database(self) -> list[Diagnostic]:
        loader = getattr(self.database, "load_seeds", None)
        if loader is not None:
            self.database_problems = loader()
        return self.database_problems


def open_session(
    path: str | Path,
    *,
    env: Mapping[str, str] | None = None,
    mongo_uri: str | None = None,
) -> Session:
    """Open the workspace at ``path`` (root, ``workflows/`` or one workflow folder).

    Raises ``WorkspaceNotFound`` when the path is none of those.
    """
    root, selected = find_root(Path(path))
    profile = load_profile(root)
    merged = dict(profile.env)
    merged.update(env or {})
    database, problems = open_database(root, mongo_uri, merged)
    return Session(root, dict(env or {}), profile, database, problems, selected)
