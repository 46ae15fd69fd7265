"""``flowctx graph`` on MemberJunction agents: the edges each step's 5.51.3 decision takes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flowctx_tui.cli import main

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "mj-metadata"


def test_graph_marks_what_each_step_takes_on_the_corpus(capsys: Any) -> None:
    code = main(
        [
            "graph",
            str(CORPUS),
            "-w",
            "Demo Flow Agent",
            "--format",
            "mermaid",
            "--payload",
            '{"stockPrice": 700}',
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "runtime memberjunction-5.51.3" in out
    taken = [line for line in out.splitlines() if "==>" in line]
    assert any("Get_NVIDIA" in line and "Get_Weather" in line for line in taken)
    assert not any("Web_Search" in line.split("==>")[1] for line in taken if "NVIDIA" in line)


def test_graph_text_shows_steps_that_fail_once_entered(capsys: Any) -> None:
    code = main(["graph", str(CORPUS), "-w", "Schema Documentation Sweep", "--width", "120"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Unknown step type: Human" in out
    assert "Prompt loop bodies not yet fully supported" in out


def test_graph_from_a_step_keeps_what_it_reaches(capsys: Any) -> None:
    assert (
        main(
            [
                "graph",
                str(CORPUS),
                "-w",
                "Content Pipeline",
                "--from",
                "Draft the piece",
                "--format",
                "dot",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "Research: broad" not in out and "Close out: gave up" in out
