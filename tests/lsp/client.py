"""The test client every language-server test starts: pytest-lsp's, answering the server's
``client/registerCapability`` as an editor does (the server asks editors that can watch files
to watch the workspace's), with what it was asked added to ``registered`` when given."""

from __future__ import annotations

from lsprotocol import types
from pytest_lsp import LanguageClient, make_test_lsp_client


def make_client(registered: list[types.Registration] | None = None) -> LanguageClient:
    lsp = make_test_lsp_client()
    asked = registered if registered is not None else []

    @lsp.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(client: LanguageClient, params: types.RegistrationParams) -> None:
        asked.extend(params.registrations)

    return lsp
