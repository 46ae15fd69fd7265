"""A first workspace, as ``flowctx init`` writes it: the smallest one mozaiks 0.2.0 discovers and
loads, and that ``flowctx check`` passes with no problem.

One workflow folder with ``orchestrator.yaml`` (what the runtime's discovery looks for, strict:
``schema_version`` mozaiks.orchestrator.v1, ``workflow_name`` equal to the folder, a known
``workflow_startup_mode``), ``agents.yaml`` (the only place the runtime takes agents from), a
small contract with one variable of each everyday source (config, data_reference, state), a
transition graph that routes on the state variable, one seed document the data_reference reads
from the embedded database, and two ``flowctx test`` cases. The files are text, written by the
caller.
"""

from __future__ import annotations

import re
from typing import Final

from flowctx_core.model.filenames import (
    CONTRACT_FILE,
    PROFILE_FILE,
    SEED_DIR,
    TESTS_DIR,
    TRANSITIONS_FILE,
    WORKFLOWS_DIR,
)
from flowctx_core.model.workflow_files import AGENTS_FILE, ORCHESTRATOR_FILE

DEFAULT_WORKFLOW: Final = "Hello"
#: the agent whose turn ``flowctx routes --from`` is first tried on
FIRST_AGENT: Final = "GreeterAgent"
#: a folder name every file system, the runtime's discovery and a Python identifier accept
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")


class BadWorkflowName(ValueError):
    """A workflow name ``init`` will not make a folder of."""


def check_workflow_name(name: str) -> str:
    if not _NAME.fullmatch(name):
        raise BadWorkflowName(
            "a workflow name is a letter then letters, digits or '_' (at most 64), e.g. Hello"
        )
    return name


def scaffold(workflow: str = DEFAULT_WORKFLOW, runtime: str | None = None) -> dict[str, str]:
    """Each file of the first workspace (a path relative to its root, '/'-separated) -> its
    text. ``runtime``: a profile name written as flowctx.yaml's ``runtime:`` (default: none,
    so the default profile applies)."""
    name = check_workflow_name(workflow)
    folder = f"{WORKFLOWS_DIR}/{name}"
    profile = _PROFILE
    if runtime:
        profile += f"# the runtime flowctx judges these files against\nruntime: {runtime}\n"
    return {
        PROFILE_FILE: profile,
        f"{folder}/{ORCHESTRATOR_FILE}": _ORCHESTRATOR.format(name=name),
        f"{folder}/{AGENTS_FILE}": _AGENTS,
        f"{folder}/{CONTRACT_FILE}": _CONTRACT,
        f"{folder}/{TRANSITIONS_FILE}": _TRANSITIONS,
        f"{SEED_DIR}/default/apps.json": _APPS,
        "/".join((*TESTS_DIR, f"{name.lower()}.yaml")): _TESTS.format(name=name),
    }


_PROFILE = """\
# flowctx's profile of this workspace: the environment and launch values flowctx assumes when it
# resolves the workflows (your shell's environment and the app's overrides win over these).
env:
  GREETING_STYLE: friendly
launch:
  app_id: app-hello
  user_id: user-ada
  chat_id: chat-0001
"""

_ORCHESTRATOR = """\
# What the runtime discovers a workflow by. workflow_name must equal the folder's name.
schema_version: mozaiks.orchestrator.v1
workflow_name: {name}
workflow_startup_mode: AgentDriven
initial_agent: GreeterAgent
"""

_AGENTS = """\
agents:
  - name: GreeterAgent
    system_message: Welcome the user to the app, then say GREETED on a line of its own.
    structured_outputs_required: false
  - name: HelperAgent
    system_message: Answer the user's question.
    structured_outputs_required: false
"""

_CONTRACT = """\
# The context variables: where each value comes from, and which agents see it.
definitions:
  greeting_style:
    type: string
    description: From the environment (flowctx.yaml gives it here).
    source:
      type: config
      env_var: GREETING_STYLE
  app_name:
    type: string
    description: Read from the database "default" (seed/default/apps.json in flowctx).
    source:
      type: data_reference
      database_name: default
      collection: apps
      query_template:
        app_id: "{{runtime.app_id}}"
      fields: [display_name]
  greeted:
    type: boolean
    description: Set when GreeterAgent says exactly GREETED; the transition graph routes on it.
    source:
      type: state
      default: false
      triggers:
        - type: agent_text
          agent: GreeterAgent
          match:
            equals: GREETED
agents:
  GreeterAgent:
    variables: [app_name, greeting_style]
  HelperAgent:
    variables: [app_name, greeted]
"""

_TRANSITIONS = """\
# Who speaks next: the first rule of an agent that holds wins.
transition_rules:
  - source_agent: GreeterAgent
    target_agent: HelperAgent
    transition_type: condition
    condition_type: context_equals
    condition_key: greeted
    condition_value: true
  - source_agent: GreeterAgent
    target_agent: user
    transition_type: after_turn
  - source_agent: HelperAgent
    target_agent: terminate
    transition_type: after_turn
"""

_APPS = """\
[
  {"app_id": "app-hello", "display_name": "Hello World"}
]
"""

_TESTS = """\
# flowctx test cases: each names its inputs and what the runtime should do (`flowctx test`).
workflow: {name}
cases:
  - name: once the greeter has said GREETED, the helper takes over
    context: {{greeted: true}}
    expect:
      route: {{from: GreeterAgent, to: HelperAgent}}
  - name: until then the greeter hands back to the user, who sees the app's name
    expect:
      route: {{from: GreeterAgent, to: user}}
      values: {{app_name: Hello World}}
      prompt: {{agent: GreeterAgent, contains: "APP_NAME: Hello World"}}
"""
