"""Widgets of the app. Import the module you need: each pulls in only its own dependencies."""
