"""What each key of the workflow files means, for the JSON Schemas' ``description`` (what an
editor's YAML support shows on hover and beside a completion).

One table by key name, and a second by (model, key) where one name means different things in
different places (``type`` of a variable, of a source, of a step). ``schemas.py`` puts them on
every property; ``tests/core/test_schema_store.py`` proves none is left without one.
"""

from __future__ import annotations

#: (model, key) -> description, where the key alone would be ambiguous
BY_MODEL: dict[tuple[str, str], str] = {
    ("Definition", "type"): (
        "The variable's type: string, boolean, integer, number, object, array or any. Config "
        "values from the environment are coerced to it."
    ),
    ("Definition", "description"): "What the variable holds (documentation only).",
    ("Definition", "source"): "Where the runtime takes the variable's value from: `type` names "
    "the source type, the other keys are that type's.",
    ("Trigger", "type"): (
        "What writes the variable at run time: agent_text (an agent's message matches), "
        "user_text (the user's message matches) or ui_response (a UI tool's response)."
    ),
    ("Trigger", "agent"): "The agent whose messages the agent_text trigger watches.",
    ("Trigger", "tool"): "The UI tool whose response the ui_response trigger reads.",
    ("FlowStep", "type"): "The step's kind (Action, Prompt, Sub-Agent, ...): what it runs.",
    ("FlowStep", "name"): "The step's name; paths name steps by it in `from` and `to`.",
    ("FlowStep", "description"): "What the step does (documentation only).",
    ("FlowStep", "status"): "Active, Pending or Disabled: a path to a step that is not Active "
    "is skipped.",
    ("FlowPath", "condition"): "A JavaScript-like condition over payload, stepResult, "
    "flowContext, data and context; no condition means the path always holds.",
    ("FlowPath", "description"): "What the path is for (documentation only).",
    ("Target", "type"): "The kind of target: AgentTarget, AgentNameTarget, RevertToUserTarget, "
    "TerminateTarget, ... (see the runtime's target types).",
    ("Target", "agent"): "The agent the target hands over to.",
    ("Target", "agents"): "The agents of a target that names several (a nested chat, a group).",
    ("ContractDocument", "agent"): "The agent's name (the older runtime's list form).",
    ("ContractDocument", "agent_name"): "The agent's name (the older runtime's list form).",
    ("ContractDocument", "name"): "The entry's name (the older runtime's list form).",
    ("ContractDocument", "key"): "The variable's name (the older runtime's list form).",
    ("ContractDocument", "variables"): "The variables the agent sees (the older runtime's "
    "list form).",
    ("Asset", "description"): "What the asset holds (documentation only).",
    ("Asset", "kind"): "The asset's kind: catalog, contract or templates.",
    ("Asset", "path"): "The asset's file, relative to the registry's folder.",
    ("Pack", "description"): "What the pack provides (documentation only).",
    ("Pack", "id"): "The pack's id: a safe identifier (letters, digits, `_`, `-`, `.`).",
    ("Pack", "source"): "Where the pack comes from (documentation only).",
    ("Pack", "status"): "active (projected), inactive or archived (left out); null means active.",
    ("PromptProjection", "id"): "The projection's id.",
    ("RegistryModel", "description"): "What the registry provides (documentation only).",
    ("VarProjection", "from"): "A dotted path into the registry's values the variable's value "
    "is read from.",
    ("VarProjection", "default"): "The value used when the path it reads is missing.",
    ("VarProjection", "value"): "A fixed value for the variable.",
    ("HandoffRule", "description"): "What the rule is for (documentation only).",
    ("BriefTransitionRule", "description"): "What the rule is for (documentation only).",
    ("BriefTransitionRule", "source"): "The agent whose turn the rule routes from.",
    ("BriefTransitionRule", "target"): "Where the rule routes to: an agent's name, or a "
    "target mapping.",
}

#: key -> description, wherever it appears
BY_KEY: dict[str, str] = {
    "type": "The source type (config, data_reference, file, state, ...): it says which of "
    "the other keys apply.",
    "description": "What it is for (documentation only).",
    # --- contract: the document ----------------------------------------------------------
    "definitions": "The workflow's context variables, by name.",
    "agents": "Which variables each agent sees, by agent name.",
    "context_variables": "The older runtime's wrapper around the contract's keys.",
    "variables": "The context variables the agent sees in its prompt.",
    # --- a definition --------------------------------------------------------------------
    "model_visible": "Whether the variable may be shown to a model (false keeps it out of "
    "every prompt).",
    "tool_visible": "Whether tools may read the variable.",
    "persisted": "Whether the runtime persists the variable with the chat.",
    "routing": "Whether routing rules read the variable (routing state).",
    "authorization": "Whether the variable is authorization data (never persisted or replayed).",
    "authority_class": "The variable's authority class: who may write it, and whether it is "
    "persisted and replayed.",
    "writer_ids": "The writers the authority policy lets write the variable.",
    "immutable_runtime_authority": "The documented flag for a runtime variable no writer may "
    "change.",
    # --- sources -------------------------------------------------------------------------
    "env_var": "The environment variable the value is read from.",
    "default": "The value used when the source gives none.",
    "required": "Whether a missing value is an error instead of None or the default.",
    "database_name": "The database the collection is in.",
    "collection": "The collection the record is read from.",
    "query_template": "The filter of the lookup: values may name `{{variable}}` or "
    "`{{runtime.app_id}}` placeholders.",
    "fields": "The record's fields kept (one field gives the field's value itself).",
    "search_by": "The key the record is looked up by (app_id unless given).",
    "refresh_strategy": "When the value is read again: once, per_phase or on_demand.",
    "schema": "The entity's document schema.",
    "indexes": "The collection's indexes.",
    "write_strategy": "When the entity's writes reach the database: immediate, "
    "on_phase_transition or on_workflow_end.",
    "computation": "The function that computes the value (never run by flowctx).",
    "inputs": "The variables the computation reads.",
    "output_type": "The type the computation returns.",
    "persist": "Whether the value is persisted.",
    "persist_to": "Where the value is persisted.",
    "service": "The external service the value comes from.",
    "operation": "The service's operation that gives the value.",
    "params": "The operation's parameters.",
    "auth": "How the service is authenticated to.",
    "cache": "How the service's answer is cached.",
    "retry": "How a failed call is retried.",
    "path": "The file, relative to the workspace root.",
    "format": "How the file is read: json, yaml or text.",
    "encoding": "The file's text encoding (utf-8 unless given).",
    "triggers": "What writes the state variable at run time, in order.",
    "match": "What the message must match: equals, contains or regex.",
    "equals": "The whole message, exactly (the trigger writes true, or its value).",
    "contains": "Text the message contains.",
    "regex": "A regular expression the message matches (its first group is the value).",
    "response_key": "The dotted path into the UI tool's response that gives the value.",
    "ui_hidden": "Whether the UI tool's card is hidden from the chat.",
    # --- routing -------------------------------------------------------------------------
    "transition_rules": "The routing rules the runtime reads, in order: the first whose "
    "source matches and whose condition holds wins.",
    "transitions": "The brief form of the routing rules (source, target, condition).",
    "handoff_rules": "The legacy handoff rules (the newest runtime reads "
    "transition_graph.yaml instead).",
    "source_agent": "The agent whose turn the rule routes from.",
    "target_agent": "Where the rule routes to: an agent, `user` or `terminate`.",
    "transition_type": "condition (a condition decides) or after_turn (always, after the "
    "conditions).",
    "condition_type": "How the condition is given: context_equals, context_expression, "
    "tool_called, ... (expression or llm in handoffs).",
    "condition_key": "The context variable a context_equals condition compares.",
    "condition_value": "The value condition_key must equal.",
    "context_expression": "The condition as an expression over `${variable}` names.",
    "condition": "The condition: an expression over `${variable}` names (or the text an llm "
    "condition is decided on).",
    "tool_name": "The tool whose call makes a tool_called condition hold.",
    "transition_target": "The target type the rule hands over with (AgentTarget, "
    "RevertToUserTarget, TerminateTarget, ...).",
    "termination_reason": "Why the run ends when the rule terminates it.",
    "handoff_type": "condition (a condition decides) or after_work (always, after the conditions).",
    "condition_scope": "pre (before the agent replies) or post (after it).",
    # --- flow ----------------------------------------------------------------------------
    "agent": "The flow agent's name.",
    "steps": "The flow's steps: exactly one is the starting step.",
    "paths": "The flow's paths between steps, tried by priority (higher first).",
    "starting": "Whether the flow starts at this step.",
    "from": "The step the path leaves from.",
    "from_context": "A dotted path into the context the variable's value is read from.",
    "from_trigger": "A dotted path into the trigger's payload the value is read from.",
    "from_": "The step the path leaves from (the key's Python spelling).",
    "to": "The step the path leads to.",
    "priority": "The path's priority: paths from a step are tried highest first.",
    # --- build-context registry ----------------------------------------------------------
    "context_id": "The registry's id.",
    "applies_to_workflows": "The workflows the registry is projected into (`*` for all).",
    "assets": "The registry's asset files (catalogs, contracts, templates).",
    "projections": "What the registry projects into context variables and prompts.",
    "pack": "The capability pack the registry belongs to.",
    "capabilities": "The capabilities the registry provides.",
    "facades": "The facades the registry provides.",
    "values": "The registry's values, which projections read by dotted path.",
    "version": "The pack's version.",
    "author": "The pack's author.",
    "license": "The pack's license.",
    "capability_source": "Where the pack's capabilities come from.",
    "required_integrations": "The integrations the pack needs.",
    "deployment_env": "The deployment environments the pack applies to.",
    "display_name": "The pack's name as shown.",
    "records": "The catalog's records the prompt projection renders (patterns unless given).",
    "recipients": "The agents whose prompt receives the projection.",
    "render": "How the records are rendered: selected_record, or a summary.",
    "selected_by": "The dotted path naming the selected record.",
    "record_id_field": "The record's field that identifies it (id unless given).",
    "marker": "Where the projection is inserted in the prompt (a projection without one is "
    "skipped).",
    "heading": "The heading above the projected block.",
}


def describe(model: str, key: str) -> str | None:
    """The description of ``key`` in ``model`` (a model's name, or the file's root)."""
    return BY_MODEL.get((model, key)) or BY_KEY.get(key)
