"""Agent exposure: what each agent sees, and the text the runtime adds to its prompt (mozaiks
0.2.0, ``mozaiksai/core/workflow/context/context_utils.py``).

Before every model call the runtime appends one line per exposed variable to the agent's base
prompt, ``NAME_IN_UPPER_CASE: value``, rendered from live state: ``None`` as ``None``, booleans
as ``true``/``false``, anything else through ``str()``. Build-context catalog projections insert
blocks at markers (rendered by ``flowctx_core.buildctx.render_prompt_projections``).

Decisions where the spec is silent (also in docs/commands/prompt.md):

- A name in ``agents.<A>.variables`` that is not declared is never rendered (the runtime never
  exposes undeclared variables); neither are ``build_context`` variables (build-context values
  are tool-only, never model-visible) nor definitions with ``model_visible: false``. The preview
  lists each one it withholds with the reason.
- Secret values (a secret-looking name, a row marked secret) show as ``***`` unless revealed;
  secret-keyed entries and URI passwords inside other values are masked the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flowctx_core.base.secrets import MASK, is_secret_key, mask_text, mask_value
from flowctx_core.buildctx import (
    BuildContextProjection,
    PromptBlock,
    build_context_setting,
    render_prompt_projections,
)
from flowctx_core.model.matrix import Matrix
from flowctx_core.model.profiles import RuntimeProfile
from flowctx_core.model.workspace import VariableSpec, WorkflowSnapshot


def format_prompt_value(value: Any) -> str:
    """A value as the runtime writes it into the prompt."""
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def withheld_reason(spec: VariableSpec | None, runtime: RuntimeProfile | None = None) -> str | None:
    """Why the runtime never shows this variable to a model, or None when it may (without a
    runtime: whether the variable is meant to stay out of prompts, as documented)."""
    if runtime is not None and runtime.prompt_exposure == "none":
        return (
            f"runtime {runtime.name} appends no variable block to prompts (its agent factory "
            "applies exposures only when the loader sets them, which it never does)"
        )
    if spec is None:
        return "not declared in definitions: the runtime never exposes undeclared variables"
    d = spec.definition
    raw_source = spec.raw.get("source") if isinstance(spec.raw, dict) else None
    stype = (
        d.source.type
        if d is not None
        else (raw_source.get("type") if isinstance(raw_source, dict) else None)
    )
    if runtime is not None and runtime.prompt_exposure == "all_listed":
        # the agent factory renders every listed variable, model_visible not consulted
        return None
    if stype == "build_context":
        return "build-context values are tool-only, never shown to the model"
    if d is not None and d.model_visible is False:
        return "declared model_visible: false"
    return None


def exposed_variables(workflow: WorkflowSnapshot, agent: str) -> list[str]:
    """The variables whose lines the runtime renders for ``agent``, in the listed order."""
    out: list[str] = []
    for name in workflow.agents.get(agent, ()):
        if name not in out and withheld_reason(workflow.variable(name), workflow.runtime) is None:
            out.append(name)
    return out


@dataclass(frozen=True)
class PromptLine:
    name: str
    text: str
    masked: bool


@dataclass(frozen=True)
class AgentPrompt:
    """What one agent's prompt gains before a model call, as the runtime would render it."""

    workflow: str
    agent: str
    lines: tuple[PromptLine, ...]
    #: (variable, why it is not rendered)
    withheld: tuple[tuple[str, str], ...]
    #: blocks inserted at markers by build-context prompt projections
    blocks: tuple[PromptBlock, ...]
    notes: tuple[str, ...]

    @property
    def context_text(self) -> str:
        """The exact block appended to the base prompt."""
        return "\n".join(line.text for line in self.lines)

    @property
    def text(self) -> str:
        """Every inserted block, then the appended block, separated by blank lines."""
        parts = [b.text for b in self.blocks]
        if self.lines:
            parts.append(self.context_text)
        return "\n\n".join(parts)


def _line(name: str, value: Any, secret: bool, reveal: bool) -> PromptLine:
    raw = format_prompt_value(value)
    if reveal:
        return PromptLine(name, f"{name.upper()}: {raw}", False)
    if secret and value is not None:
        return PromptLine(name, f"{name.upper()}: {MASK}", True)
    text = mask_text(format_prompt_value(mask_value(value)))
    return PromptLine(name, f"{name.upper()}: {text}", text != raw)


def agent_prompt(
    workflow: WorkflowSnapshot,
    matrix: Matrix,
    agent: str,
    *,
    env: Mapping[str, str],
    values: Mapping[str, Any] | None = None,
    reveal: bool = False,
    projection: BuildContextProjection | None = None,
) -> AgentPrompt:
    """The prompt additions of ``agent``.

    ``values`` are the live values (default: the matrix's load values, e.g. after a simulated
    trigger); ``env`` decides build context for a matrix built by hand; ``projection`` (default: the
    matrix's) names the admitted registries.
    """
    live = dict(matrix.values if values is None else values)
    lines: list[PromptLine] = []
    withheld: list[tuple[str, str]] = []
    # the list is de-duplicated before rendering (mozaiks 0.2.0, context/schema.py
    # ContextAgentView: dedupe_strings), so a name listed twice is one line
    for name in dict.fromkeys(workflow.agents.get(agent, ())):
        why = withheld_reason(workflow.variable(name), workflow.runtime)
        if why is not None:
            withheld.append((name, why))
            continue
        row = matrix.row(name)
        secret = bool(row and row.secret) or is_secret_key(name)
        lines.append(_line(name, live.get(name), secret, reveal))

    notes: list[str] = []
    # a selector (``selected_by``) reading a secret variable must not show its value
    secret_names = frozenset(r.name for r in matrix.rows if r.secret) | {
        n for n in live if is_secret_key(n)
    }
    if projection is None and isinstance(matrix.build_context, BuildContextProjection):
        projection = matrix.build_context
    if projection is None:
        # a matrix built by hand, not by resolve(): build context did nothing for it
        projection = BuildContextProjection(build_context_setting(env, Path(matrix.workspace)))
    setting = projection.setting
    blocks: list[PromptBlock] = []
    if workflow.runtime.sources.prompt_via_middleware:
        from flowctx_core.buildctx.injection import runtime_injection

        injected = runtime_injection(
            projection.injection, agent, live, reveal=reveal, secret_names=secret_names
        )
        blocks = [PromptBlock(m, text, src) for m, text, src in injected.blocks]
        notes.extend(injected.notes)
    elif not setting.enabled:
        notes.append(f"no prompt projections: {setting.describe()}")
    elif setting.root is None:
        notes.append(f"no prompt projections: {setting.root_reason}")
    else:
        blocks, proj_notes = render_prompt_projections(
            projection.admitted, agent, live, reveal=reveal, secret_names=secret_names
        )
        notes.extend(proj_notes)
    return AgentPrompt(
        workflow.name, agent, tuple(lines), tuple(withheld), tuple(blocks), tuple(notes)
    )
