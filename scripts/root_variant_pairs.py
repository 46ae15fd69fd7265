"""Prints the letters flowctx's root order has at the second level after a base letter (ø after
o) with their base letters, and the accents in node's order: scripts/root_variants.mjs's input.

    python scripts/root_variant_pairs.py > /tmp/pairs.json
"""

import json

from flowctx_core.expressions.js.intl.rootorder import _table
from flowctx_core.expressions.js.strings import _generated

weights, _, _ = _generated()
bases: dict[float, str] = {}
for c, (primary, second, third) in weights.items():
    if second == 0 and third == 0:
        bases.setdefault(primary, c)
pairs = [(c, bases[w[0]]) for c, w in weights.items() if w[1] and w[0] in bases]
print(json.dumps({"pairs": pairs, "marks": [group[0] for group in _table()["marks"]]}))
