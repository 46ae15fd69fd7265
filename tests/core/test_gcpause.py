"""The garbage collector is paused while a workspace loads and resolves, and always restored."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from flowctx_core.base.gcpause import gc_paused
from flowctx_core.model.inputs import ResolveInputs
from flowctx_core.resolve import resolve
from flowctx_core.snapshot import load_snapshot

CONTRACT = "definitions:\n  a:\n    type: string\n    source: {type: state, default: x}\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "workflows" / "W"
    folder.mkdir(parents=True)
    (folder / "context_variables.yaml").write_text(CONTRACT, encoding="utf-8")
    return tmp_path


def test_loading_and_resolving_leave_the_collector_as_they_found_it(root: Path) -> None:
    assert gc.isenabled()
    matrix = resolve(load_snapshot(root, {}), ResolveInputs(env={}), "W")
    assert [r.value for r in matrix.rows if r.name == "a"] == ["x"]
    assert gc.isenabled()
    gc.disable()  # a caller that turned it off keeps it off
    try:
        resolve(load_snapshot(root, {}), ResolveInputs(env={}), "W")
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_nested_and_failing_sections_restore_the_collector() -> None:
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer section still runs
    assert gc.isenabled()
    with pytest.raises(ValueError), gc_paused():
        raise ValueError("boom")
    assert gc.isenabled()


def test_overlapping_sections_in_two_threads_restore_it_when_the_last_ends() -> None:
    inside, release = threading.Event(), threading.Event()

    def other() -> None:
        with gc_paused():
            inside.set()
            release.wait(5)

    thread = threading.Thread(target=other)
    with gc_paused():
        thread.start()
        assert inside.wait(5)
    assert not gc.isenabled()  # the other thread is still loading
    release.set()
    thread.join(5)
    assert gc.isenabled()


ONE_SHOT = """
import gc, json, sys, weakref
from flowctx_core.base.gcpause import gc_paused, gc_resumed, keep_until_exit

class Node:
    pass

def cycle():
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)

if sys.argv[1] == "one-shot":
    keep_until_exit()
with gc_paused():
    loaded = [{"row": i} for i in range(1000)]
    with gc_resumed():  # a query: its cycles are the collector's
        in_query = cycle()
    with gc_resumed():  # the next query
        pass
frozen = gc.get_freeze_count()
after = cycle()  # a cycle made after the load, then dropped
gc.collect()
print(json.dumps({
    "frozen": frozen,
    "cycles_collected": in_query() is None and after() is None,
    "on": gc.isenabled(),
}))
"""


@pytest.mark.parametrize("mode", ["one-shot", "embedded"])
def test_a_one_shot_process_keeps_what_it_loaded_out_of_later_collections(mode: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", ONE_SHOT, mode], capture_output=True, text=True, check=True
    )
    got = json.loads(done.stdout)
    # frozen: no later collection walks the loaded workspace again (bench_matrix_json)
    assert (got["frozen"] > 1000) is (mode == "one-shot")
    assert got["cycles_collected"] and got["on"]
