"""Pausing the cyclic garbage collector while a workspace is read and resolved.

Loading a contract allocates a container for every YAML node, path and mark; none of them
forms a cycle that needs collecting, yet each batch of allocations triggers a collection that
walks every object still alive, so with the collector on the cost per variable grew with the
size of the contract (about 30% of the CPU time at 3,000 variables). The collector is paused
for the duration of a load or a resolution and restored afterwards (the objects are freed by
reference counting as usual; only cycle detection waits).

Reentrant and thread-safe: the collector comes back on when the last paused section ends, and
only if it was on when the first began (the app's UI thread keeps running meanwhile; it only
defers its collections by that long).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def gc_paused() -> Iterator[None]:
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
