"""``flowctx diff`` on MemberJunction agent metadata: what a change does to its flow agents.

Each side is the metadata at a git revision (read through git, mounted in memory: the loaders
read it as they read the disk) or a folder. For every flow agent: the starting step, and from
every step the decision 5.51.3 makes under the result it stores for the step's type (the
step entered, or how the run ends), then ``check``'s problems added and removed.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from flowctx_core.memberjunction.agents import MjWorkspace, open_mj
from flowctx_core.memberjunction.flow import machine
from flowctx_core.review.git import RevisionError, commit_of, git, opened_revision


class MjSideError(Exception):
    """A ``--base``/``--head`` that names no revision or folder of MJ metadata."""


@dataclass(frozen=True)
class AgentView:
    start: str
    #: step name -> where the run goes after it
    after: dict[str, str]


@dataclass(frozen=True)
class MjSide:
    label: str
    agents: dict[str, AgentView]
    problems: frozenset[tuple[str, str, str]]


def _where(hop: machine.Hop) -> str:
    if hop.winner is not None:
        fails = f" (fails once entered: {hop.entered_failure})" if hop.entered_failure else ""
        return f"→ {hop.winner.name}{fails}"
    if hop.chat is not None:
        return "chat: the run ends"
    return f"{'the run fails' if hop.failed else 'the flow ends'}: {hop.message or hop.reason}"


def summarise(ws: MjWorkspace, label: str) -> MjSide:
    agents: dict[str, AgentView] = {}
    for name, agent in ws.flows.items():
        start = _where(machine.start(agent))
        after = {
            s.name: _where(machine.next_hop(agent, s, machine.default_result(s, {}), {}))
            for s in agent.steps
        }
        agents[name] = AgentView(start, after)
    problems = frozenset((p.file, p.severity, p.message) for p in ws.problems())
    return MjSide(label, agents, problems)


def _repository(path: Path) -> tuple[Path, str] | None:
    try:
        top = git(path if path.is_dir() else path.parent, "rev-parse", "--show-toplevel")
    except RevisionError:
        return None
    top_path = Path(os.path.realpath(top.decode("utf-8", "surrogateescape").strip()))
    try:
        rel = Path(os.path.realpath(path)).relative_to(top_path)
    except ValueError:
        return None
    return top_path, PurePosixPath(*rel.parts).as_posix() if rel.parts else ""


def read_mj_side(spec: str | None, path: Path, env: dict[str, str]) -> MjSide:
    """The working tree (``spec`` None), a folder, or a revision (``git:REV`` or REV) of the
    repository holding ``path``."""
    if spec is None:
        return summarise(open_mj(path, env), "working tree")
    forced = spec.startswith("git:")
    revision = spec[4:] if forced else spec
    folder = None if forced else Path(spec).expanduser()
    if folder is not None and folder.is_dir():
        return summarise(open_mj(folder, env), str(folder))
    repo = _repository(path)
    if repo is None:
        raise MjSideError(f"'{spec}' is not a folder, and {path} is not in a git work tree")
    commit = commit_of(repo[0], revision)
    if commit is None:
        raise MjSideError(f"'{spec}' is neither a folder nor a revision of {repo[0]}")
    label = f"git:{commit[:12]}" + ("" if revision.startswith(commit[:12]) else f" ({revision})")
    try:
        with opened_revision(repo[0], commit, repo[1]) as opened:
            if opened is None:
                return MjSide(f"{label}, no metadata there", {}, frozenset())
            return summarise(open_mj(opened[0], env), label)
    except (RevisionError, subprocess.SubprocessError) as exc:
        raise MjSideError(str(exc)) from None


@dataclass
class AgentDiff:
    name: str
    status: str  # added | removed | changed
    start: tuple[str, str] | None = None
    steps: list[tuple[str, str | None, str | None]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.name,
            "status": self.status,
            "start": {"before": self.start[0], "after": self.start[1]} if self.start else None,
            "steps": [{"step": s, "before": b, "after": a} for s, b, a in self.steps],
        }


@dataclass
class MjDiff:
    base: str
    head: str
    agents: list[AgentDiff]
    added: list[tuple[str, str, str]]
    removed: list[tuple[str, str, str]]

    @property
    def changed(self) -> bool:
        return bool(self.agents or self.added or self.removed)

    def to_json(self) -> dict[str, Any]:
        def problem(p: tuple[str, str, str]) -> dict[str, str]:
            return {"file": p[0], "severity": p[1], "message": p[2]}

        return {
            "base": self.base,
            "head": self.head,
            "runtime": "memberjunction-5.51.3",
            "changed": self.changed,
            "agents": [a.to_json() for a in self.agents],
            "problems": {
                "added": [problem(p) for p in self.added],
                "removed": [problem(p) for p in self.removed],
            },
        }


def compare_mj(base: MjSide, head: MjSide, only: str | None = None) -> MjDiff:
    diffs: list[AgentDiff] = []
    names = list(dict.fromkeys([*base.agents, *head.agents]))
    for name in names:
        if only is not None and name.lower() != only.lower():
            continue
        before, after = base.agents.get(name), head.agents.get(name)
        if before is None:
            diffs.append(AgentDiff(name, "added"))
            continue
        if after is None:
            diffs.append(AgentDiff(name, "removed"))
            continue
        d = AgentDiff(name, "changed")
        if before.start != after.start:
            d.start = (before.start, after.start)
        for step in dict.fromkeys([*before.after, *after.after]):
            b, a = before.after.get(step), after.after.get(step)
            if b != a:
                d.steps.append((step, b, a))
        if d.start or d.steps:
            diffs.append(d)

    added = sorted(head.problems - base.problems)
    removed = sorted(base.problems - head.problems)
    return MjDiff(base.label, head.label, diffs, added, removed)
