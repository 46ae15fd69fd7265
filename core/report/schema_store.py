"""The JSON Schemas ``flowctx schema`` prints, generated ahead of time and shipped as files.

Generating one (``flowctx_core.report.schemas.file_schema``) builds every validating model and
walks pydantic's JSON Schema generator: most of a second for a command an editor runs. The
output is a pure function of the code (the models and the runtime profiles), so it is
generated once per profile and kind into ``schema_files/<profile>/<kind>.json`` by
``scripts/schemas.py``; ``tests/core/test_schema_store.py`` fails, naming the script, when a
stored file differs from what the code generates now.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Final

from flowctx_core.model.filenames import SCHEMA_FILES as SCHEMA_FILES

if TYPE_CHECKING:
    from flowctx_core.model.profiles import RuntimeProfile

STORE: Final = Path(__file__).resolve().parent / "schema_files"


def stored_path(kind: str, runtime: RuntimeProfile) -> Path:
    return STORE / runtime.name / f"{kind}.json"


def schema_text(kind: str, runtime: RuntimeProfile) -> str:
    """``flowctx schema``'s output for ``kind`` under ``runtime``: the stored file, else (a
    source tree whose files were not generated) the live generation, as the same text."""
    try:
        return stored_path(kind, runtime).read_text(encoding="utf-8")
    except OSError:
        from flowctx_core.report.schemas import render

        return render(kind, runtime)
