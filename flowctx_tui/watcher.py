"""Watching a workspace for the files that change what flowctx shows (watchfiles).

Editors save by writing a temporary file and renaming it over the original, which the watcher
sees as a delete plus an add of the real name (the temporary name is filtered out), so every
kind of change to a relevant path counts, and a file that is briefly missing is tolerated by
the reload (it only ever marks the view stale).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Iterable
from pathlib import Path

from flowctx_core.model.filenames import (
    BUILD_CONTEXT_DIR,
    PROFILE_FILE,
    READ_WORKFLOW_FILES,
    SEED_DIR,
    TESTS_DIR,
    WORKFLOWS_DIR,
)

#: Folders under the root whose whole content matters.
TREES = frozenset({BUILD_CONTEXT_DIR, SEED_DIR})
#: How long the watcher waits for a burst of changes to go quiet before reporting (ms). A
#: change is reported one to two steps after it lands, so this is most of save-to-screen; a
#: burst that pauses longer than a step costs one more reload, which the app folds into the
#: one running.
STEP_MS = 5
#: The longest it gathers a continuous burst before reporting anyway (ms).
DEBOUNCE_MS = 400
#: How often the watching thread looks at the stop event when nothing happens (ms).
RUST_TIMEOUT_MS = 500
#: How often a workspace folder that went away is looked for again (s).
ROOT_POLL_S = 0.25


def _junk(name: str) -> bool:
    """Editor and OS leftovers (swap, backup, lock and temp files)."""
    return (
        name.startswith((".#", ".~"))
        or name.endswith(("~", ".swp", ".swx", ".tmp", ".part"))
        or name in {"4913", ".DS_Store"}
    )


class WorkspaceFilter:
    """``watch_filter`` for watchfiles: is this path one the app reloads for?

    ``extra`` holds the files found by the last reload (fallbacks file, ``file`` sources);
    the app replaces it after every reload.
    """

    def __init__(self, root: Path, extra: Iterable[Path] = ()) -> None:
        self.root = Path(os.path.realpath(root))
        self.extra: frozenset[Path] = frozenset(Path(os.path.normpath(p)) for p in extra)

    def __call__(self, change: object, path: str) -> bool:
        return self.relevant(Path(path))

    def relevant(self, path: Path) -> bool:
        path = Path(os.path.normpath(path))
        if path in self.extra:
            return True
        try:
            parts = path.relative_to(self.root).parts
        except ValueError:
            return False
        if not parts:
            return True  # the workspace folder itself: deleted or moved away
        if _junk(parts[-1]):
            return False
        if parts[0] in TREES:
            return True
        if parts[: len(TESTS_DIR)] == TESTS_DIR and len(parts) == len(TESTS_DIR) + 1:
            return parts[-1].endswith((".yaml", ".yml"))  # flowctx test's files: the Tests tab
        if len(parts) == 1:
            # the profile, or the files of a lone workflow folder used as the root
            return parts[0] == PROFILE_FILE or parts[0] in READ_WORKFLOW_FILES
        if parts[0] == WORKFLOWS_DIR:
            # a workflow folder appearing or going away, or one of its files
            return len(parts) == 2 or (len(parts) == 3 and parts[2] in READ_WORKFLOW_FILES)
        return False

    def watch_paths(self) -> tuple[Path, ...]:
        """The root, plus the folders of extra files that live outside it."""
        outside = set()
        for p in self.extra:
            try:
                p.relative_to(self.root)
            except ValueError:
                if p.parent.is_dir():
                    outside.add(p.parent)
        return (self.root, *sorted(outside))


async def watch(
    filter_: WorkspaceFilter, stop: asyncio.Event, *, step_ms: int = STEP_MS
) -> AsyncIterator[set[Path]]:
    """Yield the set of relevant paths that changed, burst by burst, until ``stop`` is set.

    Each time watching starts, one batch is yielded as soon as it is known to be running (an
    empty set if nothing changed), so that a save made before that moment is not missed.

    The workspace folder itself may go away (deleted, moved, a branch switch): the OS watch
    dies with it and would report nothing ever again. So once a burst leaves the folder
    missing, the folder is polled for until it is back, then ``{root}`` is yielded (reload
    everything) and watching starts afresh.
    """
    from watchfiles import awatch

    root = filter_.root
    while not stop.is_set():
        if not root.is_dir():
            while not root.is_dir():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), ROOT_POLL_S)
                if stop.is_set():
                    return
            yield {root}
        ready = False
        try:
            async for changes in awatch(
                *filter_.watch_paths(),
                watch_filter=filter_,
                step=step_ms,
                debounce=DEBOUNCE_MS,
                stop_event=stop,
                rust_timeout=RUST_TIMEOUT_MS,
                yield_on_timeout=True,  # the first quiet period says: the OS watch is set up
            ):
                if not changes and ready:
                    continue
                # the first batch, even empty, means "watching now": whatever was saved before
                # the OS watch existed is caught by the reload this batch causes
                ready = True
                yield {Path(path) for _change, path in changes}
                if not root.is_dir():
                    break
            else:
                return  # stopped
        except FileNotFoundError:
            continue  # the folder went away as watching started: wait for it
