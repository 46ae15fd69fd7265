"""The test client every language-server test starts: pytest-lsp's, answering the server's
``client/registerCapability`` as an editor does (the server asks editors that can watch files
to watch the workspace's), with what it was asked added to ``registered`` when given."""

from __future__ import annotations

import sys
from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import LanguageClient, client_capabilities, make_test_lsp_client


def make_client(registered: list[types.Registration] | None = None) -> LanguageClient:
    lsp = make_test_lsp_client()
    asked = registered if registered is not None else []

    @lsp.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(client: LanguageClient, params: types.RegistrationParams) -> None:
        asked.extend(params.registrations)

    return lsp


async def start_client(
    root: Path,
    *args: str,
    capabilities: types.ClientCapabilities | None = None,
    registered: list[types.Registration] | None = None,
) -> tuple[LanguageClient, types.InitializeResult]:
    """``flowctx lsp ARGS`` started over stdio and initialised on ``root`` (VS Code's
    capabilities unless told), and the server's answer to ``initialize``."""
    lsp = make_client(registered)
    await lsp.start_io(sys.executable, "-m", "flowctx_tui", "lsp", *args)
    result = await lsp.initialize_session(
        types.InitializeParams(
            capabilities=capabilities or client_capabilities("visual-studio-code"),
            root_uri=from_fs_path(str(root)),
        )
    )
    return lsp, result
