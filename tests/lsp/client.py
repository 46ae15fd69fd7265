"""The test client every language-server test starts: pytest-lsp's, answering the server's
``client/registerCapability`` as an editor does (the server asks editors that can watch files
to watch the workspace's), with what it was asked added to ``registered`` when given, and
every ``publishDiagnostics`` it receives appended, in order, to ``published`` when given
(pytest-lsp itself keeps only the newest per document)."""

from __future__ import annotations

import sys
from pathlib import Path

from lsprotocol import types
from pygls.protocol import default_converter
from pygls.uris import from_fs_path
from pytest_lsp import LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features


def make_client(
    registered: list[types.Registration] | None = None,
    published: list[types.PublishDiagnosticsParams] | None = None,
) -> LanguageClient:
    features = dict(DEFAULT_CLIENT_FEATURES)
    if published is not None:

        def record(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
            client.diagnostics[params.uri] = params.diagnostics
            published.append(params)

        features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record
    lsp = LanguageClient(converter_factory=default_converter)
    register_lsp_features(lsp, features)
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
    published: list[types.PublishDiagnosticsParams] | None = None,
) -> tuple[LanguageClient, types.InitializeResult]:
    """``flowctx lsp ARGS`` started over stdio and initialised on ``root`` (VS Code's
    capabilities unless told), and the server's answer to ``initialize``."""
    lsp = make_client(registered, published)
    await lsp.start_io(sys.executable, "-m", "flowctx_tui", "lsp", *args)
    result = await lsp.initialize_session(
        types.InitializeParams(
            capabilities=capabilities or client_capabilities("visual-studio-code"),
            root_uri=from_fs_path(str(root)),
        )
    )
    return lsp, result
