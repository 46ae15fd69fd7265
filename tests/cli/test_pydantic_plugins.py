"""flowctx, an application, switches pydantic's plugin scan off in its own process, unless the
user's environment sets ``PYDANTIC_DISABLE_PLUGINS``: then pydantic does as that says.

A real plugin distribution (its ``entry_points.txt`` in the ``pydantic`` group, as pydantic
finds plugins) sits on ``PYTHONPATH``; the plugin writes a line to standard error for every
validator pydantic builds, so whether it ran is what the user would see.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.cli.test_cold_imports import PLAIN, ROOT
from tests.conftest import write_tree

PLUGIN = """\
import sys


class Plugin:
    def new_schema_validator(self, schema, schema_type, schema_type_path, *args):
        sys.stderr.write(f"spy plugin saw {schema_type_path.name}\\n")
        return None, None, None


plugin = Plugin()
"""


def run(
    tmp_path: Path, setting: str | None, *, embedded: bool = False
) -> subprocess.CompletedProcess[str]:
    site = write_tree(
        tmp_path / "site",
        {
            "spy_plugin.py": PLUGIN,
            "spy_plugin-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: spy-plugin\n"
            "Version: 1.0\n",
            "spy_plugin-1.0.dist-info/entry_points.txt": "[pydantic]\nspy = spy_plugin:plugin\n",
        },
    )
    ws = write_tree(tmp_path / "ws", {"workflows/W/context_variables.yaml": PLAIN})
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FLOWCTX_", "PYDANTIC_"))}
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT)])
    if setting is not None:
        env["PYDANTIC_DISABLE_PLUGINS"] = setting
    code = "import sys; from flowctx_tui.cli import main; raise SystemExit(main())"
    if embedded:  # a program of the user's that calls main() with its arguments
        code = "import sys; from flowctx_tui.cli import main; raise SystemExit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, "check", str(ws)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_flowctx_does_not_run_installed_pydantic_plugins_by_default(tmp_path: Path) -> None:
    done = run(tmp_path, None)
    assert done.returncode == 0, done.stderr
    assert "ok: 1 workflow" in done.stdout
    assert "spy plugin" not in done.stderr


def test_a_users_explicit_setting_is_what_pydantic_follows(tmp_path: Path) -> None:
    # empty: pydantic loads every plugin; naming another plugin leaves this one on
    for setting in ("", "someone_else"):
        done = run(tmp_path / (setting or "empty"), setting)
        assert done.returncode == 0, done.stderr
        assert "spy plugin saw Definition" in done.stderr, setting
    # naming this one switches it off, as pydantic documents
    done = run(tmp_path / "named", "spy")
    assert done.returncode == 0 and "spy plugin" not in done.stderr


def test_a_program_that_embeds_main_keeps_its_pydantic_as_it_is(tmp_path: Path) -> None:
    done = run(tmp_path, None, embedded=True)
    assert done.returncode == 0, done.stderr
    assert "spy plugin saw Definition" in done.stderr
