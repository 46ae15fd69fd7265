"""Regenerate the docs' language-server screenshots (``screenshots/lsp-*.svg``): a real
Neovim (0.10 or newer, on PATH or given with --nvim) in a tmux window, set up with the very
snippet docs/editors-ci.md shows, on a copy of the bundled demo with one typo, then the pane
as the terminal shows it, colours included, written as SVG (Rich, as the app's screenshots).

Run ``python scripts/lsp_screenshots.py [--nvim PATH] [--out DIR]``: the hover on a variable
(its resolved value, masked where secret, every fallback and who sees it) and the diagnostics
of a broken line.
"""

from __future__ import annotations

import argparse
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.text import Text  # noqa: E402

from flowctx_tui.cli.workspace_args import demo_path  # noqa: E402

COLUMNS, ROWS = 110, 30
CONTRACT = "workflows/AppGenerator/context_variables.yaml"


def snippet() -> str:
    text = (ROOT / "docs" / "editors-ci.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- neovim-snippet -->\n```lua\n(.*?)```", text, re.S)
    if found is None:
        raise SystemExit("docs/editors-ci.md has no Neovim snippet")
    return found.group(1)


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=True).stdout


def wait_for(session: str, needle: str, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        shown = tmux("capture-pane", "-t", session, "-p")
        if needle in shown:
            return shown
        if time.monotonic() > deadline:
            raise SystemExit(f"lsp screenshots: {needle!r} never showed:\n{shown}")
        time.sleep(0.2)


def svg(session: str, title: str, path: Path) -> None:
    ansi = tmux("capture-pane", "-t", session, "-p", "-e")
    console = Console(record=True, width=COLUMNS, force_terminal=True, color_system="truecolor")
    console.print(Text.from_ansi(ansi.rstrip("\n")), end="")
    path.write_text(console.export_svg(title=title), encoding="utf-8")
    print(f"wrote {path}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--nvim", default=shutil.which("nvim"), help="Neovim 0.10 or newer")
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    args = parser.parse_args()
    if not args.nvim or shutil.which("tmux") is None:
        raise SystemExit("lsp screenshots: needs Neovim (--nvim) and tmux")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "demo"
        shutil.copytree(demo_path(), work)
        contract = work / CONTRACT
        text = contract.read_text(encoding="utf-8")
        # one typo for the diagnostics picture
        contract.write_text(text.replace("type: integer", "type: integr", 1), encoding="utf-8")
        init = Path(tmp) / "init.lua"
        init.write_text(
            "vim.o.number = true\nvim.o.signcolumn = 'yes'\nvim.o.termguicolors = true\n"
            "vim.diagnostic.config({ virtual_text = true })\n" + snippet(),
            encoding="utf-8",
        )
        line = next(
            i for i, row in enumerate(contract.read_text().splitlines(), 1)
            if row.strip() == "max_build_iterations:"
        )  # fmt: skip
        env = f"PATH={shlex.quote(str(Path(sys.executable).parent))}:$PATH TERM=xterm-256color"
        session = "flowctx-lsp-shots"
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True, check=False)
        command = (
            f"cd {shlex.quote(str(work))} && env {env} XDG_STATE_HOME={shlex.quote(tmp)} "
            f"{shlex.quote(args.nvim)} --clean -u {shlex.quote(str(init))} +{line} "
            f"-c {shlex.quote('normal! zt')} {CONTRACT}"
        )
        tmux("new-session", "-d", "-s", session, "-x", str(COLUMNS), "-y", str(ROWS), command)
        try:
            wait_for(session, "unknown type")
            args.out.mkdir(parents=True, exist_ok=True)
            svg(session, "flowctx lsp: diagnostics in Neovim", args.out / "lsp-diagnostics.svg")
            tmux("send-keys", "-t", session, "^", "w")  # onto the variable's name
            tmux("send-keys", "-t", session, "K")
            wait_for(session, "max_build_iterations")
            time.sleep(1.0)
            svg(session, "flowctx lsp: hover in Neovim", args.out / "lsp-hover.svg")
        finally:
            subprocess.run(
                ["tmux", "kill-session", "-t", session], capture_output=True, check=False
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
