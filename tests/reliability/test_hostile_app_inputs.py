"""Hostile workspace files under the running app (issue 13), driven through Pilot.

What the user sees: a contract edited into a recursive alias turns the matrix stale with the
file, line and column in the banner (the app used to die with RecursionError), and fixing it
makes it live again; a seed folder that is no database name no longer stops the workspace from
opening; a secret unwrapped from a document into an innocent name is masked in the matrix, the
detail (which says why) and the F8 screenshot.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path

from flowctx_core.session import open_session
from flowctx_tui.app import FlowctxApp
from tests.conftest import write_tree
from tests.reliability.harness import no_hang
from tests.tui.conftest import FIXED_NOW, cell, detail_text, reloaded, wait_for

CONTRACT = "workflows/W/context_variables.yaml"
GOOD = (
    "definitions:\n  flag: {type: boolean, source: {type: state, default: false}}\n"
    "agents:\n  Agent: {variables: [flag]}\n"
)
RECURSIVE = (
    "definitions:\n  flag: {type: array, source: {type: state, default: &r [1, *r]}}\n"
    "agents:\n  Agent: {variables: [flag]}\n"
)


async def test_a_recursive_alias_makes_the_matrix_stale_with_a_located_banner(
    tmp_path: Path,
) -> None:
    root = write_tree(tmp_path / "ws", {CONTRACT: GOOD})
    app = FlowctxApp(open_session(root, env={}), "W", watch=False, cursor_blink=False)
    with no_hang(120):
        async with app.run_test(size=(140, 30)) as pilot:
            await reloaded(pilot)
            assert cell(app, "flag", "value") == "false"
            (root / CONTRACT).write_text(RECURSIVE, encoding="utf-8")
            app.reload({root / CONTRACT})
            await wait_for(pilot, lambda: app.state == "stale", "stale", timeout=20)
            banner = " ".join(str(app.query_one("#problems").render()).split())
            assert f"{CONTRACT}:2:54: recursive YAML alias" in banner, banner
            assert cell(app, "flag", "value") == "false"  # the last good rows stay
            (root / CONTRACT).write_text(GOOD.replace("false", "true"), encoding="utf-8")
            app.reload({root / CONTRACT})
            await wait_for(pilot, lambda: app.state == "live", "live again", timeout=20)
            assert cell(app, "flag", "value") == "true"


async def test_the_app_opens_a_workspace_whose_seed_folder_is_no_database_name(
    tmp_path: Path,
) -> None:
    root = write_tree(
        tmp_path / "ws",
        {
            "seed/$db/things.json": '[{"a": 1}]',
            "seed/new\nline/things.json": '[{"a": 1}]',
            "seed/default/things.json": '[{"a": 2}]',
            CONTRACT: (
                "definitions:\n  a: {type: integer, source: {type: data_reference, "
                "database_name: default, collection: things, fields: [a]}}\n"
                "agents:\n  Agent: {variables: [a]}\n"
            ),
        },
    )
    app = FlowctxApp(open_session(root, env={}), "W", watch=False, cursor_blink=False)
    with no_hang(120):
        async with app.run_test(size=(140, 30)) as pilot:
            await reloaded(pilot)
            assert cell(app, "a", "value") == "2"


async def test_a_secret_field_unwrapped_into_an_innocent_name_is_masked_in_the_app(
    tmp_path: Path,
) -> None:
    token = "sk-" + secrets.token_hex(16)
    root = write_tree(
        tmp_path / "ws",
        {
            "seed/default/vendors.json": json.dumps([{"name": "acme", "api_secret": token}]),
            CONTRACT: (
                "definitions:\n  vendor_handle:\n    type: string\n    source:\n"
                "      type: data_reference\n      database_name: default\n"
                "      collection: vendors\n      query_template: {name: acme}\n"
                "      fields: [api_secret]\n"
                "agents:\n  Agent: {variables: [vendor_handle]}\n"
            ),
        },
    )
    shots = tmp_path / "shots"
    app = FlowctxApp(
        open_session(root, env={}),
        "W",
        watch=False,
        cursor_blink=False,
        clock=lambda: FIXED_NOW,
        screenshot_dir=shots,
    )
    with no_hang(120):
        async with app.run_test(size=(160, 40)) as pilot:
            await reloaded(pilot)
            assert cell(app, "vendor_handle", "value") == "***"
            app.matrix_view.select("vendor_handle")
            await pilot.pause()
            detail = detail_text(app)
            assert token not in detail
            assert "masked: the field name looks secret" in " ".join(detail.split()), detail
            await pilot.press("f8")
            await wait_for(pilot, lambda: any(shots.glob("*.svg")), "the F8 screenshot")
    svg = next(shots.glob("*.svg")).read_text(encoding="utf-8")
    assert token not in svg and token[:12] not in svg
    assert "***" in svg
