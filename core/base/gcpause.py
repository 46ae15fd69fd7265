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

Third-party code that makes cyclic garbage runs under ``gc_resumed`` inside a paused section:
a database query (montydb builds a tree of linked walkers for every document it filters) left
every cycle it made alive until resolution ended, 1.6 GB for 100 queries over 5,000 documents.

A process that ends when its one command does (``flowctx matrix``, ``check``...) calls
``keep_until_exit()``: what a paused section leaves alive is the workspace it read, kept until
the process exits, so it is frozen (``gc.freeze``) when the collector comes back on, instead of
walked by every later collection: at 6,930 variables those walks were a fifth of ``flowctx
matrix``, and they grew with the workspace (the first collection after a pause visits every
object the pause let pile up). Cycles made afterwards are collected as usual, and so are those
a ``gc_resumed`` block made (collected as it ends: only they are young then, and the next
freeze would keep them). The app, the server and the language server, which load workspaces
again and again, never call it.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_was_enabled = False
#: blocks under ``gc_resumed`` running now (any thread)
_resumed = 0
#: freeze what is alive when the collector comes back on (see the module's docstring)
_keep_until_exit = False


def keep_until_exit() -> None:
    """This process ends with its command: objects alive when a pause ends are frozen."""
    global _keep_until_exit
    _keep_until_exit = True


def _enable() -> None:
    if _keep_until_exit:
        gc.freeze()
    gc.enable()


@contextmanager
def gc_paused() -> Iterator[None]:
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            if not _resumed:
                gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                _enable()


@contextmanager
def gc_resumed() -> Iterator[None]:
    """The collector as it was before any pause, for the block: on, if it was on."""
    global _resumed
    with _lock:
        _resumed += 1
        if _depth and _was_enabled:
            _enable()
    try:
        yield
    finally:
        with _lock:
            _resumed -= 1
            if _depth and not _resumed:
                if _keep_until_exit and _was_enabled:
                    # the cycles the block made, collected now: what is young was made in the
                    # block (the rest was frozen on entry), and the next entry would freeze it
                    gc.collect(1)
                gc.disable()
