"""flowctx's shared resolution core: pure Python, no UI imports, no global state.

The environment, launch values and database are explicit inputs, so every caller (the CLI,
the Textual app, tests) can override them without touching the process.
"""
