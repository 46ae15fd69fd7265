"""The matrix view driven as a user would: select, filter, sort, jump to errors, reveal."""

from __future__ import annotations

from pathlib import Path

from tests.tui.conftest import MakeApp, cell, detail_text, reloaded, wait_for

ERRORS = {
    "workflows/W/context_variables.yaml": """
        definitions:
          alpha: {type: string, source: {type: state, default: a}}
          needs_key:
            type: string
            source: {type: config, env_var: SERVICE_TOKEN, required: true}
          beta: {type: string, source: {type: state, default: b}}
          broken_one:
            type: string
            source: {type: config, env_vra: X}
          gamma: {type: string, source: {type: state, default: "[bold]c[/bold]"}}
        agents:
          A: {variables: [alpha, needs_key]}
        """
}


async def test_demo_rows_show_value_source_status_and_origin(demo: Path, make_app: MakeApp):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        assert app.state == "live"
        names = app.matrix_view.shown_names
        assert names[:3] == ["factory_name", "llm_model", "openai_api_key"]
        # LLM_MODEL is declared and unset: the runtime ignores the default
        assert cell(app, "llm_model", "value") == "null"
        # ... and the row is marked: check warns that the default is ignored
        # ... nothing answered (not its default): missing, and marked: check warns about it
        assert cell(app, "llm_model", "status") == "missing !"
        assert cell(app, "llm_model", "origin").startswith("None: def")
        assert "mozaiks-0.2.0" in str(app.query_one("#status").render())  # at 100 columns
        assert cell(app, "max_build_iterations", "value") == "5"
        assert cell(app, "max_build_iterations", "origin").startswith("env MAX_B")
        assert cell(app, "concept_api_endpoints", "status") == "fallback"
        assert cell(app, "llm_model", "agents").startswith("Intervi")
        # secrets: the key from flowctx.yaml is masked in the table
        assert cell(app, "openai_api_key", "value") == "***"


async def test_selecting_a_row_shows_value_provenance_definition_and_agents(
    demo: Path, make_app: MakeApp
):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        assert app.matrix_view.select("max_build_iterations")
        await pilot.pause()
        text = detail_text(app)
        assert "Provenance" in text
        assert "env" in text and "used" in text
        assert "workflows/AppGenerator/context_variables.yaml:" in text
        assert "env_var: MAX_BUILD_ITERATIONS" in text  # the definition as written
        assert "PlannerAgent" in text
        # moving the cursor with the keyboard follows
        await pilot.press("down")
        assert "enable_preview_deploys" in detail_text(app)


async def test_detail_of_a_state_variable_lists_its_triggers(demo: Path, make_app: MakeApp):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        app.matrix_view.select("selected_pattern_id")
        await pilot.pause()
        text = detail_text(app)
        assert "Triggers" in text
        assert "agent_text from PatternAgent matching regex" in text


async def test_filter_as_you_type_by_status_source_and_name(demo: Path, make_app: MakeApp):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        total = len(app.matrix_view.shown_names)
        await pilot.press("slash")
        await pilot.press(*"status:fa")  # a prefix of the status is enough
        assert app.matrix_view.shown_names == ["concept_api_endpoints", "brand_guidelines"]
        assert app.matrix_view.table.row_count == 2
        assert "2/32" in str(app.query_one("#matrix-count").render())
        # (the rest is set directly: one render per key press makes typing slow in tests)
        filter_input = app.query_one("#filter")
        filter_input.value = "source:file"
        await pilot.pause()
        assert app.matrix_view.shown_names == [
            "stack_catalog",
            "style_guide",
            "welcome_message",
            "release_notes_template",
        ]
        filter_input.value = "source:file -status:resolved"
        await pilot.pause()
        assert app.matrix_view.shown_names == ["release_notes_template"]
        filter_input.value = "MODEL"
        await pilot.pause()
        assert app.matrix_view.shown_names == ["llm_model"]
        filter_input.value = ""
        await pilot.pause()
        assert len(app.matrix_view.shown_names) == total
        await pilot.press("enter")  # back to the table
        assert app.focused is app.matrix_view.table


async def test_sort_by_key_and_by_clicking_a_header(demo: Path, make_app: MakeApp):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        await pilot.press("s")  # first sort column: name
        names = app.matrix_view.shown_names
        assert names == sorted(names, key=str.lower)
        table_order = [r.key.value for r in app.matrix_view.table.ordered_rows]
        assert table_order == names
        await pilot.press("S")
        assert app.matrix_view.shown_names == sorted(names, key=str.lower, reverse=True)
        # clicking the Status header: pending/fallback/default/resolved, most urgent first
        table = app.matrix_view.table
        widths = [(c.key.value, c.get_render_width(table)) for c in table.ordered_columns]
        before = sum(w for key, w in widths[: [k for k, _ in widths].index("status")])
        await pilot.click(
            "#matrix-table", offset=(before + table.columns["status"].width // 2 + 1, 0)
        )
        statuses = [cell(app, n, "status") for n in app.matrix_view.shown_names]
        assert app.matrix_view.sort_column == "status"
        assert statuses.index("pending") < statuses.index("fallback") < statuses.index("resolved")


async def test_jump_to_next_error_wraps_and_error_rows_show(workspace, make_app: MakeApp):
    root = workspace(ERRORS)
    app = make_app(root, "W")
    async with app.run_test(size=(120, 30)) as pilot:
        await reloaded(pilot)
        assert app.state == "live"  # one bad definition is an error row, not a broken file
        assert cell(app, "needs_key", "status") == "error"
        assert cell(app, "broken_one", "status") == "error"
        # values that look like markup are shown as typed
        assert cell(app, "gamma", "value") == "[bold]c[/bold]"
        # n walks the rows in error and those with warnings (beta and gamma: no agent
        # exposes them), in table order, and wraps; p walks back
        seen = []
        for _ in range(5):
            await pilot.press("n")
            seen.append(app.matrix_view.highlighted.name)
            if seen[-1] == "needs_key" and len(seen) == 1:
                assert "Required config variable 'needs_key' is not set" in detail_text(app)
            if seen[-1] == "broken_one":
                assert "unknown field (did you mean 'env_var'?)" in detail_text(app)
        assert seen == ["needs_key", "beta", "broken_one", "gamma", "needs_key"]
        assert cell(app, "beta", "status") == "default !"
        await pilot.press("p")
        assert app.matrix_view.highlighted.name == "gamma"
        status = str(app.query_one("#status").render())
        # the rows' 3, and the bare folder the runtime would not discover
        assert "2 errors, 4 warnings" in status


async def test_reveal_toggles_masking_for_the_current_view_only(demo: Path, make_app: MakeApp):
    app = make_app(demo, "Approvals")
    async with app.run_test(size=(220, 30)) as pilot:
        await reloaded(pilot)
        url = cell(app, "approval_service_url", "value")
        assert "demo-pass" not in url
        app.matrix_view.select("approval_service_url")
        await pilot.pause()
        assert "demo-pass" not in detail_text(app)
        await pilot.press("r")
        assert "demo-pass" in cell(app, "approval_service_url", "value")
        assert "demo-pass" in detail_text(app)
        assert "SECRETS REVEALED" in str(app.query_one("#status").render())
        await pilot.press("r")
        assert "demo-pass" not in cell(app, "approval_service_url", "value")
        # reveal is dropped when the user leaves the view
        await pilot.press("r")
        await pilot.press("2")
        await wait_for(pilot, lambda: not app.reveal, "reveal reset on tab switch")
        await pilot.press("1")
        await pilot.pause()
        assert "demo-pass" not in cell(app, "approval_service_url", "value")


async def test_narrow_terminal_stacks_detail_below_and_wide_puts_it_beside(
    demo: Path, make_app: MakeApp
):
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await reloaded(pilot)
        table = app.matrix_view.table.region
        detail = app.query_one("#detail").region
        assert detail.y >= table.bottom  # below
        await pilot.press("d")
        assert not app.query_one("#detail").display or app.query_one("#detail").region.height == 0
        await pilot.press("d")
        await pilot.resize_terminal(160, 48)
        await pilot.pause()
        table = app.matrix_view.table.region
        detail = app.query_one("#detail").region
        assert detail.x >= table.right  # beside
        assert detail.height > 30


async def test_a_load_made_before_start_is_on_the_first_frame(demo: Path, make_app: MakeApp):
    from flowctx_core.session import open_session
    from flowctx_tui.loader import load

    app = make_app(demo, initial=load(open_session(demo, env={}), "AppGenerator", {}, {}))
    async with app.run_test(size=(80, 24)):
        # as flowctx starts it: the rows are there on the first frame, no reload awaited
        assert app.state == "live"
        assert app.matrix_view.table.row_count == len(app.good.matrix.rows)
        assert cell(app, "llm_model", "value") == "null"


def count_text(app) -> str:
    return str(app.query_one("#matrix-count").render())


async def test_a_filter_on_an_unknown_column_says_so_instead_of_emptying_the_table(
    demo: Path, make_app: MakeApp
):
    app = make_app(demo)
    async with app.run_test(size=(120, 30)) as pilot:
        await reloaded(pilot)
        total = len(app.matrix_view.shown_names)
        await pilot.press("slash", *"foo:bar")
        # the mistake filters nothing, and the count's place says what went wrong
        assert len(app.matrix_view.shown_names) == total
        said = count_text(app)
        assert said.startswith("unknown column foo: filter by name, status, source, type, agent")
        app.query_one("#filter").value = "stats:error"
        await pilot.pause()
        assert "unknown column stats (did you mean 'status'?)" in count_text(app)
        app.query_one("#filter").value = "status:error"
        await pilot.pause()
        assert "unknown" not in count_text(app)


async def test_warning_counts_are_of_the_rows_shown_and_the_hidden_ones_are_said_apart(
    workspace, make_app: MakeApp
):
    app = make_app(workspace(ERRORS), "W")
    async with app.run_test(size=(120, 30)) as pilot:
        await reloaded(pilot)
        assert "2 in error · 2 marked !" in count_text(app)  # beta and gamma
        app.query_one("#filter").value = "beta"
        await pilot.pause()
        assert app.matrix_view.shown_names == ["beta"]
        said = count_text(app)
        assert said.startswith("1/7 · 1 marked ! · hidden: 2 in error, 1 marked !")
