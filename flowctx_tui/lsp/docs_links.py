"""Where a check code is documented, for a diagnostic's ``codeDescription``: the code's anchor
in the ``flowctx check`` page (``docs/commands/check.md``, ``#code-<code>``) of the
documentation site the installed distribution names (a ``Documentation`` project URL), else of
the documentation beside the package in a checkout; None when neither is known."""

from __future__ import annotations

from functools import cache
from pathlib import Path

#: the check page, under the documentation's root
CHECK_PAGE = ("commands", "check")


def anchor(code: str) -> str:
    """The anchor of ``code`` on the check page (every ``resolve.<type>`` shares one row)."""
    return "code-resolve" if code.startswith("resolve.") else f"code-{code}"


@cache
def _base() -> tuple[str, bool] | None:
    """(the documentation's root, whether it is a site) or None."""
    from importlib.metadata import PackageNotFoundError, metadata

    try:
        meta = metadata("flowctx")
    except PackageNotFoundError:
        meta = None
    for entry in (meta.get_all("Project-URL") or []) if meta is not None else []:
        label, _, url = entry.partition(",")
        url = url.strip()
        if label.strip().lower() in ("documentation", "docs") and url.startswith("https://"):
            return url.rstrip("/"), True
    docs = Path(__file__).resolve().parents[2] / "docs"
    if (docs.joinpath(*CHECK_PAGE[:-1]) / f"{CHECK_PAGE[-1]}.md").is_file():
        return docs.as_uri(), False
    return None


def code_href(code: str) -> str | None:
    """The URL of ``code``'s documentation, or None."""
    from flowctx_core.check import PROBLEM_KINDS

    base = _base()
    if not code or base is None or code not in PROBLEM_KINDS:
        return None  # only a code of check's table has a row to link to
    root, site = base
    page = "/".join(CHECK_PAGE) + ("/" if site else ".md")
    return f"{root}/{page}#{anchor(code)}"
