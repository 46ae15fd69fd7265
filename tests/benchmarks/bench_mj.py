"""MemberJunction agent metadata: reading it, and the 5.51.3 step machine, in figures.

Prints the time to read N generated agents (MetadataSync files, references resolved) against
``json.loads`` of the same files (the baseline, measured in the same run), one-hop decisions
per second and whole runs per second. Not a test: ``python tests/benchmarks/bench_mj.py``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from flowctx_core.memberjunction.agents import open_mj
from flowctx_core.memberjunction.flow import machine
from flowctx_core.memberjunction.flow.run import run_flow
from tests.differential.mj_flow_compare import draw_outcomes
from tests.differential.mj_flow_draw import write_workspace


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--agents", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = write_workspace(Path(tmp), 1, args.agents)
        files = sorted((root / "metadata" / "agents").glob(".gen-*.json"))
        t0 = time.perf_counter()
        for f in files:
            json.loads(f.read_text())
        base = time.perf_counter() - t0
        t0 = time.perf_counter()
        ws = open_mj(root)
        read = time.perf_counter() - t0
        agents = list(ws.flows.values())
        hops = 0
        t0 = time.perf_counter()
        for a in agents:
            for s in a.steps:
                machine.next_hop(a, s, machine.default_result(s, {}), {})
                hops += 1
        hop_time = time.perf_counter() - t0
        rng = random.Random(1)
        t0 = time.perf_counter()
        for a in agents:
            run_flow(a, draw_outcomes(a, rng), {}, defaults=True, max_steps=12)
        run_time = time.perf_counter() - t0
    print(f"{len(agents)} agents in {len(files)} files")
    print(
        f"read: {read * 1000:.0f} ms ({read / base:.1f}x json.loads of the same files, "
        f"{base * 1000:.1f} ms)"
    )
    print(f"one-hop decisions: {hops / hop_time:,.0f}/s ({hops} in {hop_time * 1000:.0f} ms)")
    print(f"whole runs (up to 12 steps): {len(agents) / run_time:,.0f}/s")


if __name__ == "__main__":
    main()
