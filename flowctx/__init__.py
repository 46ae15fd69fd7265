"""``python -m flowctx``: the ``flowctx`` command by its project's name. The code is in
``flowctx_tui`` (the app and the CLI) and ``flowctx_core`` (the UI-free core)."""
