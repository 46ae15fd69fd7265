"""Ground helpers every floor may use: located diagnostics, YAML with marks, JSON text,
nesting bounds, path confinement, secrets, coercion, bounded regexes."""
