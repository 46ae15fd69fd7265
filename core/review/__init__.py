"""Review mode: a workspace at a git revision, and what a change does to resolution,
routing and check."""
