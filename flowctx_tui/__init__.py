"""flowctx's Textual app and command-line interface, thin layers over ``core``."""
