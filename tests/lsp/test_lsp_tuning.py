"""The language server publishes what ``flowctx check`` lists after the workspace's tuning:
a code ``checks:`` ignores and a line an ignore comment covers are not published."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path

from flowctx_tui.cli.workspace_args import demo_path
from tests.lsp.client import start_client

CONTRACT = "workflows/AppGenerator/context_variables.yaml"


async def test_ignored_codes_and_lines_are_not_published(tmp_path: Path) -> None:
    root = tmp_path / "demo"
    shutil.copytree(demo_path(), root)
    profile = root / "flowctx.yaml"
    profile.write_text(profile.read_text() + "\nchecks:\n  authority.silent-trigger: ignore\n")
    lsp, _ = await start_client(root)
    try:
        path = root / CONTRACT
        text = path.read_text().replace(
            "      path: data/release_notes.md\n",
            "      path: data/release_notes.md  # flowctx: ignore[resolve.file]\n",
        )
        doc = from_fs_path(str(path.resolve())) or ""
        lsp.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=doc, language_id="yaml", version=1, text=text
                )
            )
        )
        for _ in range(300):
            found = lsp.diagnostics.get(doc)
            if found is not None:
                break
            await asyncio.sleep(0.1)
        assert found is not None, "no diagnostics published"
        published = {d.code for d in found}
        # the config default's warning is still there; the ignored ones are not
        assert "runtime.config-default" in published, published
        assert "authority.silent-trigger" not in published
        assert "resolve.file" not in published
    finally:
        await lsp.shutdown_session()
