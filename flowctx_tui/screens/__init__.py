"""Modal screens of the app: help, workflow picker, environment overrides, launch values."""
