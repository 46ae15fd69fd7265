"""Outputs of a check or a resolution: SARIF, GitHub annotations, display-ready values
and the JSON Schemas of the workflow files."""
