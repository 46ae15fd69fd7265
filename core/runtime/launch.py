"""Launch/runtime values: what the caller passes when it starts a run (mozaiks 0.2.0,
``mozaiksai/core/session/launcher.py``).

Identity keys (app_id, user_id, chat_id, workflow_name) are always accepted; other keys only
when the workflow declares them. String values over 64 KB are dropped and at most 50 keys are
accepted. Every dropped key comes back with its reason so the app and CLI can show it.

The launch trigger payload (what started the run, read by build-context ``from_trigger``
projections) is not a context value: callers pass it under the reserved key ``$trigger``, which
no variable can be named, and it is set aside before the limits apply. The runtime context (what
a host supplies for ``type: runtime`` sources, mozaiks 0.2.0) travels the same way under
``$runtime_context``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from flowctx_core.model.inputs import RUNTIME_CONTEXT_KEY

IDENTITY_KEYS = ("app_id", "user_id", "chat_id", "workflow_name")
MAX_KEYS = 50
MAX_STRING_BYTES = 64 * 1024
TRIGGER_KEY = "$trigger"


@dataclass(frozen=True)
class LaunchAdmission:
    admitted: dict[str, Any]
    dropped: tuple[tuple[str, str], ...]  # (key, reason)
    #: the launch trigger payload (``$trigger``), when one was passed as a JSON object
    trigger: Mapping[str, Any] | None = None
    #: the runtime context (``$runtime_context``), when one was passed as a JSON object
    runtime_context: Mapping[str, Any] | None = None

    @property
    def notes(self) -> tuple[str, ...]:
        return tuple(f"launch value '{k}' dropped: {why}" for k, why in self.dropped)


def admit_launch(launch: Mapping[str, Any], declared: Iterable[str]) -> LaunchAdmission:
    declared_set: set[str] | None = None  # built when a launch value needs it
    admitted: dict[str, Any] = {}
    dropped: list[tuple[str, str]] = []
    trigger: Mapping[str, Any] | None = None
    runtime_context: Mapping[str, Any] | None = None
    for key, value in launch.items():
        key = str(key)
        if key == RUNTIME_CONTEXT_KEY:
            if isinstance(value, Mapping):
                runtime_context = value
            else:
                dropped.append((key, "the runtime context must be a JSON object"))
            continue
        if key == TRIGGER_KEY:
            if isinstance(value, Mapping):
                trigger = value
            else:
                dropped.append((key, "the trigger payload must be a JSON object"))
            continue
        if declared_set is None:
            declared_set = set(declared)
        if key not in IDENTITY_KEYS and key not in declared_set:
            dropped.append((key, "not a declared variable of this workflow"))
            continue
        if isinstance(value, str) and len(value.encode("utf-8")) > MAX_STRING_BYTES:
            dropped.append((key, f"string value over {MAX_STRING_BYTES // 1024} KB"))
            continue
        if len(admitted) >= MAX_KEYS:
            dropped.append((key, f"more than {MAX_KEYS} launch keys"))
            continue
        admitted[key] = value
    return LaunchAdmission(admitted, tuple(dropped), trigger, runtime_context)
