"""``flowctx lsp``: flowctx's predictions in the author's editor (Language Server Protocol)."""
