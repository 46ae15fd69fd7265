"""Package attributes imported on first use (PEP 562 module ``__getattr__``).

Reading routing files happens in every snapshot, but their models and the expression engines
are only needed once a workflow has routing files: a package re-exports such names lazily, so
``flowctx check`` on a plain workspace does not pay for importing them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_getattr(package: str, names: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` serving each of ``names`` (name -> module),
    imported when first asked for and then kept in the package's namespace."""

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        vars(importlib.import_module(package))[name] = value
        return value

    return __getattr__
