"""Writes core/expressions/js/newercategories.py: the General_Category node (Unicode 17.0)
gives each code point where Python's ``unicodedata.category`` (older tables) differs, measured
with the node whose answers flowctx reproduces:

    python scripts/newer_categories.py

Node names each code point's category by which ``\\p{General_Category=...}`` matches it; the
code points whose category differs from Python's are kept, as hexadecimal ranges per category.
"""

from __future__ import annotations

import json
import subprocess
import textwrap
import unicodedata
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "core/expressions/js/newercategories.py"

CATEGORIES = [
    "Lu",
    "Ll",
    "Lt",
    "Lm",
    "Lo",
    "Mn",
    "Mc",
    "Me",
    "Nd",
    "Nl",
    "No",
    "Pc",
    "Pd",
    "Ps",
    "Pe",
    "Pi",
    "Pf",
    "Po",
    "Sm",
    "Sc",
    "Sk",
    "So",
    "Zs",
    "Zl",
    "Zp",
    "Cc",
    "Cf",
    "Cs",
    "Co",
    "Cn",
]

_CATEGORIES_JS = r"""
const names = JSON.parse(process.argv[1]);
const tests = names.map((n) => new RegExp("^\\p{General_Category=" + n + "}$", "u"));
const out = [];
for (let cp = 0; cp <= 0x10ffff; cp++) {
  const c = String.fromCodePoint(cp);
  out.push(tests.findIndex((t) => t.test(c)));
}
process.stdout.write(JSON.stringify(out));
"""


def main() -> None:
    done = subprocess.run(
        ["node", "-e", _CATEGORIES_JS, json.dumps(CATEGORIES)],
        capture_output=True,
        text=True,
        check=True,
    )
    theirs = json.loads(done.stdout)
    ranges: dict[str, list[list[int]]] = {}
    for cp, k in enumerate(theirs):
        assert k >= 0, f"U+{cp:04X} in no category"
        name = CATEGORIES[k]
        if name == unicodedata.category(chr(cp)):
            continue
        runs = ranges.setdefault(name, [])
        if runs and runs[-1][1] == cp - 1:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp])
    lines = [
        '"""The General_Category node (Unicode 17.0) gives the code points where Python\'s',
        "``unicodedata.category`` differs: those encoded since Python's tables, and the few",
        "whose category changed.",
        "",
        "Data, written by scripts/newer_categories.py from node, as hexadecimal ranges ``a-b``.",
        '"""',
        "",
        "from typing import Final",
        "",
        "CATEGORIES: Final = {",
    ]
    for name in CATEGORIES:
        if name not in ranges:
            continue
        text = " ".join(f"{a:x}" if a == b else f"{a:x}-{b:x}" for a, b in ranges[name])
        chunks = textwrap.wrap(text, 84)
        if len(chunks) == 1 and len(text) < 84:
            lines.append(f'    "{name}": {json.dumps(text)},')
            continue
        lines.append(f'    "{name}": (')
        lines += [f"        {json.dumps(chunk + ' ')}" for chunk in chunks]
        lines.append("    ),")
    lines.append("}")
    OUT.write_text("\n".join(lines) + "\n")
    subprocess.run(["ruff", "format", "-q", str(OUT)], check=True)  # the project's own layout
    print({n: sum(b - a + 1 for a, b in r) for n, r in ranges.items()})


if __name__ == "__main__":
    main()
