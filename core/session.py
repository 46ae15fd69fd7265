"""A workspace opened for resolution: the root, its profile, the database and the inputs.

The CLI and the app both go through here, so what one shows the other can reproduce.
The process environment is passed in by the caller (``env``), never read here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.model.database import Database, EmbeddedDatabase, open_database
from flowctx_core.model.filenames import PROFILE_FILE
from flowctx_core.model.inputs import PROCESS_ORIGIN, RUNTIME_CONTEXT_KEY, ResolveInputs
from flowctx_core.model.matrix import Matrix
from flowctx_core.resolve import resolve
from flowctx_core.routing import Routes, decide, unread_routing

if TYPE_CHECKING:
    from flowctx_core.routing.decision import RouteDecision
from flowctx_core.model.profiles import RuntimeProfile, get_profile
from flowctx_core.model.workspace import WorkflowSnapshot, list_workflows, load_workflow
from flowctx_core.model.workspace_root import Profile, find_root, load_profile
from flowctx_core.snapshot import WorkspaceSnapshot, load_snapshot


@dataclass(frozen=True)
class Session:
    """Never changed once made: a reload makes a new one (``refreshed``), so a thread that
    reads a session never sees it change under it."""

    root: Path
    env: Mapping[str, str]
    profile: Profile
    database: Database | None
    database_problems: list[Diagnostic] = field(default_factory=list)
    selected: str | None = None
    #: the runtime profile every answer is judged against (chosen once, at open)
    runtime: RuntimeProfile = field(default_factory=lambda: get_profile(None))
    #: the name chosen on the command line or in the app; None follows flowctx.yaml
    runtime_choice: str | None = None

    def workflows(self) -> list[str]:
        return list_workflows(self.root, self.runtime)

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
        runtime_context_from: str = "",
    ) -> ResolveInputs:
        """``overrides_from``/``launch_from`` name who gave ``env_overrides`` and ``launch``
        (the app: "app override"; the CLI: "--env", "--launch"), for the provenance."""
        merged_launch = dict(self.profile.launch)
        merged_launch.update(launch or {})
        # the runtime context merges key by key: flowctx.yaml's, then the caller's (a value
        # that is not a mapping is passed on, for the launch admission to refuse)
        given = (launch or {}).get(RUNTIME_CONTEXT_KEY)
        if self.profile.runtime_context and (given is None or isinstance(given, Mapping)):
            merged_launch[RUNTIME_CONTEXT_KEY] = {**self.profile.runtime_context, **(given or {})}
        launch_origins = {
            k: launch_from if k in (launch or {}) else PROFILE_FILE
            for k in merged_launch
            if launch_from or k not in (launch or {})
        }
        # each runtime-context key says who supplied it (flowctx.yaml or the caller)
        context = merged_launch.get(RUNTIME_CONTEXT_KEY)
        if isinstance(context, Mapping):
            caller = given if isinstance(given, Mapping) else {}
            for k in context:
                who = (runtime_context_from or launch_from) if k in caller else PROFILE_FILE
                if who:
                    launch_origins[f"{RUNTIME_CONTEXT_KEY}.{k}"] = who
        return ResolveInputs(
            env=self.effective_env(env_overrides),
            launch=merged_launch,
            database=self.database,
            env_origins=self.env_origins(env_overrides, overrides_from),
            launch_origins=launch_origins,
            runtime=self.runtime,
            database_problems=tuple(self.database_problems),
        )

    def env_origins(
        self, overrides: Mapping[str, str] | None = None, overrides_from: str = "override"
    ) -> dict[str, str]:
        """Where each variable of ``effective_env(overrides)`` came from (last wins)."""
        origins = {k: PROFILE_FILE for k in self.profile.env}
        origins.update({k: PROCESS_ORIGIN for k in self.env})
        origins.update({k: overrides_from for k in overrides or {}})
        return origins

    def load(self, workflow: str) -> WorkflowSnapshot:
        return load_workflow(self.root, workflow, self.runtime)

    def with_runtime(self, name: str | None) -> Session:
        """The same workspace judged against another runtime profile (UnknownRuntime if none)."""
        from dataclasses import replace

        return replace(self, runtime=get_profile(name or self.profile.runtime), runtime_choice=name)

    def snapshot(
        self,
        workflows: Iterable[str | WorkflowSnapshot] | None = None,
        env_overrides: Mapping[str, str] | None = None,
    ) -> WorkspaceSnapshot:
        """Read the workspace once, under the effective environment (default: every workflow;
        a WorkflowSnapshot given is reused rather than read again)."""
        names: list[str] | None = None
        given: list[WorkflowSnapshot] = []
        if workflows is not None:
            names = []
            for wf in workflows:
                if isinstance(wf, str):
                    names.append(wf)
                else:
                    given.append(wf)
        return load_snapshot(
            self.root,
            self.effective_env(env_overrides),
            workflows=names,
            profile=self.profile,
            preloaded=given,
            runtime=self.runtime,
        )

    def matrix(
        self,
        workflow: str | WorkflowSnapshot,
        env_overrides: Mapping[str, str] | None = None,
        launch: Mapping[str, Any] | None = None,
        **origins: str,
    ) -> Matrix:
        snap = self.snapshot([workflow], env_overrides)
        name = workflow if isinstance(workflow, str) else workflow.name
        return resolve(snap, self.inputs(env_overrides, launch, **origins), name)

    def decide(
        self,
        workflow: str,
        source: str,
        *,
        env_overrides: Mapping[str, str] | None = None,
        launch: Mapping[str, Any] | None = None,
        routes: Routes | None = None,
        **scenario: Any,
    ) -> list[RouteDecision]:
        """``flowctx_core.routing.decide`` for ``workflow`` as this session reads and resolves it
        now
        (``scenario``: data, context_overrides, context_removed, payload, step_result,
        flow_context, tools_called)."""
        snap = self.snapshot([workflow], env_overrides)
        matrix = resolve(snap, self.inputs(env_overrides, launch), workflow)
        return decide(
            routes or snap.routes[workflow],
            matrix,
            source,
            unread=unread_routing(self.runtime),
            **scenario,
        )

    def refreshed(self, *, profile: bool = False, seeds: bool = False) -> Session:
        """This session with ``flowctx.yaml`` read again and/or the seed files reloaded into
        the embedded database (the database object is the one stateful input: it reloads
        under its own lock)."""
        changed = self
        if profile:
            new = load_profile(self.root)
            # its `runtime:` applies unless one was chosen on the command line or in the app
            runtime = get_profile(self.runtime_choice or new.runtime)
            changed = replace(changed, profile=new, runtime=runtime)
        if seeds and isinstance(self.database, EmbeddedDatabase):
            changed = replace(changed, database_problems=self.database.load_seeds())
        return changed


def open_session(
    path: str | Path,
    *,
    env: Mapping[str, str] | None = None,
    mongo_uri: str | None = None,
    runtime: str | None = None,
) -> Session:
    """Open the workspace at ``path`` (root, ``workflows/`` or one workflow folder).

    ``runtime`` names the runtime profile (else ``flowctx.yaml`` ``runtime:``, else the
    default). Raises ``WorkspaceNotFound`` when the path is none of those, and
    ``UnknownRuntime`` for a profile name that is not shipped.
    """
    root, selected = find_root(Path(path))
    profile = load_profile(root)
    merged = dict(profile.env)
    merged.update(env or {})
    database, problems = open_database(root, mongo_uri, merged)
    chosen = get_profile(runtime or profile.runtime)
    return Session(
        root, dict(env or {}), profile, database, problems, selected, chosen, runtime or None
    )
