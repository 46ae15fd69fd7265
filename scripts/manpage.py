"""Write man/flowctx.1 from the parsers (flowctx_tui/cli/manpage.py): run after changing a
command's options; tests/cli/test_manpage.py fails while the committed page is out of date."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flowctx_tui.cli.manpage import render

if __name__ == "__main__":
    target = Path(__file__).resolve().parents[1] / "man" / "flowctx.1"
    target.write_text(render(), encoding="utf-8")
    print(f"wrote {target}")
