"""What a source resolver receives and returns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flowctx_core.model.contract import Definition
from flowctx_core.model.fallbacks import Fallbacks
from flowctx_core.model.inputs import ResolveInputs
from flowctx_core.model.matrix import Status, TraceStep
from flowctx_core.model.workspace import WorkflowSnapshot

if TYPE_CHECKING:
    from flowctx_core.buildctx.projected import BuildContextProjection


@dataclass(frozen=True)
class FileContent:
    """What one ``file`` source found, read once when the snapshot was taken.

    ``refusal`` when the path was refused before reading; otherwise ``shown`` (the path as
    displayed) with the parsed ``value``, or the ``problem`` that stopped reading or parsing.
    ``watched`` holds the paths a change to which changes this content (as written, and after
    symlinks).
    """

    refusal: str | None = None
    shown: str = ""
    value: Any = None
    problem: str | None = None
    watched: tuple[Path, ...] = ()
    #: the file is not there or a loop of links (the runtime then uses the default), or one
    #: flowctx will not read (a device, a FIFO, over the size bound: the default stands in);
    #: any other problem reading or parsing it is an exception the loader catches: None
    missing: bool = False


#: the key a snapshot files a source's content under: the same file read the same way
FileKey = tuple[str, str, str]


@dataclass(frozen=True)
class SourceContext:
    name: str
    definition: Definition
    workflow: WorkflowSnapshot
    inputs: ResolveInputs
    #: values resolved so far in declaration order, plus launch values (for {{var.path}})
    values: Mapping[str, Any]
    fallbacks: Fallbacks
    #: variables whose values are secret (masked wherever a trace quotes them)
    secret_names: frozenset[str] = frozenset()
    #: the ``file`` sources' contents, read when the snapshot was taken
    files: Mapping[FileKey, FileContent] = field(default_factory=dict)
    #: what build context projects into this workflow (for ``build_context`` sources)
    projection: BuildContextProjection | None = None
    #: the launch's runtime context (for ``runtime`` sources), None when none was supplied
    runtime_context: Mapping[str, Any] | None = None

    @property
    def source(self) -> Any:
        return self.definition.source

    @property
    def type_name(self) -> str:
        return self.definition.canonical_type


@dataclass
class Resolved:
    value: Any
    status: Status
    origin: str
    trace: list[TraceStep] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error: str | None = None
