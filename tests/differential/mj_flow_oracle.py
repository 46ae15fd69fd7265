"""The real ``FlowAgentType`` (``@memberjunction/ai-agents`` 5.51.3) run under node beside flowctx.

Installed once into the test cache (``tests/.cache`` or ``$FLOWCTX_TEST_CACHE``): the packages
its import chain needs with npm (``global``, ``core``, ``core-entities``, ``aiengine``,
``actions``), and ``ai-agents`` itself unpacked from ``npm pack`` (its own dependency list names
packages the reachable registry does not carry, none of them on that chain).
``mj_flow_oracle.mjs`` feeds the engine's cached rows from flowctx's reading of the metadata
and answers one JSON line per case, so a whole batch costs one node process.
"""

from __future__ import annotations

import fcntl
import json
import subprocess
import tarfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

from flowctx_core.memberjunction.flow.model import Agent, ref_name
from flowctx_core.memberjunction.metadata.references import ExternalRef
from tests.prerequisites import Unavailable, last_line, npm_install

VERSION: Final = "5.51.3"
CHAIN: Final = tuple(
    f"@memberjunction/{p}@{VERSION}"
    for p in ("global", "core", "core-entities", "aiengine", "actions")
)
HARNESS: Final = Path(__file__).with_name("mj_flow_oracle.mjs")
FLOW_TYPE_FILE: Final = "node_modules/@memberjunction/ai-agents/dist/agent-types/flow-agent-type.js"


def install() -> Path:
    """The cache folder with the packages, installing them first; Unavailable otherwise."""
    root = npm_install(
        f"mj-ai-agents-{VERSION}", CHAIN, "node_modules/@memberjunction/aiengine/dist/index.js"
    )
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / FLOW_TYPE_FILE).exists():
            try:
                out = subprocess.run(
                    [
                        "npm",
                        "pack",
                        f"@memberjunction/ai-agents@{VERSION}",
                        "--silent",
                        "--pack-destination",
                        str(root),
                    ],
                    check=True,
                    capture_output=True,
                    text=True,
                    timeout=300,
                )
            except subprocess.CalledProcessError as exc:
                raise Unavailable(
                    f"npm could not pack @memberjunction/ai-agents@{VERSION}: "
                    f"{last_line(exc.stderr or exc.stdout)}"
                ) from None
            tgz = root / out.stdout.strip().splitlines()[-1]
            target = root / "node_modules" / "@memberjunction" / "ai-agents"
            target.mkdir(parents=True, exist_ok=True)
            with tarfile.open(tgz) as tar:
                for member in tar.getmembers():
                    if not member.name.startswith("package/") or ".." in member.name:
                        continue
                    member.name = member.name[len("package/") :]
                    tar.extract(member, target, filter="data")
    if not (root / FLOW_TYPE_FILE).exists():
        raise Unavailable(f"{FLOW_TYPE_FILE} is missing after installing")
    return root


def oracle_or_reason() -> FlowOracle | str:
    try:
        return FlowOracle(install())
    except Unavailable as exc:
        return str(exc)


def _ref_id(value: Any, refs: dict[str, dict[str, Any]], kind: str) -> Any:
    if value is None:
        return None
    if isinstance(value, ExternalRef):
        name = ref_name(value) or value.text
        key = f"{kind}:{name}"
        if key not in refs:
            refs[key] = {"ID": f"ext-{kind}-{len(refs)}", "Name": name, "Status": "Active"}
        return refs[key]["ID"]
    text = str(value)
    key = f"{kind}:{text}"
    if key not in refs:
        refs[key] = {"ID": text, "Name": text, "Status": "Active"}
    return text


def world(agents: Iterable[Agent]) -> dict[str, Any]:
    """The rows AIEngine and ActionEngineServer hold, in the files' order."""
    refs: dict[str, dict[str, Any]] = {}
    rows_agents: list[dict[str, Any]] = []
    steps: list[dict[str, Any]] = []
    paths: list[dict[str, Any]] = []
    for a in agents:
        rows_agents.append({"ID": a.id, "Name": a.name, "Status": a.status})
        for s in a.steps:
            steps.append(
                {
                    "ID": s.id,
                    "AgentID": a.id,
                    "Name": s.name,
                    "StepType": s.type,
                    "StartingStep": s.starting,
                    "Status": s.status,
                    "Description": s.description,
                    "ActionID": _ref_id(s.action, refs, "action"),
                    "PromptID": _ref_id(s.prompt, refs, "prompt"),
                    "SubAgentID": _ref_id(s.sub_agent, refs, "agent"),
                    "Configuration": s.configuration,
                    "LoopBodyType": s.loop_body,
                    "ActionInputMapping": s.input_mapping,
                    "ActionOutputMapping": s.output_mapping,
                }
            )
        for p in a.paths:
            paths.append(
                {
                    "ID": p.id,
                    "OriginStepID": p.origin,
                    "DestinationStepID": p.destination,
                    "Condition": p.condition,
                    "Priority": p.priority,
                    "Description": p.description,
                }
            )
    actions = [r for k, r in refs.items() if k.startswith("action:")]
    sub_agents = [r for k, r in refs.items() if k.startswith("agent:")]
    return {"agents": rows_agents + sub_agents, "steps": steps, "paths": paths, "actions": actions}


class FlowOracle:
    def __init__(self, root: Path) -> None:
        self.root = root

    def run(
        self, batches: Iterable[tuple[Mapping[str, Any], list[Mapping[str, Any]]]]
    ) -> list[dict]:
        """``batches``: (world, cases) pairs; the answers of every case, in order."""
        lines: list[str] = []
        count = 0
        for w, cases in batches:
            lines.append(json.dumps({"world": w}))
            for c in cases:
                lines.append(json.dumps({"case": c}))
                count += 1
        if not count:
            return []
        proc = subprocess.run(
            ["node", str(HARNESS), str(self.root)],
            input="\n".join(lines) + "\n",
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        out = [json.loads(line) for line in proc.stdout.split("\n") if line.strip()]
        if proc.returncode != 0 or len(out) != count:
            raise RuntimeError(
                f"the node harness answered {len(out)} of {count} cases "
                f"(exit {proc.returncode}): {proc.stderr[-2000:]}"
            )
        return out
