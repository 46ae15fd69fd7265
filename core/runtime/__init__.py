"""The runtime's own rules: authority, state triggers, agent exposure, launch values,
injected schema keys, and the checks that depend on the runtime profile."""
