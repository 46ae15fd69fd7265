"""The language-server tests' shared fixtures: a private copy of the demo, and a client that
has started ``flowctx lsp`` on it."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from pytest_lsp import LanguageClient

from flowctx_tui.cli.workspace_args import demo_path
from tests.lsp.client import start_client


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    root = tmp_path / "demo"
    shutil.copytree(demo_path(), root)
    return root


@pytest_asyncio.fixture
async def client(demo: Path) -> AsyncIterator[LanguageClient]:
    lsp, _ = await start_client(demo)
    yield lsp
    await lsp.shutdown_session()
