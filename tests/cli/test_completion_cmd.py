"""``flowctx completion bash|zsh|fish``: the script, sourced in a real shell, completes what
the installed flowctx's parsers accept (commands, options, choices, files)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from flowctx_tui.cli import COMMANDS, main


def script(shell: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["completion", shell]) == 0
    return capsys.readouterr().out


def complete(script_path: Path, words: list[str], cwd: Path) -> list[str]:
    """What bash offers for the last word of ``flowctx WORDS`` (Tab on it)."""
    line = " ".join(["flowctx", *words])
    array = " ".join(f"'{w}'" for w in ["flowctx", *words])
    program = (
        f"source {script_path}\n"
        f"COMP_LINE='{line}'; COMP_WORDS=({array}); COMP_CWORD={len(words)}\n"
        "_flowctx\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", program],
        capture_output=True, text=True, cwd=cwd, timeout=30, check=True,
    )  # fmt: skip
    return [w for w in done.stdout.splitlines() if w]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completes_commands_options_choices_and_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "flowctx.bash"
    path.write_text(script("bash", capsys))
    (tmp_path / "my-workspace").mkdir()
    (tmp_path / "launch.json").write_text("{}")
    assert complete(path, ["ch"], tmp_path) == ["check"]
    assert set(complete(path, [""], tmp_path)) >= set(COMMANDS) | {"my-workspace"}
    assert complete(path, ["check", "--for"], tmp_path) == ["--format"]
    assert complete(path, ["check", "--format", ""], tmp_path) == [
        "text",
        "json",
        "github",
        "sarif",
    ]
    assert "spec" in complete(path, ["routes", "--runtime", ""], tmp_path)
    assert complete(path, ["routes", "--launch", "la"], tmp_path) == ["launch.json"]
    assert complete(path, ["check", "-w", ""], tmp_path) == []  # a workflow name, not a file
    assert complete(path, ["check", "my-"], tmp_path) == ["my-workspace"]


def test_fish_and_zsh_scripts_name_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    fish = script("fish", capsys)
    for name in COMMANDS:
        assert f"-a {name} " in fish
    assert "-l format -xa 'text json github sarif'" in fish
    zsh = script("zsh", capsys)
    assert "bashcompinit" in zsh and "complete -o filenames -F _flowctx flowctx" in zsh


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_accepts_its_script(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "flowctx.fish"
    path.write_text(script("fish", capsys))
    done = subprocess.run(
        ["fish", "-c", f"source {path}; complete -C 'flowctx ch'"],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("check"), done.stdout


def test_an_unknown_shell_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        main(["completion", "tcsh"])
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice" in err and "'bash', 'zsh', 'fish'" in err
