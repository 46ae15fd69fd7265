"""The schemas ``flowctx schema`` prints are stored ahead of time: each stored file is exactly
what the models and profiles generate now, and the command prints it."""

from __future__ import annotations

import pytest

from flowctx_core.model.profiles import PROFILES, get_profile
from flowctx_core.report.schema_store import SCHEMA_FILES, STORE, stored_path
from flowctx_core.report.schemas import render
from flowctx_tui.cli import main

REGENERATE = "stale: run python scripts/schemas.py to regenerate the stored schemas"


@pytest.mark.parametrize("runtime", list(PROFILES))
@pytest.mark.parametrize("kind", list(SCHEMA_FILES))
def test_the_stored_schema_is_the_live_generation(kind: str, runtime: str) -> None:
    path = stored_path(kind, PROFILES[runtime])
    assert path.is_file(), f"{path} is missing; {REGENERATE}"
    assert path.read_text(encoding="utf-8") == render(kind, PROFILES[runtime]), REGENERATE


def test_no_stored_schema_is_left_over_from_a_profile_or_kind_that_went() -> None:
    expected = {stored_path(k, p) for p in PROFILES.values() for k in SCHEMA_FILES}
    assert set(STORE.rglob("*.json")) == expected, REGENERATE


@pytest.mark.parametrize("runtime", ["mozaiks", "mozaiks-2026-01", "spec"])
def test_the_command_prints_the_live_generation(
    runtime: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["schema", "contract", "--runtime", runtime]) == 0
    assert capsys.readouterr().out == render("contract", get_profile(runtime))
