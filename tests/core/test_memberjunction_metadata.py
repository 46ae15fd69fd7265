"""Reading MetadataSync files as 5.51.3's push stores them (core/memberjunction/metadata), seen
through ``flowctx check`` and ``routes`` on real files (and the reader for what only it shows)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flowctx_core.memberjunction.agents import open_mj
from flowctx_core.memberjunction.metadata.syncconfig import matches
from flowctx_tui.cli import main
from tests.mj_files import SYNC, agent, path, step, write

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "mj-metadata"


def check_json(capsys: Any, *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["check", *args, "--format", "json"])
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    return code, json.loads(out)


def test_the_corpus_opens_from_the_repository_the_sync_root_or_the_entity_folder(
    capsys: Any,
) -> None:
    flows = [
        "Demo Flow Agent",
        "Betty",
        "BLA",
        "User Onboarding Flow Agent",
        "Schema Documentation Sweep",
        "Content Pipeline",
        "Person Lifecycle Changed",
    ]
    code, doc = check_json(capsys, str(CORPUS))
    assert code == 0 and doc["workflows"] == flows and doc["runtime"] == "memberjunction-5.51.3"
    loop = [a for a in doc["not_flow_agents"] if a["name"] == "Demo Loop Agent"]
    assert loop and loop[0]["reason"].startswith("its type is Loop")
    for sub in (
        "MemberJunction+MJ",
        "MemberJunction+MJ/metadata",
        "MemberJunction+MJ/metadata/agents",
    ):
        _, doc = check_json(capsys, str(CORPUS / sub))
        assert doc["workflows"] == flows[:6]
    _, doc = check_json(capsys, str(CORPUS / "MemberJunction+MJ/metadata/agents/.bla-agent.json"))
    assert doc["workflows"] == ["BLA"]


def test_file_pattern_takes_dot_files_and_folder_defaults_fill_omitted_fields(
    tmp_path: Path, capsys: Any
) -> None:
    root = write(
        tmp_path,
        agent("Typed", [step("S", start=True)]),
        agent("Untyped", [step("S", start=True)], kind=None),
    )
    folder = root / "metadata" / "agents"
    # not matched by **/.*.json: the push never reads it
    (folder / "visible.json").write_text(json.dumps([agent("Never", [step("S", start=True)])]))
    (folder / "sub").mkdir()
    (folder / "sub" / ".deep.json").write_text(json.dumps(agent("Deep", [step("S", start=True)])))
    _, doc = check_json(capsys, str(root))
    assert doc["workflows"] == ["Typed", "Deep"]
    assert [a["name"] for a in doc["not_flow_agents"]] == ["Untyped"]
    assert "folder's default TypeID" in doc["not_flow_agents"][0]["reason"]
    assert matches("**/.*.json", ".a.json") and matches("**/.*.json", "x/y/.a.json")
    assert not matches("**/.*.json", "a.json") and matches("*.{json,txt}", "a.txt")


def test_ignore_directories_and_a_default_status_for_every_step(
    tmp_path: Path, capsys: Any
) -> None:
    sync = dict(SYNC, ignoreDirectories=["drafts"], defaults={"Status": "Pending"})
    root = write(
        tmp_path,
        agent(
            "A",
            [step("One", start=True), step("Two", start=True, Status="Active")],
            kind="Flow",
            status="Active",
        ),
        sync=sync,
    )
    drafts = root / "metadata" / "agents" / "drafts"
    drafts.mkdir()
    (drafts / ".d.json").write_text(json.dumps(agent("Draft", [step("S", start=True)])))
    _, doc = check_json(capsys, str(root))
    assert doc["workflows"] == ["A"]
    # the folder's Status: Pending reaches the steps without their own Status
    code = main(["routes", str(root), "-w", "A", "--format", "json"])
    d = json.loads(capsys.readouterr().out)["decisions"][0]
    assert (code, d["winner"]) == (0, "Two")


def test_paths_at_agent_level_with_both_ends_looked_up_and_nested_sub_agents(
    tmp_path: Path, capsys: Any
) -> None:
    inner = agent("Inner Flow", [step("go", start=True), step("done")])
    inner["relatedEntities"]["MJ: AI Agent Step Paths"] = [
        {
            "fields": {
                "OriginStepID": "@lookup:MJ: AI Agent Steps.Name=GO&AgentID=@parent:ID",
                "DestinationStepID": "@lookup:AI Agent Steps.Name=done&AgentID=@parent:ID",
                "Priority": 1,
            }
        }
    ]
    inner["fields"]["ParentID"] = "@parent:ID"
    outer = agent("Outer", [step("s", start=True)], kind="Loop")
    outer["relatedEntities"]["MJ: AI Agents"] = [inner]
    root = write(tmp_path, outer)
    _, doc = check_json(capsys, str(root))
    assert doc["workflows"] == ["Inner Flow"] and doc["errors"] == 0
    main(["routes", str(root), "-w", "inner flow", "--from", "go", "--format", "json"])
    assert json.loads(capsys.readouterr().out)["decisions"][0]["winner"] == "done"


def test_an_unresolvable_lookup_is_located_in_the_json(tmp_path: Path, capsys: Any) -> None:
    root = write(tmp_path, agent("A", [step("S", start=True, paths=[path("Nowhere")])]))
    code, doc = check_json(capsys, str(root))
    assert code == 1
    p = next(p for p in doc["problems"] if "no record of 'MJ: AI Agent Steps'" in p["message"])
    text = (root / p["file"]).read_text().splitlines()
    assert text[p["line"] - 1][p["column"] - 1 :].startswith(
        '"@lookup:MJ: AI Agent Steps.Name=Nowhere'
    )


def test_lookup_create_is_understood_and_parent_without_a_parent_fails(
    tmp_path: Path, capsys: Any
) -> None:
    p = path("x")
    p["fields"]["DestinationStepID"] = "@lookup:MJ: AI Agent Steps.Name=Made?create&Status=Active"
    bad = agent("B", [step("S", start=True)])
    bad["fields"]["Description"] = "@parent:Name"
    bad["fields"]["IconClass"] = "@root:Name"
    root = write(tmp_path, agent("A", [step("S", start=True, paths=[p])]), bad)
    ws = open_mj(root)
    ws.flows["B"]
    messages = [d.message for d in ws.problems()]
    assert any("the push would create one" in m for m in messages)
    res = ws.meta.resolver
    rec = next(r for r in res.records if r.key == "ai agents" and r.fields["Name"].value == "B")
    res.value(rec, "Description")
    res.value(rec, "IconClass")
    messages = [d.format() for d in res.problems]
    assert any("@parent:Name: no parent record" in m for m in messages)
    assert any("@root:Name: 5.51.3's push has no root record" in m for m in messages)


def test_file_references_read_from_the_entity_folder_and_env_from_the_inputs(
    tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    monkeypatch.setenv("FLOW_COND", "true")  # the process's environment is never read
    cond_step = step(
        "S",
        start=True,
        paths=[path("T", "@file:conditions/go.txt", 5), path("E", "@env:FLOW_COND", 1)],
    )
    root = write(tmp_path, agent("A", [cond_step, step("T"), step("E")]), file="sub/.a.json")
    folder = root / "metadata" / "agents"
    (folder / "conditions").mkdir()
    (folder / "conditions" / "go.txt").write_text("payload.go === true")
    (folder / "sub" / "conditions").mkdir()
    (folder / "sub" / "conditions" / "go.txt").write_text("false")  # beside the file: not read
    main(
        [
            "routes",
            str(root),
            "-w",
            "A",
            "--from",
            "S",
            "--payload",
            '{"go": true}',
            "--format",
            "json",
        ]
    )
    out, err = capsys.readouterr()
    d = json.loads(out)["decisions"][0]
    assert d["candidates"][0]["condition"] == "payload.go === true" and d["winner"] == "T"
    assert "@env:FLOW_COND: environment variable FLOW_COND is not set in the inputs" in err
    main(
        [
            "routes",
            str(root),
            "-w",
            "A",
            "--from",
            "S",
            "--env",
            "FLOW_COND=true",
            "--format",
            "json",
        ]
    )
    d = json.loads(capsys.readouterr().out)["decisions"][0]
    assert d["winner"] == "E"


def test_include_composes_records_only_when_the_file_names_include(
    tmp_path: Path, capsys: Any
) -> None:
    folder = tmp_path / "metadata" / "agents"
    folder.mkdir(parents=True)
    (folder / ".mj-sync.json").write_text(json.dumps(SYNC))
    (folder / "parts").mkdir()
    (folder / "parts" / "fields.json").write_text(
        json.dumps({"TypeID": "@lookup:MJ: AI Agent Types.Name=Flow", "Status": "Disabled"})
    )
    (folder / "parts" / "steps.json").write_text(json.dumps([step("S", start=True)]))
    rec = {
        "fields": {"Name": "Inc", "@include": "parts/fields.json", "Status": "Active"},
        "relatedEntities": {"MJ: AI Agent Steps": ["@include:parts/steps.json"]},
    }
    (folder / ".inc.json").write_text(json.dumps([rec]))
    _, doc = check_json(capsys, str(tmp_path))
    assert doc["workflows"] == ["Inc"]
    main(["routes", str(tmp_path), "-w", "Inc", "--format", "json"])
    d = json.loads(capsys.readouterr().out)["decisions"][0]
    assert d["winner"] == "S"  # the including object's Status: Active wins over the file's


def test_bad_json_is_a_located_problem_not_a_traceback(tmp_path: Path, capsys: Any) -> None:
    root = write(tmp_path, agent("A", [step("S", start=True)]))
    (root / "metadata" / "agents" / ".broken.json").write_text('[{"fields": {"Name": "X",}}]')
    code, doc = check_json(capsys, str(root))
    assert code == 1 and doc["workflows"] == ["A"]
    p = next(p for p in doc["problems"] if p["file"].endswith(".broken.json"))
    assert (p["line"], p["column"]) == (1, 26)


def test_a_loose_record_file_without_sync_configuration_is_read(
    tmp_path: Path, capsys: Any
) -> None:
    loose = tmp_path / "bla.json"
    loose.write_text((CORPUS / "MemberJunction+MJ/metadata/agents/.bla-agent.json").read_text())
    _, doc = check_json(capsys, str(loose))
    assert doc["workflows"] == ["BLA"]
    assert any("no .mj-sync.json names" in p["message"] for p in doc["problems"])
    other = tmp_path / "other.json"
    other.write_text('{"fields": {"Name": "not an agent"}}')
    assert main(["check", str(other)]) == 2  # not MJ metadata: the Mozaiks rule says why
    assert "is a file, not a workspace" in capsys.readouterr().err


def test_a_type_id_written_as_mjs_own_flow_type_id_is_a_flow_agent(
    tmp_path: Path, capsys: Any
) -> None:
    by_id = agent("ById", [step("S", start=True)], kind=None)
    by_id["fields"]["TypeID"] = "4f6a189b-c068-4736-9f23-3ff540b40fdd"
    root = write(tmp_path, by_id)
    _, doc = check_json(capsys, str(root))
    assert doc["workflows"] == ["ById"]


def test_without_path_the_current_folder_is_mj_only_when_it_holds_the_metadata(
    tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    import shutil

    repo = tmp_path / "repo"
    shutil.copytree(CORPUS / "MemberJunction+MJ", repo)
    monkeypatch.chdir(repo)
    _, doc = check_json(capsys)
    assert doc["runtime"] == "memberjunction-5.51.3" and "BLA" in doc["workflows"]
    # metadata buried deeper than a repository's metadata/agents/ is not picked up unasked
    deep = tmp_path / "elsewhere" / "a" / "b"
    shutil.copytree(CORPUS / "MemberJunction+MJ", deep)
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert main(["check", "--format", "json"]) == 2
    captured = capsys.readouterr()
    assert "no workspace at or above the current directory" in captured.err


def test_a_nested_step_without_its_agent_id_is_a_located_problem(
    tmp_path: Path, capsys: Any
) -> None:
    orphan = step("Lost", start=True)
    del orphan["fields"]["AgentID"]
    root = write(tmp_path, agent("A", [orphan, step("Kept", start=True)]))
    code, doc = check_json(capsys, str(root))
    assert code == 1
    assert any("step 'Lost' has no AgentID" in p["message"] for p in doc["problems"])
    main(["routes", str(root), "-w", "A", "--format", "json"])
    assert json.loads(capsys.readouterr().out)["decisions"][0]["winner"] == "Kept"


def test_where_the_readme_and_the_push_differ_flowctx_warns(tmp_path: Path, capsys: Any) -> None:
    cond_step = step(
        "S",
        start=True,
        paths=[path("T", "@file:go.txt", 5)],
        Description="@template:templates/desc.md",
    )
    root = write(tmp_path, agent("A", [cond_step, step("T")]), file="sub/.a.json")
    folder = root / "metadata" / "agents"
    (folder / "go.txt").write_text("true")
    (folder / "sub" / "go.txt").write_text("false")
    (folder / "sub" / ".mj-folder.json").write_text('{"defaults": {"Status": "Disabled"}}')
    _, doc = check_json(capsys, str(root))
    said = [p["message"] for p in doc["problems"]]
    assert any(
        "reads this relative to the entity folder (a different file there)" in m for m in said
    )
    assert any(
        ".mj-folder.json defaults, but 5.51.3's push does not find this file" in m for m in said
    )
    main(["routes", str(root), "-w", "A", "--from", "S", "--format", "json"])
    assert json.loads(capsys.readouterr().out)["decisions"][0]["winner"] == "T"
