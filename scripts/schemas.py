"""Regenerate the stored JSON Schemas ``flowctx schema`` prints (core/report/schema_files/).

Run ``python scripts/schemas.py`` after changing a validating model, a runtime profile or
core/report/schemas.py; tests/core/test_schema_store.py fails until the files match the code.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from flowctx_core.model.profiles import PROFILES  # noqa: E402
from flowctx_core.report.schema_store import SCHEMA_FILES, STORE, stored_path  # noqa: E402
from flowctx_core.report.schemas import render  # noqa: E402


def main() -> int:
    shutil.rmtree(STORE, ignore_errors=True)  # a profile or kind that went leaves no file
    for profile in PROFILES.values():
        for kind in SCHEMA_FILES:
            path = stored_path(kind, profile)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(render(kind, profile), encoding="utf-8")
            print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
