"""Where a workspace keeps its files: every file and folder name flowctx reads, spelled once.

``<root>/flowctx.yaml`` (the profile), ``<root>/workflows/<name>/`` with the contract and up to
three routing files, ``<root>/seed/`` (the embedded database), ``<root>/build_context/``
(registries) and ``<root>/.flowctx/scenarios/`` (the scratchpad's saved scenarios).
"""

from __future__ import annotations

from typing import Final

PROFILE_FILE: Final = "flowctx.yaml"
WORKFLOWS_DIR: Final = "workflows"
CONTRACT_FILE: Final = "context_variables.yaml"
FLOW_FILE: Final = "flow.yaml"
TRANSITIONS_FILE: Final = "transition_graph.yaml"
HANDOFFS_FILE: Final = "handoffs.yaml"
#: prompt_middleware entries: which agents the runtime's prompt injection runs for
MIDDLEWARE_FILE: Final = "middleware.yaml"
#: routing file per decision kind, in the order they are loaded and shown
ROUTING_FILES: Final = {
    "flow": FLOW_FILE,
    "transition_graph": TRANSITIONS_FILE,
    "handoffs": HANDOFFS_FILE,
}
#: the files of a workflow folder that the matrix, scratchpad and routes read (and the app
#: watches)
READ_WORKFLOW_FILES: Final = (CONTRACT_FILE, *ROUTING_FILES.values(), MIDDLEWARE_FILE)
#: every file a Mozaiks workflow folder holds: a path to one of them names its workflow
WORKFLOW_FILES: Final = (*READ_WORKFLOW_FILES, "agents.yaml", "orchestrator.yaml", "tools.yaml")
SEED_DIR: Final = "seed"
BUILD_CONTEXT_DIR: Final = "build_context"
#: a build-context registry: ``<build_context>/<name>/context.yaml``
REGISTRY_FILE: Final = "context.yaml"
#: the scratchpad's saved scenarios: ``<root>/.flowctx/scenarios/<workflow>/<name>.json``
SCENARIO_DIR: Final = (".flowctx", "scenarios")
#: ``flowctx test``'s files: ``<root>/.flowctx/tests/*.yaml``, beside the saved scenarios
TESTS_DIR: Final = (".flowctx", "tests")
#: ``flowctx schema KIND``: the kinds of file it describes, each with its file name
SCHEMA_FILES: Final = {
    "contract": CONTRACT_FILE,
    "flow": FLOW_FILE,
    "transitions": TRANSITIONS_FILE,
    "handoffs": HANDOFFS_FILE,
    "registry": REGISTRY_FILE,
}
