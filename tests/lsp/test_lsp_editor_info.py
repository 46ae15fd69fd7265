"""What the editor shows beside the answers, through a real ``flowctx lsp``: each diagnostic's
code links to its documentation (``codeDescription``), and a variable's completion item says
its type and source, never a value (a secret's least of all)."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pygls.uris import to_fs_path
from pytest_lsp import LanguageClient

from flowctx_core.check import PROBLEM_KINDS
from tests.lsp.test_lsp_server import SECRET, change, diagnostics_for, line_of, open_doc

CONTRACT = "workflows/AppGenerator/context_variables.yaml"
GRAPH = "workflows/AppGenerator/transition_graph.yaml"
TOKEN = "tok-live-4242424242"


async def test_every_coded_diagnostic_links_to_its_codes_documentation(
    client: LanguageClient, demo: Path
) -> None:
    doc = open_doc(client, demo, CONTRACT)
    found = await diagnostics_for(client, doc, lambda d: len(d) >= 2, "the contract's problems")
    coded = [d for d in found if d.code]
    assert coded
    for d in coded:
        assert d.code_description is not None, d
        href = d.code_description.href
        page, _, anchor = href.partition("#")
        expected = "code-resolve" if str(d.code).startswith("resolve.") else f"code-{d.code}"
        assert anchor == expected
        # the page is there and holds the anchor (the checkout's docs, in tests)
        text = Path(to_fs_path(page) or "").read_text(encoding="utf-8")
        assert f'id="{anchor}"' in text
    # and every code of check has its anchor on the page
    text = Path(to_fs_path(coded[0].code_description.href.partition("#")[0]) or "").read_text()
    for code in PROBLEM_KINDS:
        wanted = "code-resolve" if code.startswith("resolve.") else f"code-{code}"
        assert f'<a id="{wanted}"></a>' in text, code


async def test_a_variables_completion_says_its_type_and_source_never_a_value(
    client: LanguageClient, demo: Path
) -> None:
    contract = demo / CONTRACT
    contract.write_text(
        contract.read_text().replace(
            "  openai_api_key:\n",
            "  service_token:\n"
            "    type: string\n"
            "    description: A token the tools use.\n"
            f"    source: {{type: state, default: {TOKEN}}}\n"
            "  openai_api_key:\n",
        )
    )
    text = (demo / GRAPH).read_text()
    doc = open_doc(client, demo, GRAPH)
    row = line_of(text, "${plan_approved} and")
    typed = text.splitlines()
    typed[row] = '    context_expression: "${'
    change(client, doc, "\n".join(typed) + "\n", 2)
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=types.Position(line=row, character=len(typed[row])),
        )
    )
    items = {i.label: i for i in (result.items if result else [])}  # type: ignore[union-attr]
    key, token, factory = items["openai_api_key"], items["service_token"], items["factory_name"]
    assert key.detail == "string · config · secret"
    assert token.detail == "string · state · secret"
    assert factory.detail == "string · config"

    def said(item: types.CompletionItem) -> str:
        doc = item.documentation
        return (item.detail or "") + (doc.value if isinstance(doc, types.MarkupContent) else "")

    assert "env_var: `OPENAI_API_KEY`" in said(key) and "never shown" in said(key)
    assert "A token the tools use." in said(token)
    assert "seen by: InterviewAgent" in said(factory)
    for item in items.values():
        assert SECRET not in said(item) and TOKEN not in said(item), item.label
    # nor any other value: factory_name's default is a value too
    assert "Mozaiks App Factory" not in said(factory)
