"""Where a workspace keeps its files: every file and folder name flowctx reads, spelled once.

``<root>/flowctx.yaml`` (the profile), ``<root>/workflows/<name>/`` with the contract and up to
three routing files, ``<root>/seed/`` (the embedded database) and ``<root>/build_context/``
(registries).
"""

from __future__ import annotations

from typing import Final

PROFILE_FILE: Final = "flowctx.yaml"
WORKFLOWS_DIR: Final = "workflows"
CONTRACT_FILE: Final = "context_variables.yaml"
FLOW_FILE: Final = "flow.yaml"
TRANSITIONS_FILE: Final = "transition_graph.yaml"
HANDOFFS_FILE: Final = "handoffs.yaml"
#: routing file per decision kind, in the order they are loaded and shown
ROUTING_FILES: Final = {
    "flow": FLOW_FILE,
    "transition_graph": TRANSITIONS_FILE,
    "handoffs": HANDOFFS_FILE,
}
#: the files of a workflow folder that the matrix, scratchpad and routes read
WORKFLOW_FILES: Final = (CONTRACT_FILE, *ROUTING_FILES.values())
SEED_DIR: Final = "seed"
BUILD_CONTEXT_DIR: Final = "build_context"
