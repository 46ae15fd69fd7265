"""MetadataSync agent files written into a test's folder, as MJ authors keep them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SYNC = {
    "entity": "MJ: AI Agents",
    "filePattern": "**/.*.json",
    "defaults": {"TypeID": "@lookup:MJ: AI Agent Types.Name=Loop"},
}


def step(
    name: str,
    kind: str | None = "Action",
    *,
    start: Any = None,
    paths: list | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """A step record; ``paths`` nested under it (origin ``@parent:ID``)."""
    f: dict[str, Any] = {"AgentID": "@parent:ID", "Name": name}
    if kind is not None:
        f["StepType"] = kind
    if kind == "Action" and "ActionID" not in fields:
        f["ActionID"] = f"@lookup:MJ: Actions.Name={name} action"
    if kind == "Prompt" and "PromptID" not in fields:
        f["PromptID"] = f"@lookup:MJ: AI Prompts.Name={name} prompt"
    if kind == "Sub-Agent" and "SubAgentID" not in fields:
        f["SubAgentID"] = "@lookup:MJ: AI Agents.Name=Helper"
    if start is not None:
        f["StartingStep"] = start
    f.update(fields)
    rec: dict[str, Any] = {"fields": f}
    if paths:
        rec["relatedEntities"] = {"MJ: AI Agent Step Paths": paths}
    return rec


def path(to: str, condition: Any = None, priority: int | None = None, **fields: Any) -> dict:
    f: dict[str, Any] = {
        "OriginStepID": "@parent:ID",
        "DestinationStepID": f"@lookup:MJ: AI Agent Steps.Name={to}&AgentID=@parent:AgentID",
    }
    if condition is not None:
        f["Condition"] = condition
    if priority is not None:
        f["Priority"] = priority
    f.update(fields)
    return {"fields": f}


def agent(
    name: str,
    steps: list[dict],
    *,
    kind: str | None = "Flow",
    status: Any = "Active",
    **fields: Any,
) -> dict[str, Any]:
    f: dict[str, Any] = {"Name": name}
    if kind is not None:
        f["TypeID"] = f"@lookup:MJ: AI Agent Types.Name={kind}"
    if status is not None:
        f["Status"] = status
    f.update(fields)
    return {"fields": f, "relatedEntities": {"MJ: AI Agent Steps": steps}}


def write(
    root: Path,
    *agents: dict[str, Any],
    file: str = ".agents.json",
    sync: dict[str, Any] | None = None,
) -> Path:
    """``root/metadata/agents/`` with its ``.mj-sync.json`` and one record file; ``root``."""
    folder = root / "metadata" / "agents"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / ".mj-sync.json").write_text(json.dumps(sync or SYNC, indent=2))
    (folder / file).parent.mkdir(parents=True, exist_ok=True)
    (folder / file).write_text(json.dumps(list(agents), indent=2))
    return root
