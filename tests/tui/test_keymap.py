"""Key map files: binding ids checked, problems reported with file:line:col."""

from __future__ import annotations

from pathlib import Path

import pytest

from flowctx_tui.app import FlowctxApp, binding_classes
from flowctx_tui.keymap import KeymapError, binding_ids, load_keymap
from flowctx_tui.widgets.matrix import MatrixView


def test_every_app_and_matrix_binding_has_an_id():
    ids = binding_ids([FlowctxApp, MatrixView])
    for expected in ("app.quit", "app.reveal", "app.screenshot", "matrix.next_error"):
        assert expected in ids
    assert ids["matrix.filter"] == "Filter"


def test_ids_of_screens_and_views_are_known():
    ids = binding_ids(binding_classes())
    assert {"env.remove", "launch.apply", "help.close"} <= set(ids)


def test_yaml_and_json_key_maps(tmp_path: Path):
    known = binding_ids([FlowctxApp, MatrixView])
    yaml_file = tmp_path / "keys.yaml"
    yaml_file.write_text("matrix.next_error: f7\napp.reload: [ctrl+r, f5]\n")
    assert load_keymap(yaml_file, known) == {"matrix.next_error": "f7", "app.reload": "ctrl+r,f5"}
    json_file = tmp_path / "keys.json"
    json_file.write_text('{"app.help": "f2"}')
    assert load_keymap(json_file, known) == {"app.help": "f2"}


def test_unknown_ids_and_bad_keys_are_located(tmp_path: Path):
    known = binding_ids([FlowctxApp, MatrixView])
    bad = tmp_path / "keys.yaml"
    bad.write_text("matrix.next_eror: f7\napp.help: 3\n")
    with pytest.raises(KeymapError) as info:
        load_keymap(bad, known)
    message = str(info.value)
    assert f"{bad}:1:1: matrix.next_eror: unknown binding id 'matrix.next_eror'" in message
    assert "did you mean 'matrix.next_error'" in message
    assert f"{bad}:2:11: app.help: keys must be a string" in message


def test_broken_or_missing_key_map_files(tmp_path: Path):
    broken = tmp_path / "keys.json"
    broken.write_text('{"app.help": "f2",')
    with pytest.raises(KeymapError, match=r"keys.json:\d+:\d+: YAML syntax error"):
        load_keymap(broken, ["app.help"])
    with pytest.raises(KeymapError, match="not found"):
        load_keymap(tmp_path / "none.yaml", ["app.help"])


def test_keys_moved_onto_bound_keys_are_refused_only_where_both_are_active(tmp_path: Path):
    from flowctx_tui.keymap import bound_keys

    classes = binding_classes()
    known, bound = binding_ids(classes), bound_keys(classes)
    keys = tmp_path / "keys.yaml"

    def refused(text: str) -> str:
        keys.write_text(text)
        try:
            load_keymap(keys, known, bound=bound)
        except KeymapError as exc:
            return str(exc)
        return ""

    # ctrl+q quits everywhere, before any widget: it cannot share x with the matrix's Problems
    assert "is already the key of matrix.problems" in refused("app.quit: x\n")
    # two keys of one dialog
    assert f"{keys}:1:15: launch.apply: 'esc' is already the key of launch.cancel" in refused(
        "launch.apply: escape\n"
    )
    # the matrix and the scratchpad are never active together; a dialog's keys only in it
    assert refused("matrix.detail: ctrl+s\n") == ""
    assert refused("matrix.detail: escape\n") == ""
    # keys the app already shares without a key map are not blamed on the file
    assert refused("app.reload: f5\n") == ""
