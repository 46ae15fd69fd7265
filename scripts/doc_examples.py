"""Regenerate every command output shown in README.md and docs/ by running the command.

Run ``python scripts/doc_examples.py`` to rewrite the shown outputs in place, or
``python scripts/doc_examples.py --check`` to list the ones that differ (exit 1), which is
what ``tests/test_doc_examples.py`` does block by block.

An example is an HTML comment right before a fenced block. One command::

    <!-- example: flowctx check -->
    ```text
    $ flowctx check
    ...what it prints...
    ```

or, for more, lines of ``$ COMMAND`` (several are shown one after the other) and
``key: value`` (each value read as YAML, every key optional)::

    <!-- example
    $ flowctx eval '${x} > 1' -d mozaiks \\
          --context '{"x": 3}'
    in: review                  # where it runs: demo (default) or review (see below)
    output: only                # the block holds the output alone (json, markdown, mermaid)
    from: '"name": "deployment_targets"'   # an excerpt: from the first line matching this
                                           # (a list: each searched from the last one's line)
    to: '^      \\]'                         # ... to the next line matching this, with "..."
    tail: 6                     # or the last N lines, after "..."
    vary: '"elapsed_ms": [0-9.]+'  # what differs from run to run, ignored when compared
    -->

A command may start with ``NAME=VALUE`` assignments (the environment of that run), may read
standard input with ``< FILE`` and may be continued over several lines with a trailing
backslash; the block shows it as written, after ``$ ``.

``in: demo`` runs in a fresh copy of the demo workspace (the working folder is the workspace,
shown as ``~/flowctx/flowctx_tui/demo/workspace``: the docs' examples are run there, as in a
checkout of flowctx at ``~/flowctx``). ``in: review`` runs in the review-mode example: the demo
committed in a new git repository with a saved scenario, then edited in the working tree
(``tests/diff_repo.make_demo_review``), shown as ``~/shop``. A fenced block marked
``<!-- example-file: NAME -->`` is written as NAME into the working folder of every example of
its page (a test file, a batch of conditions).

It needs the test extra (``pip install -e '.[test]'``): the review example is built by the
tests' own helper. Every run is in-process (``flowctx_tui.cli.main``) with a fixed environment
(``TZ=UTC``, ``NO_COLOR=1``, no terminal) and a fixed clock, 2026-12-01T09:00:00Z, so an output
changes only when flowctx does.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import os
import re
import shlex
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: the pages whose examples are regenerated
PAGES = ("README.md", "docs")
#: the fixed clock: 2026-12-01T09:00:00Z
FIXED_EPOCH = 1796115600.0
FIXED_GIT_DATE = "2026-12-01T09:00:00+0000"
#: what the sandbox's own folder is shown as
HOME_SHOWN = "~"
CHECKOUT = "flowctx"
DEMO_IN_CHECKOUT = Path("flowctx_tui/demo/workspace")

#: a fenced block's body: whole lines, none of them opening or closing a fence
_BODY = r"(?P<body>(?:(?!```)[^\n]*\n)*?)"
MARKER = re.compile(
    r"<!-- example(?P<spec>(?::[^\n]*?|\n.*?))-->[ \t]*\n(?P<fence>```)(?P<lang>[\w-]*)\n"
    + _BODY
    + r"(?P=fence)[ \t]*$",
    re.DOTALL | re.MULTILINE,
)
FILE_MARKER = re.compile(
    r"<!-- example-file: (?P<name>[\w./-]+) -->[ \t]*\n```[\w-]*\n" + _BODY + r"```[ \t]*$",
    re.MULTILINE,
)
KEYMAP_MARKER = re.compile(
    r"<!-- example-keymap -->[ \t]*\n```[\w-]*\n" + _BODY + r"```[ \t]*$", re.MULTILINE
)
#: the keys a marker may set besides its commands
KEYS = ("in", "output", "from", "to", "tail", "vary")


class ExampleError(Exception):
    """A marker that cannot be read or run; the message names the page and line."""


@dataclass(frozen=True)
class Example:
    page: str  # relative to the repository root
    line: int  # the marker's line, 1-based
    commands: tuple[str, ...]  # as shown (continuation lines included)
    place: str = "demo"
    output_only: bool = False
    start: tuple[str, ...] = ()
    stop: str | None = None
    tail: int | None = None
    vary: tuple[str, ...] = ()  # patterns whose text may differ from run to run (timings)
    shown: str = ""  # the block's body as the page has it
    span: tuple[int, int] = (0, 0)  # the body's offsets in the page
    files: tuple[tuple[str, str], ...] = field(default=())

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def name(self) -> str:
        first = " ".join(self.commands[0].split())
        return f"{self.where} {first[:70]}"


def pages(root: Path = ROOT) -> list[Path]:
    out: list[Path] = []
    for name in PAGES:
        path = root / name
        out.extend(sorted(path.rglob("*.md")) if path.is_dir() else [path])
    return out


def _spec(raw: str, where: str) -> dict[str, object]:
    """The marker's text: ``: COMMAND`` on one line, or lines of ``$ COMMAND`` (continued by a
    trailing backslash) and ``key: value`` (the value read as YAML)."""
    if raw.startswith(":"):
        return {"run": [raw[1:].strip()]}
    spec: dict[str, object] = {}
    commands: list[str] = []
    continued = False
    for line in raw.strip("\n").split("\n"):
        if continued:
            commands[-1] += "\n" + line
        elif line.startswith("$ "):
            commands.append(line[2:])
        elif line.strip():
            key, colon, value = line.partition(":")
            if not colon or key.strip() not in KEYS:
                raise ExampleError(
                    f"{where}: expected '$ COMMAND' or one of {', '.join(KEYS)}: {line!r}"
                )
            try:
                spec[key.strip()] = yaml.safe_load(value)
            except yaml.YAMLError as exc:
                raise ExampleError(f"{where}: {key.strip()}: not YAML: {exc}") from None
        continued = bool(commands) and line.endswith("\\") and (continued or line.startswith("$ "))
    if not commands:
        raise ExampleError(f"{where}: an example needs a '$ COMMAND' line")
    spec["run"] = commands
    return spec


def examples_in(path: Path, root: Path = ROOT) -> list[Example]:
    text = path.read_text(encoding="utf-8")
    page = path.relative_to(root).as_posix()
    files = tuple((m["name"], m["body"]) for m in FILE_MARKER.finditer(text))
    out = []
    for m in MARKER.finditer(text):
        where = f"{page}:{text.count(chr(10), 0, m.start()) + 1}"
        spec = _spec(m["spec"], where)
        commands = tuple(str(c) for c in spec["run"])  # type: ignore[attr-defined]
        place = str(spec.get("in", "demo"))
        if place not in ("demo", "review"):
            raise ExampleError(f"{where}: 'in' is demo or review, not {place!r}")
        tail = spec.get("tail")
        out.append(
            Example(
                page=page,
                line=int(where.rsplit(":", 1)[1]),
                commands=commands,
                place=place,
                output_only=spec.get("output") == "only",
                start=_patterns(spec.get("from")),
                stop=None if spec.get("to") is None else str(spec["to"]),
                tail=int(tail) if isinstance(tail, int) else None,
                vary=_patterns(spec.get("vary")),
                shown=m["body"].removesuffix("\n"),
                span=(m.start("body"), m.end("body")),
                files=files,
            )
        )
    return out


def _patterns(value: object) -> tuple[str, ...]:
    if value is None:
        return ()
    return tuple(str(v) for v in value) if isinstance(value, list) else (str(value),)


def collect(root: Path = ROOT) -> list[Example]:
    return [ex for path in pages(root) for ex in examples_in(path, root)]


def keymaps(root: Path = ROOT) -> list[tuple[str, str]]:
    """``(page:line, text)`` of every key map shown as an example of ``--keymap``."""
    out = []
    for path in pages(root):
        text = path.read_text(encoding="utf-8")
        page = path.relative_to(root).as_posix()
        for m in KEYMAP_MARKER.finditer(text):
            out.append((f"{page}:{text.count(chr(10), 0, m.start()) + 1}", m["body"]))
    return out


# --- running ------------------------------------------------------------------------------


@contextlib.contextmanager
def sandbox(place: str) -> Iterator[tuple[Path, Path, dict[str, str]]]:
    """``(home, working folder, {real path: path shown})`` for a fresh copy of ``place``."""
    from flowctx_tui.cli.workspace_args import demo_path

    with tempfile.TemporaryDirectory(prefix="flowctx-doc-") as tmp:
        base = Path(tmp)
        with fixed_environment(base):
            if place == "review":
                from tests.diff_repo import make_demo_review

                cwd = make_demo_review(base)
            else:
                cwd = base / CHECKOUT / DEMO_IN_CHECKOUT
                shutil.copytree(demo_path(), cwd)
        shown = {str(base.resolve()): HOME_SHOWN, str(base): HOME_SHOWN}
        yield base, cwd, shown


@contextlib.contextmanager
def fixed_environment(home: Path) -> Iterator[None]:
    """The environment and clock every example runs with (both restored afterwards): no
    colour, UTC, a home of its own, git's commit dates and ``time.time`` fixed."""
    saved_env = dict(os.environ)
    saved_time = time.time
    os.environ.clear()
    os.environ.update(
        {
            "PATH": saved_env.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "LANG": "C.UTF-8",
            "TZ": "UTC",
            "NO_COLOR": "1",
            "GIT_AUTHOR_DATE": FIXED_GIT_DATE,
            "GIT_COMMITTER_DATE": FIXED_GIT_DATE,
        }
    )
    time.tzset()
    time.time = lambda: FIXED_EPOCH  # type: ignore[assignment]
    try:
        yield
    finally:
        time.time = saved_time  # type: ignore[assignment]
        os.environ.clear()
        os.environ.update(saved_env)
        time.tzset()


def _argv(command: str, where: str) -> tuple[dict[str, str], list[str], str | None]:
    """``(env, argv after 'flowctx', stdin file)`` of one shown command."""
    words = shlex.split(command.replace("\\\n", " "))
    env: dict[str, str] = {}
    while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", words[0]):
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    if not words or words[0] != "flowctx":
        raise ExampleError(f"{where}: an example runs flowctx, not {command!r}")
    stdin = None
    if "<" in words:
        at = words.index("<")
        stdin = words[at + 1]
        words = words[:at] + words[at + 2 :]
    return env, words[1:], stdin


def run_one(command: str, cwd: Path, where: str) -> str:
    """What ``command`` prints (standard output and error, in order) run in ``cwd``."""
    from flowctx_core.base import clock
    from flowctx_tui.cli import main

    env, argv, stdin_name = _argv(command, where)
    buffer = io.StringIO()
    saved = sys.stdout, sys.stderr, sys.stdin, os.getcwd()
    extra_env = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    time.tzset()
    sys.stdout = sys.stderr = buffer
    sys.stdin = (
        io.StringIO((cwd / stdin_name).read_text(encoding="utf-8")) if stdin_name else io.StringIO()
    )
    os.chdir(cwd)
    try:
        main(argv)
    except SystemExit:
        pass  # argparse's usage errors: what they printed is the output
    finally:
        sys.stdout, sys.stderr, sys.stdin = saved[:3]
        os.chdir(saved[3])
        for name, value in extra_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        time.tzset()
        clock.pin(None)  # a --now pins the clock for the process: not for the next example
    return buffer.getvalue()


def _excerpt(example: Example, out: str) -> str:
    lines = out.rstrip("\n").split("\n")
    if example.tail is not None:
        return "\n".join(["...", *lines[-example.tail :]])
    if not example.start:
        return "\n".join(lines)
    begin = -1
    for pattern in example.start:  # each one searched from the line the last one matched
        begin = next((i for i in range(begin + 1, len(lines)) if re.search(pattern, lines[i])), -1)
        if begin < 0:
            raise ExampleError(f"{example.where}: no line matches from: {pattern!r}")
    end = len(lines) - 1
    if example.stop is not None:
        end = next(
            (i for i in range(begin + 1, len(lines)) if re.search(example.stop, lines[i])), None
        )
        if end is None:
            raise ExampleError(f"{example.where}: no line after it matches to: {example.stop!r}")
    part = lines[begin : end + 1]
    return "\n".join(
        [*(["..."] if begin else []), *part, *(["..."] if end < len(lines) - 1 else [])]
    )


def render(example: Example) -> str:
    """The block's body as the commands print it today."""
    parts: list[str] = []
    with sandbox(example.place) as (home, cwd, shown):
        for name, body in example.files:
            (cwd / name).parent.mkdir(parents=True, exist_ok=True)
            (cwd / name).write_text(body, encoding="utf-8")
        for command in example.commands:
            with fixed_environment(home):
                out = run_one(command, cwd, example.where)
            for real, alias in sorted(shown.items(), key=lambda kv: -len(kv[0])):
                out = out.replace(real, alias)
            body = _excerpt(example, out)
            parts.append(body if example.output_only else f"$ {command}\n{body}".rstrip("\n"))
    return "\n".join(parts)


def differences(example: Example, actual: str, commits: bool = False) -> str:
    """A unified diff of the page's block against what the command prints, '' when equal
    (but for the example's ``vary`` parts and, unless ``commits``, commit ids)."""
    if normalize(actual, example.vary, commits) == normalize(example.shown, example.vary, commits):
        return ""
    return "".join(
        difflib.unified_diff(
            example.shown.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            fromfile=f"{example.where} (shown)",
            tofile="printed now",
        )
    )


def normalize(text: str, vary: tuple[str, ...] = (), commits: bool = False) -> str:
    """``text`` with what may differ between two runs blanked: the example's ``vary``
    patterns (a timing) and, unless ``commits``, commit ids (which git's object format and
    version decide, not flowctx)."""
    for pattern in (*(() if commits else (r"git:[0-9a-f]{12}",)), *vary):
        text = re.sub(pattern, "<varies>", text)
    return text


def regenerate(root: Path = ROOT, check: bool = False) -> int:
    """Rewrite (or, with ``check``, compare) every example; the number that differed."""
    changed = 0
    for path in pages(root):
        text = path.read_text(encoding="utf-8")
        found = examples_in(path, root)
        for example in reversed(found):  # from the end, so earlier offsets stay valid
            actual = render(example)
            # a rewrite brings the real commit ids in; a comparison ignores them
            diff = differences(example, actual, commits=not check)
            if not diff:
                continue
            changed += 1
            if check:
                sys.stdout.write(diff)
            else:
                body = actual + "\n" if actual else ""
                text = text[: example.span[0]] + body + text[example.span[1] :]
                print(f"updated {example.name}")
        if not check:
            path.write_text(text, encoding="utf-8")
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 on a change")
    args = parser.parse_args(argv)
    changed = regenerate(check=args.check)
    if args.check and changed:
        print(f"{changed} example(s) differ: run python scripts/doc_examples.py")
        return 1
    print(f"{len(collect())} example(s), {changed} {'differ' if args.check else 'updated'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
