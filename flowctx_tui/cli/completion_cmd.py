"""``flowctx completion bash|zsh|fish``: a shell completion script, written from the very
parsers ``flowctx`` reads its arguments with, so it offers exactly the commands, options and
choices the installed version has.

The script is static: pressing Tab runs no Python (a completion that starts an interpreter
on every key is the one users notice). Commands, each command's options, the choices of an
option that has them (``--format``, ``--runtime``, ``--dialect``...), and file or folder names
where a command reads a PATH or a file.
"""

from __future__ import annotations

import argparse
import shlex
from dataclasses import dataclass

SHELLS = ("bash", "zsh", "fish")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shell", metavar="SHELL", choices=SHELLS, help="bash, zsh or fish")


@dataclass(frozen=True)
class _Option:
    flags: tuple[str, ...]
    takes_value: bool
    choices: tuple[str, ...]
    help: str
    #: its value names a file (a FILE or PATH metavar, or JSON that may be given as @FILE)
    files: bool


def _commands() -> dict[str, tuple[str, list[_Option]]]:
    """Each command's help and options, read from its parser."""
    from flowctx_tui.cli import COMMANDS, build_parser

    out: dict[str, tuple[str, list[_Option]]] = {}
    for name, (_, help_) in COMMANDS.items():
        _, parser = build_parser(name)
        options = []
        for action in parser._actions:  # argparse has no public list of its actions
            if not action.option_strings:
                continue
            choices = tuple(str(c) for c in action.choices or ())
            if "--runtime" in action.option_strings and not choices:
                from flowctx_core.model.profile_names import ALIASES, NAMES

                choices = (*NAMES, *ALIASES)  # checked when the workspace opens, not by argparse
            metavar = str(action.metavar or "")
            options.append(
                _Option(
                    tuple(action.option_strings),
                    action.nargs != 0,
                    choices,
                    (action.help or "").split("(")[0].strip()[:70],
                    any(word in metavar for word in ("FILE", "PATH", "DIR")),
                )
            )
        out[name] = (help_, options)
    return out


def bash_script() -> str:
    commands = _commands()
    names = " ".join(commands)
    cases: list[str] = []
    values: list[str] = []
    for name, (_, options) in commands.items():
        flags = " ".join(f for o in options for f in o.flags)
        cases.append(f"    {name}) opts={shlex.quote(flags)} ;;")
        for o in options:
            if o.takes_value:
                pattern = "|".join(f"{name}:{f}" for f in o.flags)
                words = " ".join(o.choices)
                if o.choices:
                    reply = f'COMPREPLY=($(compgen -W {shlex.quote(words)} -- "$cur"))'
                elif o.files:
                    reply = 'COMPREPLY=($(compgen -f -- "$cur"))'
                else:
                    reply = "COMPREPLY=()"  # a name or a value: nothing to offer
                values.append(f"    {pattern}) {reply}; return ;;")
    return "\n".join(
        [
            "# flowctx completion for bash: source it, or save it as",
            "# ~/.local/share/bash-completion/completions/flowctx",
            "_flowctx() {",
            '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"',
            f'  local commands="{names}" cmd="" opts="" w',
            '  for w in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do',
            '    case " $commands " in *" $w "*) cmd="$w"; break ;; esac',
            "  done",
            '  if [[ -z "$cmd" ]]; then',
            '    if [[ "$cur" == -* ]]; then',
            '      COMPREPLY=($(compgen -W "--help --version --workflow" -- "$cur"))',
            "    else",
            '      COMPREPLY=($(compgen -W "$commands" -- "$cur") $(compgen -d -- "$cur"))',
            "    fi",
            "    return",
            "  fi",
            '  case "$cmd:$prev" in',
            *values,
            "  esac",
            '  case "$cmd" in',
            *cases,
            "  esac",
            '  if [[ "$cur" == -* ]]; then',
            '    COMPREPLY=($(compgen -W "$opts" -- "$cur"))',
            "  else",
            '    COMPREPLY=($(compgen -f -- "$cur"))',
            "  fi",
            "}",
            "complete -o filenames -F _flowctx flowctx",
            "",
        ]
    )


def zsh_script() -> str:
    # zsh runs bash's completion functions through bashcompinit: one script to keep right
    return "\n".join(
        [
            "# flowctx completion for zsh: source it from ~/.zshrc (after compinit)",
            "autoload -U +X bashcompinit && bashcompinit",
            bash_script(),
        ]
    )


def fish_script() -> str:
    commands = _commands()
    names = " ".join(commands)
    lines = [
        "# flowctx completion for fish: save it as ~/.config/fish/completions/flowctx.fish",
        "complete -c flowctx -f",
    ]
    for name, (help_, _) in commands.items():
        lines.append(
            f"complete -c flowctx -n 'not __fish_seen_subcommand_from {names}' "
            f"-a {shlex.quote(name)} -d {shlex.quote(help_)}"
        )
    for name, (_, options) in commands.items():
        when = f"-n '__fish_seen_subcommand_from {name}'"
        lines.append(f"complete -c flowctx {when} -F")
        for o in options:
            parts = [f"complete -c flowctx {when}"]
            for f in o.flags:
                parts.append(f"-l {f[2:]}" if f.startswith("--") else f"-s {f[1:]}")
            if o.choices:
                parts.append(f"-xa {shlex.quote(' '.join(o.choices))}")
            elif o.files:
                parts.append("-r -F")
            elif o.takes_value:
                parts.append("-x")
            if o.help:
                parts.append(f"-d {shlex.quote(o.help)}")
            lines.append(" ".join(parts))
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    script = {"bash": bash_script, "zsh": zsh_script, "fish": fish_script}[args.shell]()
    print(script, end="")
    return 0
