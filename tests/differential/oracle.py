"""The real MemberJunction evaluator, run under node beside flowctx.

``@memberjunction/global@5.51.3`` is installed with npm into a test cache (``tests/.cache``,
or ``$FLOWCTX_TEST_CACHE``), once; ``mj_oracle.mjs`` (this folder) loads its
``dist/SafeExpressionEvaluator.js`` and answers one JSON line per case, so a whole batch costs
one node process.
"""

from __future__ import annotations

import json
import math
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from tests.prerequisites import Unavailable, cache_root, npm_install

PACKAGE: Final = "@memberjunction/global@5.51.3"
HARNESS: Final = Path(__file__).with_name("mj_oracle.mjs")
NEVER_EXECUTE: Final = "would execute this as code"


def cache_dir() -> Path:
    return cache_root() / "mj-global-5.51.3"


def install() -> Path:
    """The evaluator's module file, installing the package first when it is not cached;
    Unavailable (a one-line reason) without node, npm or the registry."""
    dist = Path("node_modules") / "@memberjunction" / "global" / "dist"
    target = dist / "SafeExpressionEvaluator.js"
    return npm_install(cache_dir().name, [PACKAGE], str(target)) / target


def oracle_or_reason() -> MjOracle | str:
    """The oracle, or why it cannot run here (a one-line reason to skip with)."""
    try:
        return MjOracle(install())
    except Unavailable as exc:
        return str(exc)


def _encode(value: Any) -> Any:
    """JSON for node, with the values JSON cannot carry tagged for the harness's reviver."""
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return {"$js": "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")}
    if isinstance(value, Mapping):
        return {str(k): _encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    return value


@dataclass(frozen=True)
class Answer:
    success: bool
    value: bool | None
    error: str | None
    # with ``probe``: typeof / String() / JSON.stringify / Object.is(v, -0) of the value
    exact: Mapping[str, Any] | None = None


class MjOracle:
    def __init__(self, module: Path) -> None:
        self.module = module

    def run(
        self,
        cases: Iterable[tuple[str, Mapping[str, Any]]],
        probe: bool = False,
        now: int | None = None,
    ) -> list[Answer]:
        """``now`` (epoch ms) pins the clock node's Date reads, as flowctx's ``--now`` does."""
        lines = [
            json.dumps(
                {"expr": expr, "scope": _encode(scope), "probe": probe, "now": now},
                ensure_ascii=True,
            )
            for expr, scope in cases
        ]
        if not lines:
            return []
        proc = subprocess.run(
            ["node", str(HARNESS), str(self.module)],
            input="\n".join(lines) + "\n",
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        # split on "\n" only: str.splitlines() also breaks at U+2028, U+0085... which node's
        # JSON.stringify leaves unescaped inside error messages
        out = [json.loads(line) for line in proc.stdout.split("\n") if line.strip()]
        if proc.returncode != 0 or len(out) != len(lines):
            raise RuntimeError(
                f"the node harness answered {len(out)} of {len(lines)} cases "
                f"(exit {proc.returncode}): {proc.stderr[-2000:]}"
            )
        return [Answer(o["success"], o["value"], o["error"], o.get("exact")) for o in out]
