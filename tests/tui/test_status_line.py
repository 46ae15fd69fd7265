"""The status line at 80 columns: shortened step by step, never cut mid-word, and what it
says (state, refusal, counts, review) always there."""

from __future__ import annotations

from datetime import datetime

import pytest

from flowctx_tui.widgets.status import Status, render_status

LONG = dict(
    workspace="a-workspace-with-a-long-name",
    workflow="AppGenerator",
    state="stale",
    reloaded=datetime(2026, 12, 6, 20, 40, 11),
    errors=1,
    warnings=10,
    runtime="mozaiks-0.2.0",
)


@pytest.mark.parametrize(
    "status",
    [
        Status(**LONG),  # type: ignore[arg-type]
        Status(**LONG, refused="workflow manager"),  # type: ignore[arg-type]
        Status(**LONG, refused="graph compile", overrides=2),  # type: ignore[arg-type]
        Status(**LONG, review="main~3", changes=12),  # type: ignore[arg-type]
    ],
    ids=["plain", "refused", "refused+overrides", "review"],
)
def test_the_status_line_fits_80_columns_and_keeps_what_it_says(status: Status) -> None:
    text = render_status(status, 80).plain
    assert len(text) <= 80, text
    assert "1 error, 10 warnings" in text
    assert "stale" in text
    if status.refused:
        assert "REFUSED" in text
    if status.review:
        assert "12 changed" in text
    if status.overrides:
        assert text.rstrip().endswith("2 overrides"), text
    # wider, the labels come back
    wide = render_status(status, 200).plain
    assert "reloaded 20:40:11" in wide and "runtime mozaiks-0.2.0" in wide
