"""``file`` sources: confinement to the workspace root, secret files refused, formats,
encodings, and required versus default."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from flowctx_core.base.pathsafety import confine
from flowctx_core.model.matrix import Matrix, Row
from flowctx_core.session import open_session
from tests.conftest import WriteWorkspace


def file_var(name: str, path: str, extra: str = "", type_: str = "object") -> str:
    return f"  {name}:\n    type: {type_}\n    source: {{type: file, path: '{path}'{extra}}}\n"


def run(
    workspace: WriteWorkspace,
    *defs: str,
    files: dict[str, Any] | None = None,
    env: dict[str, str] | None = None,
    runtime: str | None = None,
) -> tuple[Path, Matrix]:
    text = "definitions:\n" + "".join(defs) + "agents: {}\n"
    root = workspace({"workflows/W/context_variables.yaml": text, **(files or {})})
    return root, open_session(root, env=env or {}, runtime=runtime).matrix("W")


def row(m: Matrix, name: str) -> Row:
    r = m.row(name)
    assert r is not None, name
    return r


def steps(r: Row) -> list[tuple[str, str]]:
    return [(s.step, s.outcome) for s in r.trace]


def test_json_is_the_default_format(workspace: WriteWorkspace) -> None:
    _, m = run(
        workspace,
        file_var("policy", "data/policy.json", ", default: {}"),
        files={"data/policy.json": {"limit": 5, "tags": ["a"]}},
    )
    r = row(m, "policy")
    assert (r.value, r.status, r.origin) == (
        {"limit": 5, "tags": ["a"]},
        "resolved",
        "data/policy.json",
    )
    assert steps(r) == [("file", "used"), ("default", "shadowed")]
    assert r.trace[0].detail == "data/policy.json (json)"


def test_yaml_and_text_formats(workspace: WriteWorkspace) -> None:
    _, m = run(
        workspace,
        file_var("rules", "data/rules.yaml", ", format: yaml"),
        file_var("prompt", "data/prompt.md", ", format: text", "string"),
        files={
            "data/rules.yaml": "max: 3\nallowed: [a, b]\n",
            "data/prompt.md": "# Hello\n\nBe brief.\n",
        },
    )
    assert row(m, "rules").value == {"max": 3, "allowed": ["a", "b"]}
    assert row(m, "prompt").value == "# Hello\n\nBe brief.\n"
    assert row(m, "prompt").trace[0].detail == "data/prompt.md (text)"


def test_the_declared_encoding_is_used(workspace: WriteWorkspace) -> None:
    _, m = run(
        workspace,
        file_var("latin", "data/latin.txt", ", format: text, encoding: latin-1", "string"),
        file_var("wrong", "data/latin.txt", ", format: text, default: fallback", "string"),
        file_var("bogus", "data/latin.txt", ", format: text, encoding: klingon", "string"),
        files={"data/latin.txt": "café crème".encode("latin-1")},
    )
    assert row(m, "latin").value == "café crème"
    wrong = row(m, "wrong")
    # mozaiks 0.2.0 decodes inside the loader's try: the failure is logged and the value is
    # None, the default unused
    assert (wrong.value, wrong.status) == (None, "missing")
    assert wrong.warnings == ("data/latin.txt: not valid utf-8 text at byte 3",)
    assert row(m, "bogus").warnings == ("data/latin.txt: unknown encoding 'klingon'",)


def test_a_symlink_inside_the_root_is_followed(workspace: WriteWorkspace) -> None:
    root = workspace({"data/real.json": {"ok": True}})
    (root / "data" / "link.json").symlink_to(root / "data" / "real.json")
    _, m = run(workspace, file_var("p", "data/link.json"))
    r = row(m, "p")
    assert r.value == {"ok": True}
    assert r.origin == "data/real.json"  # provenance names the real file


def refusal_cases(root: Path, outside: Path) -> dict[str, str]:
    """Each refusal: a path as an author would write it -> words the refusal must contain."""
    (outside / "secret.json").write_text('{"leak": true}', encoding="utf-8")
    (root / "data").mkdir(exist_ok=True)
    (root / "data" / "escape.json").symlink_to(outside / "secret.json")
    (root / "certs").mkdir(exist_ok=True)
    (root / "certs" / "server.pem").write_text("-----BEGIN-----", encoding="utf-8")
    (root / "data" / "innocent.json").symlink_to(root / "certs" / "server.pem")
    for name in (".env", ".env.production", "id.key", "cert.pfx", "bundle.p12"):
        (root / name).write_text("SECRET=1", encoding="utf-8")
    rel_out = os.path.relpath(outside / "secret.json", root)
    return {
        rel_out: "resolves outside the workspace root",
        "data/../../x.json": "resolves outside the workspace root",
        str(outside / "secret.json"): "resolves outside the workspace root",
        "data/escape.json": "resolves outside the workspace root through a symlink",
        ".env": "environment secrets file",
        ".env.production": "environment secrets file",
        "config/.ENV.local": "environment secrets file",
        "certs/server.pem": "secret-file suffix .pem",
        "id.key": "secret-file suffix .key",
        "cert.pfx": "secret-file suffix .pfx",
        "bundle.p12": "secret-file suffix .p12",
        "data/innocent.json": "secret-file suffix .pem (through a symlink)",
    }


def test_each_refusal(workspace: WriteWorkspace, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    root = workspace({})
    cases = refusal_cases(root, outside)
    defs = [file_var(f"v{i}", path, ", default: {safe: true}") for i, path in enumerate(cases)]
    _, m = run(workspace, *defs)
    for i, (path, words) in enumerate(cases.items()):
        r = row(m, f"v{i}")
        assert (r.value, r.status) == ({"safe": True}, "default"), path
        assert steps(r) == [("file", "error"), ("default", "used")], path
        assert words in r.trace[0].detail, (path, r.trace[0].detail)
        assert "refused" in r.warnings[0]
        assert "leak" not in repr(r.value)


def test_refusals_of_a_required_variable(workspace: WriteWorkspace, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.json").write_text("{}", encoding="utf-8")
    _, m = run(
        workspace,
        file_var("keys", "server.pem", ", required: true"),
        file_var("away", str(outside / "x.json"), ", required: true"),
        files={"server.pem": "x"},
    )
    for name in ("keys", "away"):
        # mozaiks 0.2.0 raises inside its loader's try: logged, None, and the run goes on
        r = row(m, name)
        assert r.status == "missing" and r.value is None and r.error is None
        assert r.warnings[0].startswith("required file: ")
        assert "the value is None and the run goes on" in r.warnings[0]
        assert steps(r) == [("file", "error"), ("required", "missing")]
    _, m = run(
        workspace,
        file_var("keys", "server.pem", ", required: true"),
        file_var("away", str(outside / "x.json"), ", required: true"),
        files={"server.pem": "x"},
        runtime="spec",
    )
    for name in ("keys", "away"):
        # the documented contract: a required file that cannot be read is an error
        r = row(m, name)
        assert r.status == "error" and r.value is None
        assert r.error is not None and r.error.startswith("required file: ")
        assert steps(r) == [("file", "error"), ("required", "error")]


def test_allow_outside_root_reads_outside_but_never_secret_files(
    workspace: WriteWorkspace, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "shared.json").write_text('{"from": "outside"}', encoding="utf-8")
    (outside / "prod.env").write_text("A=1", encoding="utf-8")
    (outside / ".env").write_text("A=1", encoding="utf-8")
    root = workspace({})
    rel = os.path.relpath(outside / "shared.json", root)
    env = {"CONTEXT_FILE_ALLOW_OUTSIDE_ROOT": "true"}
    _, m = run(
        workspace,
        file_var("rel", rel),
        file_var("absolute", str(outside / "shared.json")),
        file_var("secret", str(outside / ".env"), ", default: refused"),
        env=env,
    )
    assert row(m, "rel").value == {"from": "outside"}
    assert row(m, "absolute").value == {"from": "outside"}
    assert row(m, "absolute").origin == str((outside / "shared.json").resolve())
    assert row(m, "secret").value == "refused"


def test_dot_dot_that_stays_inside_is_fine(workspace: WriteWorkspace) -> None:
    _, m = run(
        workspace,
        file_var("p", "data/../data/p.json"),
        files={"data/p.json": [1, 2]},
    )
    assert row(m, "p").value == [1, 2]
    assert row(m, "p").origin == "data/p.json"


def test_required_and_missing_is_none_in_the_release_and_an_error_as_documented(
    workspace: WriteWorkspace,
) -> None:
    defs = file_var("p", "data/absent.json", ", required: true, default: {}")
    r = row(run(workspace, defs)[1], "p")
    assert (r.status, r.value, r.error) == ("missing", None, None)
    assert r.warnings[0].startswith("required file: data/absent.json: file not found")
    r = row(run(workspace, defs, runtime="spec")[1], "p")
    assert r.status == "error" and r.value is None
    assert r.error == "required file: data/absent.json: file not found"


def test_not_required_and_missing_uses_the_default_with_a_warning(
    workspace: WriteWorkspace,
) -> None:
    _, m = run(
        workspace,
        file_var("with_default", "data/absent.json", ", default: {mode: safe}"),
        file_var("without", "data/absent.json"),
    )
    r = row(m, "with_default")
    assert (r.value, r.status, r.origin) == ({"mode": "safe"}, "default", "default")
    assert r.warnings == ("data/absent.json: file not found",)
    none = row(m, "without")
    assert (none.value, none.status) == (None, "missing")
    assert steps(none) == [("file", "error"), ("default", "missing")]
    assert none.warnings == ("data/absent.json: file not found",)


@pytest.mark.parametrize(
    ("content", "fmt", "problem"),
    [
        ('{"a": 1,,}', "json", "invalid JSON at 1:9"),
        ("a: [1\n", "yaml", "invalid YAML"),
        ("a: !!python/object/apply:os.system [x]\n", "yaml", "invalid YAML"),
    ],
)
def test_invalid_content_is_none_as_the_release_reads_it(
    workspace: WriteWorkspace, content: str, fmt: str, problem: str
) -> None:
    defs = (
        file_var("soft", f"data/bad.{fmt}", f", format: {fmt}, default: 0"),
        file_var("hard", f"data/bad.{fmt}", f", format: {fmt}, required: true"),
    )
    files = {f"data/bad.{fmt}": content}
    _, m = run(workspace, *defs, files=files)
    soft, hard = row(m, "soft"), row(m, "hard")
    # mozaiks 0.2.0 parses inside the loader's try: the value is None, the default unused,
    # and a required one does not stop the run either
    assert (soft.value, soft.status) == (None, "missing")
    assert problem in soft.warnings[0]
    assert (hard.value, hard.status) == (None, "missing") and problem in hard.warnings[0]
    # the documented contract falls back to the default, and a required one is an error
    _, m = run(workspace, *defs, files=files, runtime="spec")
    assert (row(m, "soft").value, row(m, "soft").status) == (0, "default")
    hard = row(m, "hard")
    assert hard.status == "error" and problem in (hard.error or "")


def test_a_directory_is_not_a_file(workspace: WriteWorkspace) -> None:
    _, m = run(workspace, file_var("p", "data", ", default: 1"), files={"data/x.json": {}})
    assert row(m, "p").warnings == ("data: is a directory",)


def test_confine_reports_the_real_path(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "b.json").write_text("{}", encoding="utf-8")
    real, refusal = confine(tmp_path, "a/./b.json", allow_outside=False)
    assert refusal is None and real == (tmp_path / "a" / "b.json").resolve()
    real, refusal = confine(tmp_path, "../elsewhere.json", allow_outside=False)
    assert real is None and refusal is not None
    assert "CONTEXT_FILE_ALLOW_OUTSIDE_ROOT=true" in refusal


def test_a_symlink_loop_is_a_refusal_not_a_hang(workspace: WriteWorkspace) -> None:
    root = workspace({})
    (root / "loop_a").symlink_to(root / "loop_b")
    (root / "loop_b").symlink_to(root / "loop_a")
    _, m = run(workspace, file_var("p", "loop_a", ", default: 0"))
    r = row(m, "p")
    assert (r.value, r.status) == (0, "default")
    assert r.trace[0].outcome == "error"


def test_content_and_default_are_coerced_to_the_declared_type(workspace: WriteWorkspace) -> None:
    # mozaiks 0.2.0 _resolve_file_source passes what it read, and the default, to _coerce_value
    _, m = run(
        workspace,
        file_var("count", "data/count.txt", ", format: text", "integer"),
        file_var("flag", "data/flag.txt", ", format: text", "boolean"),
        file_var("fallback", "data/absent.txt", ", format: text, default: '3'", "integer"),
        file_var("word", "data/word.txt", ", format: text", "integer"),
        files={"data/count.txt": "0", "data/flag.txt": "yes\n", "data/word.txt": "many"},
    )
    assert (row(m, "count").value, row(m, "flag").value) == (0, True)
    assert row(m, "fallback").value == 3
    word = row(m, "word")
    assert word.value == "many"
    assert "cannot coerce 'many' to integer; the raw value is kept" in word.warnings
    # the older runtime's profile keeps the text as it was read
    _, m = run(
        workspace,
        file_var("count", "data/count.txt", ", format: text", "integer"),
        files={"data/count.txt": "0"},
        runtime="spec",
    )
    assert row(m, "count").value == "0"
