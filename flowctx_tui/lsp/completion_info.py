"""What a completion item says about a variable besides its name: its type and where it comes
from (``detail``), and its description, source and readers (``documentation``). Never a value:
not the resolved one, not a default, not an environment variable's content; only names
(the environment variable, the collection, the file) and the author's own description.
"""

from __future__ import annotations

from dataclasses import dataclass

from flowctx_core.base.secrets import is_secret_key, mask_text
from flowctx_core.model.matrix import Matrix, Row

#: the source keys that name where a value is read (never the value itself)
_WHERE = ("env_var", "database_name", "collection", "path", "service", "operation", "computation")


@dataclass(frozen=True)
class VariableInfo:
    detail: str
    documentation: str


def _where(row: Row) -> list[str]:
    source = row.definition.get("source") if isinstance(row.definition, dict) else None
    if not isinstance(source, dict):
        return []
    out = []
    for key in _WHERE:
        named = source.get(key)
        if isinstance(named, str) and named:
            out.append(f"{key}: `{mask_text(named)}`")
    return out


def variable_info(matrix: Matrix | None) -> dict[str, VariableInfo]:
    """Each variable's completion text, by name."""
    if matrix is None:
        return {}
    out: dict[str, VariableInfo] = {}
    for row in matrix.rows:
        secret = row.secret or is_secret_key(row.name)
        detail = f"{row.type} · {row.source}" + (" · secret" if secret else "")
        lines = [f"**{row.name}** · `{row.type}` · {row.source} source"]
        if row.description:
            lines += ["", mask_text(row.description)]
        where = _where(row)
        if where:
            lines += ["", *where]
        lines += ["", f"seen by: {', '.join(row.agents) or 'no agent'}"]
        if secret:
            lines.append("secret: its value is never shown")
        out[row.name] = VariableInfo(detail, "\n".join(lines))
    return out
