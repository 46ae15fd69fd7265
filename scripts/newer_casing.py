"""Writes core/expressions/js/newercasing.py: the code points whose part in lowercasing a
final sigma node (Unicode 17.0) sees otherwise than Python's ``str.lower`` (older tables),
measured with the node whose answers flowctx reproduces:

    python scripts/newer_casing.py

A code point's part is read the same way from both: 'A', it, 'Σ' lowercased ends in a final
sigma when it is cased or case-ignorable; it, 'Σ' does only when it is cased and not
case-ignorable. Only the code points whose parts differ are kept, as hexadecimal ranges.
"""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "core/expressions/js/newercasing.py"

_PARTS_JS = r"""
const parts = [];
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) { parts.push("n"); continue; }
  const c = String.fromCodePoint(cp);
  const after = ("A" + c + "\u03a3").toLowerCase().endsWith("\u03c2");
  const alone = (c + "\u03a3").toLowerCase().endsWith("\u03c2");
  parts.push(alone ? "c" : after ? "i" : "n");
}
process.stdout.write(parts.join(""));
"""


def part(c: str) -> str:
    """'c' cased (and not case-ignorable), 'i' case-ignorable, 'n' neither, as Python has it."""
    if ("A" + c + "\u03a3").lower().endswith("\u03c2"):
        return "c" if (c + "\u03a3").lower().endswith("\u03c2") else "i"
    return "n"


def main() -> None:
    theirs = subprocess.run(
        ["node", "-e", _PARTS_JS], capture_output=True, text=True, check=True
    ).stdout
    ranges: dict[str, list[list[int]]] = {"c": [], "i": [], "n": []}
    for cp, p in enumerate(theirs):
        if 0xD800 <= cp <= 0xDFFF or part(chr(cp)) == p:
            continue
        runs = ranges[p]
        if runs and runs[-1][1] == cp - 1:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp])
    names = {"c": "CASED", "i": "IGNORABLE", "n": "NEITHER"}
    lines = [
        '"""The code points whose part in lowercasing a final sigma node (Unicode 17.0) sees',
        "otherwise than Python's ``str.lower``: letters and marks encoded since Python's tables.",
        "",
        "Data, written by scripts/newer_casing.py from node, as hexadecimal ranges ``a-b``.",
        '"""',
        "",
        "from typing import Final",
        "",
    ]
    for p, name in names.items():
        text = " ".join(f"{a:x}" if a == b else f"{a:x}-{b:x}" for a, b in ranges[p])
        lines.append(f"{name}: Final = (")
        lines += [f"    {json.dumps(chunk + ' ')}" for chunk in textwrap.wrap(text, 88)] or [
            '    ""'
        ]
        lines.append(")")
    OUT.write_text("\n".join(lines) + "\n")
    print({names[p]: sum(b - a + 1 for a, b in r) for p, r in ranges.items()})


if __name__ == "__main__":
    main()
