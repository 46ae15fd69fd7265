# One gate, the one CI runs: `make check` runs, in your virtual environment, what .ci/run runs
# once it has set up a fresh one (tests/test_habits.py keeps the two lists equal).
# Set up once: python -m venv .venv && . .venv/bin/activate && pip install -e '.[test,docs]'

.PHONY: check fix

check:
	python -m pytest -n 2 -q
	ruff check .
	ruff format --check .
	lint-imports
	mypy flowctx_core flowctx_tui
	mkdocs build --strict

# what ruff can put right by itself (the lint's safe fixes, then the format)
fix:
	ruff check --fix .
	ruff format .
