"""Seeded MetadataSync agent files for the differential suite: flow agents drawn to meet what
5.51.3 decides on (priority ties, statuses, starting steps whose localeCompare and byte
orders differ, failed results, loops and their configurations, missing and inactive
destinations, Human steps, conditions that fail to evaluate), written as real files."""

from __future__ import annotations

import json
import random
import uuid
from pathlib import Path
from typing import Any

# names whose localeCompare order differs from their byte order
NAMES = [
    "a start",
    "B start",
    "b start",
    "Step 10",
    "Step 2",
    "step 3",
    "Ärger",
    "zeta",
    "_under",
    "Éclair",
    "eclair",
    "Z last",
    "10 ten",
    "9 nine",
    "Alpha",
    "alpha",
    "résumé",
    "resume",
    "Check",
    "check-in",
]
TYPES = ["Action"] * 5 + ["Prompt"] * 2 + ["Sub-Agent"] * 2 + ["ForEach", "While", "Human", None]
STATUSES = ["Active"] * 6 + ["Pending", "Disabled", None]
CONDITIONS = [
    None,
    None,
    None,
    "",
    "   ",
    "true",
    "false",
    "payload.x > 3",
    "payload.x <= 3",
    "payload.flag === true",
    "payload.name == 'ok'",
    "stepResult.step === 'Failed'",
    "stepResult.step === 'Retry'",
    "stepResult.step === 'Success'",
    "stepResult.step !== 'Failed'",
    "stepResult.errorMessage && stepResult.errorMessage.includes('not found')",
    "data.flag === true",
    "context.env === 'prod'",
    "flowContext.stepCount > 1",
    "flowContext.completedSteps.length >= 2",
    "payload.missing.deep === 1",
    "stepResult.priorStepResult[0].success === true",
    "(payload.x",
    "payload.items.length > 0",
    "stepResult === null",
    "!stepResult",
]
PRIORITIES = [0, 0, 1, 1, 5, 10, 10, -1, 100]


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper()


def draw_agent(rng: random.Random, n: int) -> dict[str, Any]:
    names = rng.sample(NAMES, rng.randint(1, 6))
    steps: list[dict[str, Any]] = []
    ids = [_uuid(rng) for _ in names]
    for name, sid in zip(names, ids, strict=True):
        t = rng.choice(TYPES)
        fields: dict[str, Any] = {"AgentID": "@parent:ID", "Name": name}
        if t is not None:
            fields["StepType"] = t
        status = rng.choice(STATUSES)
        if status is not None:
            fields["Status"] = status
        start = rng.choice([1, 0, True, False, None, 1])
        if start is not None:
            fields["StartingStep"] = start
        wants_action = t == "Action" or (t in ("ForEach", "While") and rng.random() < 0.5)
        if wants_action and rng.random() < 0.9:
            fields["ActionID"] = f"@lookup:MJ: Actions.Name=Action {rng.randint(1, 4)}"
        if t == "Action" and rng.random() < 0.4:
            fields["ActionOutputMapping"] = rng.choice(
                [
                    {"x": "x", "flag": "flag"},
                    {"X": "result.x", "ok": "$message"},
                    {"flag": "nested.deep.flag", "x": "x"},
                ]
            )
        if t == "Prompt" and rng.random() < 0.9:
            fields["PromptID"] = "@lookup:MJ: AI Prompts.Name=A prompt"
        if t == "Sub-Agent" and rng.random() < 0.9:
            fields["SubAgentID"] = "@lookup:MJ: AI Agents.Name=Some Helper"
        if t in ("ForEach", "While"):
            fields["LoopBodyType"] = rng.choice(["Action", "Prompt", "Sub-Agent", None])
            if fields["LoopBodyType"] == "Sub-Agent":
                fields["SubAgentID"] = "@lookup:MJ: AI Agents.Name=Some Helper"
            cfg = rng.choice(
                [
                    {"itemVariable": "item", "collectionPath": "payload.items"},
                    {"condition": "payload.x < 3", "itemVariable": "item"},
                    {"maxIterations": 2},
                    None,
                    "{not json",
                ]
            )
            if cfg is not None:
                fields["Configuration"] = cfg
            if rng.random() < 0.2:
                fields["ActionInputMapping"] = rng.choice(["{bad", {"a": "payload.x"}])
        steps.append({"fields": fields, "primaryKey": {"ID": sid}})
    paths_nested = rng.random() < 0.6
    agent_paths: list[dict[str, Any]] = []
    for i, step in enumerate(steps):
        for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4])):
            j = rng.randrange(len(steps))
            pf: dict[str, Any] = {}
            roll = rng.random()
            if roll < 0.08:
                pf["DestinationStepID"] = _uuid(rng)  # a step that does not exist
            elif paths_nested:
                pf["DestinationStepID"] = (
                    f"@lookup:MJ: AI Agent Steps.Name={names[j]}&AgentID=@parent:AgentID"
                )
            else:
                pf["DestinationStepID"] = (
                    f"@lookup:MJ: AI Agent Steps.Name={names[j]}&AgentID=@parent:ID"
                )
            cond = rng.choice(CONDITIONS)
            if cond is not None or rng.random() < 0.5:
                pf["Condition"] = cond
            prio = rng.choice(PRIORITIES)
            if prio != 0 or rng.random() < 0.5:
                pf["Priority"] = prio
            rec = {"fields": pf, "primaryKey": {"ID": _uuid(rng)}}
            if paths_nested:
                pf["OriginStepID"] = "@parent:ID"
                step.setdefault("relatedEntities", {}).setdefault(
                    "MJ: AI Agent Step Paths", []
                ).append(rec)
            else:
                pf["OriginStepID"] = (
                    f"@lookup:MJ: AI Agent Steps.Name={names[i]}&AgentID=@parent:ID"
                )
                agent_paths.append(rec)
    related: dict[str, Any] = {"MJ: AI Agent Steps": steps}
    if agent_paths:
        related["MJ: AI Agent Step Paths"] = agent_paths
    fields = {"Name": f"Generated {n}", "TypeID": "@lookup:MJ: AI Agent Types.Name=Flow"}
    status = rng.choice(["Active"] * 12 + ["Pending", None])
    if status is not None:
        fields["Status"] = status
    return {"fields": fields, "relatedEntities": related, "primaryKey": {"ID": _uuid(rng)}}


def write_workspace(root: Path, seed: int, agents: int, per_file: int = 50) -> Path:
    """A sync root with an agents entity folder holding ``agents`` drawn agents."""
    rng = random.Random(seed)
    folder = root / "metadata" / "agents"
    folder.mkdir(parents=True, exist_ok=True)
    (root / "metadata" / ".mj-sync.json").write_text(json.dumps({"version": "1.0.0"}))
    (folder / ".mj-sync.json").write_text(
        json.dumps(
            {
                "entity": "MJ: AI Agents",
                "filePattern": "**/.*.json",
                "defaults": {"TypeID": "@lookup:MJ: AI Agent Types.Name=Loop"},
            }
        )
    )
    drawn = [draw_agent(rng, n) for n in range(agents)]
    for k in range(0, agents, per_file):
        (folder / f".gen-{k // per_file:03}.json").write_text(
            json.dumps(drawn[k : k + per_file], indent=2)
        )
    return root
