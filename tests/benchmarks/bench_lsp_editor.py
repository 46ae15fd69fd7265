"""Benchmark: the language server's editor features (outline, workspace symbols, references,
prepareRename + rename) on the demo and on a 3,000-variable contract, against parsing the
contract with the YAML reader flowctx uses (``parse_yaml_text``), measured in the same run.

Run ``python tests/benchmarks/bench_lsp_editor.py [--repeat 10]``. A real client (pytest-lsp)
starts ``flowctx lsp`` over stdio, opens the contract and times each request from sending it to
its answer. The first request after opening parses the files; the medians show the requests
after it (the text unchanged, as while an author navigates).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import client_capabilities

from flowctx_core.base.yamlmarks import parse_yaml_text
from flowctx_tui.cli.workspace_args import demo_path
from tests.benchmarks.bench_lsp import big_workspace
from tests.lsp.client import make_client


async def timings(root: Path, rel: str, needle: str, repeat: int) -> dict[str, list[float]]:
    client = make_client()
    await client.start_io(sys.executable, "-m", "flowctx_tui", "lsp")
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=from_fs_path(str(root)),
        )
    )
    text = (root / rel).read_text()
    uri = from_fs_path(str((root / rel).resolve())) or ""
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)
        )
    )
    rows = text.splitlines()
    line = next(n for n, r in enumerate(rows) if r.startswith(needle))
    at = types.Position(line=line, character=len(needle) - 2)
    ident = types.TextDocumentIdentifier(uri=uri)
    requests: dict[str, Any] = {
        "outline": lambda: client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=ident)
        ),
        "workspace symbol": lambda: client.workspace_symbol_async(
            types.WorkspaceSymbolParams(query="v1")
        ),
        "references": lambda: client.text_document_references_async(
            types.ReferenceParams(
                text_document=ident,
                position=at,
                context=types.ReferenceContext(include_declaration=False),
            )
        ),
        "prepareRename": lambda: client.text_document_prepare_rename_async(
            types.PrepareRenameParams(text_document=ident, position=at)
        ),
        "rename": lambda: client.text_document_rename_async(
            types.RenameParams(text_document=ident, position=at, new_name="renamed_variable")
        ),
    }
    await asyncio.sleep(0.5)  # the first check of the opened file
    out: dict[str, list[float]] = {name: [] for name in requests}
    for name, request in requests.items():
        await request()  # the first: the files are read
        for _ in range(repeat):
            start = time.perf_counter()
            answer = await request()
            out[name].append(time.perf_counter() - start)
            if answer is None:
                raise RuntimeError(f"{name} answered nothing")
    await client.shutdown_session()
    return out


def baseline(path: Path, repeat: int) -> float:
    text = path.read_text()
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        parse_yaml_text(text, path.name)
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        demo = Path(tmp) / "demo"
        shutil.copytree(demo_path(), demo)
        big = big_workspace(Path(tmp) / "big", 3000)
        for name, root, rel, needle in (
            ("demo", demo, "workflows/AppGenerator/context_variables.yaml", "  llm_model:"),
            ("3,000 variables", big, "workflows/Big/context_variables.yaml", "  v1:"),
        ):
            base = baseline(root / rel, args.repeat)
            found = asyncio.run(timings(root, rel, needle, args.repeat))
            print(f"{name}: parsing the contract alone {base * 1000:.1f} ms")
            for request, times in found.items():
                med = statistics.median(times)
                print(
                    f"  {request:>17}: {med * 1000:7.1f} ms median (max {max(times) * 1000:7.1f});"
                    f" ratio to the parse {med / base:5.2f}x"
                )


if __name__ == "__main__":
    main()
