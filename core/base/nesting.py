"""How deeply nested the data flowctx accepts may be.

Masking, display, coercion and JSON output walk values recursively, and Python's recursion
limit (1,000 frames, two per level in most walkers) ends them at a few hundred levels: a file
source holding 500 nested JSON arrays made ``flowctx matrix`` die with a RecursionError.
``json.loads`` accepts that depth, so every place that takes JSON in checks it here, with the
same limit the YAML loader applies.
"""

from __future__ import annotations

from typing import Any

#: Deeper data is refused; the YAML loader uses the same limit
#: (flowctx_core.base.yamlmarks.MAX_DEPTH).
MAX_NESTING = 64


def too_deep(value: Any, limit: int = MAX_NESTING) -> bool:
    """Whether ``value`` nests lists and dicts more than ``limit`` levels deep.

    Level by level, not recursively (it must not hit the limit it guards against): about a
    microsecond per container.
    """
    level = [value] if isinstance(value, (dict, list, tuple)) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        below: list[Any] = []
        for item in level:
            children = item.values() if isinstance(item, dict) else item
            below += [c for c in children if isinstance(c, (dict, list, tuple))]
        level = below
    return False


def nesting_problem(value: Any, limit: int = MAX_NESTING) -> str | None:
    """A message when ``value`` is nested too deeply, else None."""
    if too_deep(value, limit):
        return f"nested more than {limit} levels deep"
    return None
