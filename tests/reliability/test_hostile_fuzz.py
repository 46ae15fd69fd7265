"""A longer fuzz run: generated hostile workspaces thrown at load, ``check`` and ``matrix``.

Each workspace mixes the hostile pieces of issue 13 at random (recursive and nested aliases,
backtracking regexes in seed queries and triggers, integers past 4,300 digits, deep JSON, NULs,
lone surrogates and terminal escapes in names, values and paths, unsafe YAML tags, random
bytes, seed folders that are no database name, links out of the workspace) into an otherwise
valid contract, file sources, a fallbacks file and seeds. Every input must come back as
output, never an exception; no output may hold a raw control character; and the whole run
stays within the harness's memory bound. Per-input CPU is reported (a benchmark figure), and
one input past ``HANG_SECONDS`` fails the run as a hang.

``FLOWCTX_HOSTILE_FILES`` sets the number of workspaces (CI: 40; try 1000 for a longer run) and
``FLOWCTX_HOSTILE_SEED`` the random seed (printed, so a failure can be replayed).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from tests.reliability.harness import PEAK_MB, cost, record

WORKSPACES = int(os.environ.get("FLOWCTX_HOSTILE_FILES", "40"))
SEED = int(os.environ.get("FLOWCTX_HOSTILE_SEED", str(random.SystemRandom().randrange(10**6))))
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")

NASTY_TEXT = [
    "\x1b[2J",
    "\x1b]0;t\x07",
    "\x9b31m",
    "\u202e",
    "\ud800",
    "\x00",
    "\r",
    "\n",
    "mongodb://u:pa/ss@h/",
    "x?password=pw",
    "{{runtime.app_id}}",
    "${x}",
]
REGEXES = ["(a|aa)+$", "^(a+)+$", "(x+x+)+y", "([a-z]+)*!", "((ab)*|a)*c", "[", "(?P<n>a)\\1"]
YAML_PIECES = [
    "default: &r [1, *r]",
    "default: &m {k: *m}",
    "default: !!python/object/apply:os.system [echo]",
    "default: !!binary aGk=",
    "default: " + "[" * 80 + "]" * 80,
    "default: 1" + "0" * 5000,
    "default: &a [x, x]\n    extra: [*a, *a, *a]",
    "default: {<<: [*undefined]}",
    "default: \t tab",
]


def _text(rng: random.Random) -> str:
    parts = [rng.choice(["a", "name", "v", "ü", "✓"]) for _ in range(rng.randrange(1, 4))]
    for _ in range(rng.randrange(0, 3)):
        parts.insert(rng.randrange(len(parts) + 1), rng.choice(NASTY_TEXT))
    return "".join(parts)


def _json_value(rng: random.Random, depth: int = 0) -> str:
    roll = rng.random()
    if roll < 0.08:
        return "1" * rng.choice([10, 4301, 6000])
    if roll < 0.14:
        n = rng.choice([70, 1000, 50_000])
        return "[" * n + "]" * n
    if roll < 0.2:
        return json.dumps(_text(rng))
    if roll < 0.25:
        return '"\\ud800"'
    if roll < 0.3:
        return "{bad"
    if depth > 2:
        return json.dumps(rng.choice([1, "s", None, True]))
    items = [f"{json.dumps(_text(rng))}: {_json_value(rng, depth + 1)}" for _ in range(2)]
    return "{" + ", ".join(items) + "}"


def _yaml_str(text: str) -> str:
    return json.dumps(text)  # JSON escapes are YAML double-quoted escapes


def generate(root: Path, rng: random.Random) -> None:
    """One hostile workspace under ``root``."""
    (root / "workflows" / "W").mkdir(parents=True)
    (root / "data").mkdir()
    files: dict[str, bytes] = {}
    lines = ["definitions:"]
    names: list[str] = []
    for i in range(rng.randrange(2, 6)):
        name = f"v{i}" if rng.random() < 0.6 else _text(rng) + str(i)
        names.append(name)
        kind = rng.choice(["config", "file", "data_reference", "state", "yaml"])
        head = f"  {_yaml_str(name)}:\n    type: {rng.choice(['object', 'string', 'array'])}"
        if kind == "config":
            lines += [head, f"    source: {{type: config, default: {_yaml_str(_text(rng))}}}"]
        elif kind == "file":
            # a file name holds no lone surrogate (the OS cannot name one); NULs stay in
            named = _text(rng).replace("\ud800", "").replace("/", "")
            path = rng.choice(["data/f.json", f"data/{named}.json", "data/.envrc"])
            fmt = rng.choice(["json", "yaml", "text"])
            enc = rng.choice(["utf-8", "utf-8", "latin-1", "utf\x00-8", "nope"])
            lines += [
                head,
                f"    source: {{type: file, path: {_yaml_str(path)}, format: {fmt}, "
                f"encoding: {_yaml_str(enc)}, default: {{}}}}",
            ]
            if "\x00" not in path:
                files[path] = _json_value(rng).encode("utf-8", "surrogatepass")
        elif kind == "data_reference":
            regex = rng.choice(REGEXES)
            field = rng.choice(["s", "api_secret", "n"])
            lines += [
                head,
                "    source:\n      type: data_reference\n      database_name: default",
                f"      collection: c\n      query_template: {{s: {{$regex: {_yaml_str(regex)}}}}}",
                f"      fields: [{field}]",
            ]
        elif kind == "state":
            regex = rng.choice(REGEXES)
            lines += [
                head,
                "    source:\n      type: state\n      default: false\n      triggers:",
                f"        - {{type: user_text, match: {{regex: {_yaml_str(regex)}}}}}",
            ]
        else:
            lines += [head, f"    source:\n      type: config\n      {rng.choice(YAML_PIECES)}"]
    agent = "Agent" if rng.random() < 0.7 else _text(rng)
    listed = ", ".join(_yaml_str(n) for n in names)
    lines += ["agents:", f"  {_yaml_str(agent)}: {{variables: [{listed}]}}"]
    contract = ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")
    if rng.random() < 0.1:  # random bytes somewhere in the contract
        at = rng.randrange(len(contract))
        contract = contract[:at] + os.urandom(rng.randrange(1, 8)) + contract[at:]
    files["workflows/W/context_variables.yaml"] = contract
    seed_db = rng.choice(["default", "default", "$db", "new\nline", "a.b"])
    docs = f'[{{"s": "{"a" * 32}!", "n": {rng.choice(["1", "9" * 5000])}, "api_secret": "k"}}]'
    files[f"seed/{seed_db}/c.json"] = docs.encode()
    files["fb.json"] = ('{"global": {"v0": ' + _json_value(rng) + "}}").encode(
        "utf-8", "surrogatepass"
    )
    env = "env:\n  MOZAIKS_CONTEXT_FALLBACKS_FILE: fb.json\n"
    if rng.random() < 0.2:
        env += rng.choice(["  LOOP: &e [*e]\n", "  X: !!python/name:os.system\n"])
    files["flowctx.yaml"] = env.encode()
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    if rng.random() < 0.2:
        outside = root.parent / "outside.json"
        outside.write_text('[{"s": "outside"}]', encoding="utf-8")
        (root / "seed" / "default").mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            os.symlink(outside, root / "seed" / "default" / "linked.json")


def _cli(args: list[str]) -> str:
    from flowctx_tui.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        main(args)
    return out.getvalue() + err.getvalue()


def fuzz(base: Path, count: int, seed: int) -> dict[str, Any]:
    from flowctx_core.session import open_session

    rng = random.Random(seed)
    times: list[float] = []
    slowest = (0.0, -1)
    for n in range(count):
        root = base / f"ws{n}"
        generate(root, rng)
        start = time.process_time()
        try:
            session = open_session(root, env={})
            for name in session.workflows():
                session.matrix(name)
            for args in (["check", str(root)], ["matrix", str(root)], ["prompt", str(root)]):
                shown = _cli(args)
                raw = RAW_CONTROL.search(shown)
                if raw:
                    raise AssertionError(f"workspace {n}: {args[0]} printed {raw.group()!r}")
        except BaseException as exc:
            raise AssertionError(f"seed {seed}, workspace {n}: {exc!r}") from exc
        took = time.process_time() - start
        times.append(took)
        slowest = max(slowest, (took, n))
        shutil.rmtree(root)
    times.sort()
    return {
        "count": count,
        "median_s": times[len(times) // 2],
        "p95_s": times[int(len(times) * 0.95)],
        "slowest": slowest,
    }


@pytest.mark.slow
def test_generated_hostile_workspaces_never_crash_hang_or_print_raw_controls(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    measured = cost(lambda: fuzz(tmp_path, WORKSPACES, SEED), hang_seconds=60 + WORKSPACES * 10)
    stats = measured.result
    record(
        request,
        f"seed {SEED}: {stats['count']} workspaces through load+check+matrix+prompt; CPU per "
        f"workspace median {stats['median_s']:.2f} s, p95 {stats['p95_s']:.2f} s, slowest "
        f"{stats['slowest'][0]:.2f} s (workspace {stats['slowest'][1]})",
        measured,
    )
    assert stats["count"] == WORKSPACES
    assert measured.peak_mb < PEAK_MB, measured
