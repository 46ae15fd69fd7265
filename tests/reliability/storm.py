"""The workspace and the writer of the storm tests (standard library only: the writer runs
in its own process, started with ``python -m tests.reliability.storm ROOT SECONDS RATE``)."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: the value every stormed file holds at the end
FINAL = 987654


def contract(n: int, fillers: int = 30) -> str:
    lines = [
        "definitions:",
        f"  counter: {{type: integer, source: {{type: state, default: {n}}}}}",
        "  profile_n: {type: string, source: {type: config, env_var: STORM_N}}",
        "  seed_n:",
        "    type: integer",
        "    source: {type: data_reference, database_name: default, collection: storm,",
        "             fields: [n]}",
        "  file_n: {type: object, source: {type: file, path: data/n.json, default: {}}}",
    ]
    lines += [
        f"  filler_{i}: {{type: string, source: {{type: state, default: v{i}}}}}"
        for i in range(fillers)
    ]
    names = ["counter", "profile_n", "seed_n", "file_n"] + [f"filler_{i}" for i in range(fillers)]
    lines.append(f"agents:\n  Agent: {{variables: [{', '.join(names)}]}}")
    return "\n".join(lines) + "\n"


def profile(n: int) -> str:
    return f'env:\n  STORM_N: "{n}"\nlaunch:\n  app_id: app-1\n'


def seed(n: int) -> str:
    return json.dumps([{"app_id": "app-1", "n": n}])


def storm_workspace(root: Path) -> Path:
    files: dict[str, str] = {
        f"workflows/W{i}/context_variables.yaml": contract(0, 5 + i) for i in range(4)
    }
    files["workflows/W0/context_variables.yaml"] = contract(0)
    files["flowctx.yaml"] = profile(0)
    files["seed/default/storm.json"] = seed(0)
    files["data/n.json"] = json.dumps({"n": 0})
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def save(path: Path, text: str, by_rename: bool) -> None:
    if by_rename:  # an editor: write a temporary file beside it, rename it over
        tmp = path.with_name(f".{path.name}.swp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    else:  # a plain write: truncate, then write (a reader may see it half-done)
        with path.open("w", encoding="utf-8") as f:
            f.write(text)


def recreate(root: Path, name: str, text: str) -> None:
    """Delete a workflow folder and make it again, as a branch switch or a script would."""
    folder = root / "workflows" / name
    shutil.rmtree(folder, ignore_errors=True)
    time.sleep(0.01)
    folder.mkdir()
    save(folder / "context_variables.yaml", text, True)


MAKERS: list[tuple[str, Callable[[int], str]]] = [
    ("workflows/W0/context_variables.yaml", contract),
    ("flowctx.yaml", profile),
    ("seed/default/storm.json", seed),
    ("data/n.json", lambda n: json.dumps({"n": n})),
    ("workflows/W1/context_variables.yaml", lambda n: contract(n, 6)),
]


def storm(root: Path, seconds: float, rate: int) -> dict[str, Any]:
    """Save the MAKERS' files round-robin at ``rate`` a second for ``seconds``, every 50th
    save recreating W2, halfway recreating W0 (the one on screen); then the final state."""
    start = time.monotonic()
    saves = folders = 0
    shown_recreated = False
    while time.monotonic() - start < seconds:
        rel, make = MAKERS[saves % len(MAKERS)]
        save(root / rel, make(saves), by_rename=saves % 2 == 1)
        saves += 1
        if saves % 50 == 0:
            recreate(root, "W2", contract(saves, 7))
            folders += 1
        if not shown_recreated and time.monotonic() - start > seconds / 2:
            recreate(root, "W0", contract(saves))
            shown_recreated = True
            folders += 1
        # keep the pace: sleep until the next save is due
        time.sleep(max(0.0, start + saves / rate - time.monotonic()))
    elapsed = time.monotonic() - start
    for rel, make in MAKERS:
        save(root / rel, make(FINAL), by_rename=True)
    recreate(root, "W2", contract(FINAL, 7))
    # wall-clock time of the last save, comparable across processes
    return {"saves": saves, "folders": folders, "seconds": elapsed, "last_save": time.time()}


if __name__ == "__main__":
    root_arg, seconds_arg, rate_arg = sys.argv[1:4]
    print(json.dumps(storm(Path(root_arg), float(seconds_arg), int(rate_arg))))
