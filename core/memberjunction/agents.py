"""An MJ workspace: the agents under PATH, which of them are flow agents, and their problems."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from flowctx_core.base.diagnostics import Diagnostic, sort_key
from flowctx_core.memberjunction.flow.checks import agent_problems
from flowctx_core.memberjunction.flow.model import Agent, build_agents
from flowctx_core.memberjunction.metadata import Metadata, load_metadata

RUNTIME = "memberjunction-5.51.3"
ALIASES = ("memberjunction", "mj", RUNTIME)


@dataclass
class MjWorkspace:
    meta: Metadata
    agents: list[Agent]
    flows: dict[str, Agent] = field(default_factory=dict)
    #: the other agents, with why they are not flow agents
    others: list[tuple[Agent, str]] = field(default_factory=list)

    @property
    def root(self) -> Path:
        return self.meta.root

    def workflows(self) -> list[str]:
        return list(self.flows)

    def flow(self, name: str) -> Agent | None:
        if name in self.flows:
            return self.flows[name]
        for n, a in self.flows.items():
            if n.lower() == name.lower():
                return a
        return None

    def problems(self, only: str | None = None) -> list[Diagnostic]:
        out = list(self.meta.all_problems())
        for name, agent in self.flows.items():
            if only is None or name == only:
                out += agent_problems(agent)
        seen: set[tuple[str, int, int, str]] = set()
        unique = []
        for d in sorted(out, key=sort_key):
            k = (d.file, d.line, d.column, d.message)
            if k not in seen:
                seen.add(k)
                unique.append(d)
        return unique


def open_mj(path: Path, env: Mapping[str, str] | None = None) -> MjWorkspace:
    meta = load_metadata(path, env)
    agents = build_agents(meta)
    ws = MjWorkspace(meta, agents)
    for a in agents:
        if a.is_flow:
            if a.name in ws.flows:
                meta.problems.append(
                    Diagnostic(
                        a.loc.file,
                        a.loc.line,
                        a.loc.column,
                        f"a second flow agent named '{a.name}' (the first is at "
                        f"{ws.flows[a.name].loc}); only the first is shown",
                        "warning",
                    )
                )
                continue
            ws.flows[a.name] = a
        else:
            t = a.type_name or "unknown"
            why = f"its type is {t}" + (
                " (the folder's default TypeID)"
                if a.locs.get("TypeID") and a.locs["TypeID"].file.endswith(".mj-sync.json")
                else ""
            )
            ws.others.append((a, why))
    return ws
