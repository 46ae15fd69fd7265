"""The source types of the context_variables.yaml contract, spelled once.

Kept apart from the pydantic models (``flowctx_core.model.contract``) so that what only needs
the names (the runtime profiles, every command's ``--runtime`` help) does not import pydantic.
"""

from __future__ import annotations

from typing import Final

#: the eight documented source types, in the contract's order
SOURCE_TYPES: Final = (
    "config",
    "data_reference",
    "data_entity",
    "computed",
    "state",
    "external",
    "file",
    "build_context",
)
