"""Benchmark: a route decision over many paths against evaluating the same conditions bare.

Run ``python tests/benchmarks/bench_routing.py`` (``--paths 10,100,1000 --repeat 7``). For each
size it builds a flow whose start step has that many conditional paths and times, in the same
run and over the same scope:

* baseline: ``evaluate(condition, scope, "mj")`` once per condition (parse cache warm), the
  least any router must do;
* route: ``route_flow`` (sort by priority, evaluate every condition, pick the winner, build the
  candidates; explain trees are built only when shown);
* route+explain: ``route_flow`` and then every candidate's explain tree, as a JSON export does.

Best of N repetitions, the ratios to the baseline and the cost per path are printed. Target:
route within 2x of the baseline.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from flowctx_core.base.yamlmarks import parse_yaml_text
from flowctx_core.expressions import evaluate
from flowctx_core.expressions.pathcontext import build_path_context
from flowctx_core.routing import route_flow
from flowctx_core.routing.model import parse_flow


def flow_text(n: int) -> str:
    lines = ["steps:", "  - {name: Start, type: Action, starting: true}"]
    lines += [f"  - {{name: T{i}, type: Action}}" for i in range(n)]
    lines.append("paths:")
    for i in range(n):
        cond = f"data.n === {i} && payload.status === 'pending' || context.region === 'r{i}'"
        lines.append(f'  - {{from: Start, to: T{i}, priority: {i % 7}, condition: "{cond}"}}')
    return "\n".join(lines) + "\n"


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--paths", default="10,100,1000")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    scope = build_path_context(
        payload={"status": "pending"}, data={"n": -1}, context={"region": "eu"}
    )
    print(f"{'paths':>6} {'baseline ms':>12} {'route ms':>10} {'ratio':>6} {'+explain ms':>12} "
          f"{'ratio':>6} {'us/path':>8}")  # fmt: skip
    for n in (int(x) for x in args.paths.split(",")):
        doc, problems = parse_yaml_text(flow_text(n), "flow.yaml")
        assert doc is not None, problems
        flow = parse_flow(doc, problems)
        conditions = [e.model.condition for e in flow.paths if e.model and e.model.condition]

        def baseline(conditions: list[str] = conditions) -> None:
            for c in conditions:
                evaluate(c, scope, "mj")

        def route(flow: object = flow) -> None:
            route_flow(flow, "Start", scope)  # type: ignore[arg-type]

        def route_explained(flow: object = flow) -> None:
            decision = route_flow(flow, "Start", scope)  # type: ignore[arg-type]
            for c in decision.candidates:
                c.explain_tree()

        baseline()
        route()  # warm the parse cache for both
        b = best(baseline, args.repeat)
        r = best(route, args.repeat)
        e = best(route_explained, args.repeat)
        print(
            f"{n:>6} {b * 1000:>12.2f} {r * 1000:>10.2f} {r / b:>6.2f} {e * 1000:>12.2f} "
            f"{e / b:>6.2f} {r / n * 1e6:>8.1f}"
        )


if __name__ == "__main__":
    main()
