"""Compare flowctx's ISO-2022-JP decoder with node's answers on the random byte texts
``node scripts/text_iso2022.mjs CASES`` wrote: whole, with ``fatal`` (its TypeError exactly
where node throws one), streamed in two calls (the state kept between them) and whole again
on the same decoder after that (a flush leaves it new), and streamed with ``fatal``.

Run ``python scripts/text_iso2022_check.py CASES``; it prints the disagreements and a count.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from flowctx_core.expressions.js.host.textcoding import new_text_decoder  # noqa: E402
from flowctx_core.expressions.js.host.typedarrays import create  # noqa: E402
from flowctx_core.expressions.js.values import JsError  # noqa: E402


def _array(data: list[int]) -> object:
    ta = create("Uint8Array", len(data))
    ta.buffer.data[:] = bytes(data)
    return ta


def _decode(decoder: object, data: list[int], stream: bool = False) -> object:
    options = {"stream": True} if stream else None
    try:
        return decoder.js_get("decode").fn(_array(data), options)  # type: ignore[attr-defined]
    except JsError as e:
        return {"error": str(e)}


def main() -> int:
    cases = json.loads(Path(sys.argv[1]).read_text("utf-8"))
    wrong = 0
    for case in cases:
        data, cut = case["bytes"], case["cut"]
        ours = {
            "whole": _decode(new_text_decoder("iso-2022-jp"), data),
            "fatal": _decode(new_text_decoder("iso-2022-jp", {"fatal": True}), data),
        }
        s = new_text_decoder("iso-2022-jp")
        ours["first"] = _decode(s, data[:cut], stream=True)
        ours["second"] = _decode(s, data[cut:])
        ours["again"] = _decode(s, data)
        f = new_text_decoder("iso-2022-jp", {"fatal": True})
        ours["fatalStream"] = [_decode(f, data[:cut], stream=True), _decode(f, data[cut:])]
        for key, got in ours.items():
            if got != case[key]:
                wrong += 1
                print(f"{data} at {cut}: {key} {got!r}, node {case[key]!r}")
                break
    print(f"{len(cases) - wrong} of {len(cases)} agree")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
