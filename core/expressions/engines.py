"""The engine (and version) whose answer each dialect predicts, spelled once.

A module of its own so that naming the engines (every result carries one) does not import the
front ends: ``flowctx eval`` of an mj condition loads the mj front end only.
"""

from __future__ import annotations

import sys
from typing import Final

ENGINES: Final[dict[str, str]] = {
    "mj": "MemberJunction SafeExpressionEvaluator 5.51.3",
    "ag2": "AG2 ContextExpression 0.14.0",
    "mozaiks": "Mozaiks transition evaluator (mozaiks 12f31eb)",
    "python": f"Python {sys.version_info.major}.{sys.version_info.minor} expressions",
}
