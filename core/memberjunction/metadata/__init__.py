"""MetadataSync (``mj sync``) files read as 5.51.3's push stores them."""

from flowctx_core.memberjunction.metadata.workspace import (
    Metadata,
    agent_folders,
    is_metadata,
    load_metadata,
)

__all__ = ["Metadata", "agent_folders", "is_metadata", "load_metadata"]
