"""Secret-leak audit of the CLI.

Recognisable secret values are planted everywhere a secret can enter: env-sourced config (the
process environment and the workspace profile), ``context`` passed to eval and routes, launch
values, URIs with passwords (in the environment, in a contract default, in a launch value, in
a fallbacks file), a seeded document's secret-looking key and the before/after launch contexts
of ``authority``. Then every command runs in every format, and everything it printed, every
log record (DEBUG and up) and every file that appeared or changed is scanned for any fragment
of any secret. Only ``--reveal`` may show them, and it must (so the scan can see a leak).
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write_tree
from tests.reliability.harness import run_cli

# Each secret is a marker that appears nowhere else; a leak of any 8 characters of its
# distinctive part counts (a truncated cell would show a prefix).
SECRETS = {
    "env": "sk-envKEY-7f3a9c21d4e8b06f",
    "profile": "whsec-prof-2b8e4d17c9a3f650",
    "uri_env": "uriENVpw-91c4e7a2b5d8f036",
    "uri_default": "uriDEFpw-3e7b1a9d5c2f8064",
    "uri_launch": "uriLAUpw-c8a2f4e6b1d3907e",
    "uri_fallback": "uriFBKpw-5d9e3b7f1a6c2048",
    "launch": "tok-launch-e4b7a1c9d2f50836",
    "context": "ctx-apikey-6a1d8e3f9b2c4075",
    "context_uri": "ctxURIpw-0f7c2e9a4d1b8563",
    "seed": "seed-key-b3f9d6a2e8c14570",
    "before": "ghp-before-8d2f6b1e9a3c7054",
    "after": "ghp-after-1c7e4a9f2d8b6035",
}


def fragments(secret: str) -> list[str]:
    """Every 8-character window of the secret's distinctive part (after its first dash)."""
    tail = secret.split("-", 1)[1]
    return [tail[i : i + 8] for i in range(len(tail) - 7)]


def leaks(text: str) -> list[str]:
    return sorted({name for name, s in SECRETS.items() for f in fragments(s) if f in text})


CONTRACT = f"""
definitions:
  openai_api_key:
    type: string
    source: {{type: config, env_var: OPENAI_API_KEY, required: true}}
  stripe_webhook_secret:
    type: string
    source: {{type: config, env_var: STRIPE_WEBHOOK_SECRET}}
  service_url:
    type: string
    source: {{type: config, env_var: SERVICE_URL}}
  archive_url:
    type: string
    source: {{type: config, default: "mongodb://admin:{SECRETS["uri_default"]}@db.internal/x"}}
  session_token:
    type: string
    source: {{type: state}}
  callback_url:
    type: string
    source: {{type: state}}
  account:
    type: object
    source:
      {{type: data_reference, database_name: default, collection: accounts,
        fields: [name, api_key]}}
  mirror_url:
    type: string
    source: {{type: data_reference, database_name: default, collection: mirrors, fields: [url]}}
  approved:
    type: boolean
    source:
      type: state
      default: false
      triggers:
        - type: agent_text
          agent: Planner
          match: {{contains: APPROVED}}
agents:
  Planner:
    variables: [openai_api_key, stripe_webhook_secret, service_url, archive_url, session_token,
                callback_url, account, mirror_url, approved]
  Builder:
    variables: [service_url, approved]
"""
TRANSITIONS = """
transitions:
  - source: Planner
    transition_type: condition
    condition_type: context_expression
    condition: "${openai_api_key} == 'nope' or ${service_url} == 'x'"
    target: Builder
  - source: Planner
    transition_type: condition
    condition_type: context_equals
    condition_key: session_token
    condition_value: nope
    target: Builder
  - source: Planner
    transition_type: after_turn
    target: {type: RevertToUserTarget}
"""
FLOW = """
steps:
  - {name: Start, type: Action, starting: true}
  - {name: Paid, type: Action}
  - {name: Free, type: Action}
paths:
  - from: Start
    to: Paid
    condition: "context.apiKey === 'x' || context.dsn.length > 3"
    priority: 5
  - {from: Start, to: Free, condition: "data.plan === 'free'"}
"""


def audit_workspace(root: Path) -> Path:
    return write_tree(
        root,
        {
            "workflows/Agents/context_variables.yaml": CONTRACT,
            "workflows/Agents/transition_graph.yaml": TRANSITIONS,
            "workflows/Flow/context_variables.yaml": "definitions: {}\nagents: {}\n",
            "workflows/Flow/flow.yaml": FLOW,
            "flowctx.yaml": (
                f"env:\n  STRIPE_WEBHOOK_SECRET: {SECRETS['profile']}\n"
                "  MOZAIKS_CONTEXT_FALLBACKS_FILE: fallbacks.json\n"
                "launch:\n  app_id: app-1\n"
            ),
            "seed/default/accounts.json": [
                {"app_id": "app-1", "name": "acme", "api_key": SECRETS["seed"]}
            ],
            "fallbacks.json": {
                "global": {"mirror_url": f"https://m:{SECRETS['uri_fallback']}@mirror.example/"}
            },
        },
    )


LAUNCH = json.dumps(
    {
        "app_id": "app-1",
        "session_token": SECRETS["launch"],
        "callback_url": f"https://hook:{SECRETS['uri_launch']}@hooks.example/cb",
    }
)
CONTEXT = json.dumps(
    {
        "apiKey": SECRETS["context"],
        "dsn": f"postgres://u:{SECRETS['context_uri']}@db/x",
        "plan": "pro",
    }
)
BEFORE = json.dumps({"app_id": "app-1", "user_id": "u", "github_token": SECRETS["before"]})
AFTER = json.dumps({"app_id": "app-1", "user_id": "u", "github_token": SECRETS["after"]})
CONDITIONS = {
    "mj": [
        "context.apiKey === 'x'",
        "JSON.stringify(context).length > 1",
        "context.apiKey.slice(3).toUpperCase() === context.dsn",
        "context.apiKey.nope.deeper",
        "parseInt(context.apiKey) > 1",
    ],
    "python": [
        "int(context['apiKey']) > 1",
        "float(context['dsn']) > 1",
        "context['apiKey'] + 1",
        "'-'.join(context['apiKey']) == ''",
        "str(context) == ''",
    ],
    "ag2": [
        "${apiKey} == 'x' and len(${dsn}) > 1",
        "${apiKey} > 1",
        "${dsn}",
    ],
}


def commands(root: str) -> list[list[str]]:
    """Every command, every output format, with the secrets passed in."""
    launch = ["--launch", LAUNCH]
    out: list[list[str]] = []
    for fmt in ("table", "json"):
        out.append(["matrix", root, "-w", "Agents", *launch, "--format", fmt])
    out.append(["check", root])
    out.append(["check", root, "--strict"])
    for fmt in ("text", "json"):
        for dialect, conditions in CONDITIONS.items():
            for condition in conditions:
                scope = ["--context", CONTEXT] if dialect != "ag2" else ["--scope", CONTEXT]
                out.append(["eval", condition, "-d", dialect, *scope, "--explain", "--format", fmt])
        out.append(["routes", root, "-w", "Agents", "--from", "Planner", *launch, "--format", fmt])
        context = ["--context", CONTEXT, "--format", fmt]
        out.append(["routes", root, "-w", "Agents", "--from", "Planner", *context])
        out.append(["routes", root, "-w", "Flow", "--from", "Start", "--data", "{}", *context])
        out.append(["authority", BEFORE, AFTER, root, "-w", "Agents", "--format", fmt])
        message = ["--agent", "Planner", "APPROVED"]
        out.append(["trigger", root, "-w", "Agents", *message, *launch, "--format", fmt])
        out.append(["prompt", root, "-w", "Agents", *launch, "--format", fmt])
    out.append(["prompt", root, "-w", "Agents", *launch, "--raw"])
    return out


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


@pytest.fixture
def audited(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> Path:
    for name in list(os.environ):
        if name.startswith(("MOZAIKS_", "FLOWCTX_", "CONTEXT_")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("OPENAI_API_KEY", SECRETS["env"])
    monkeypatch.setenv("SERVICE_URL", f"https://svc:{SECRETS['uri_env']}@svc.example/api")
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    caplog.set_level(logging.DEBUG)
    return audit_workspace(tmp_path / "ws")


def test_no_command_prints_logs_or_writes_a_secret(
    audited: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: Any
) -> None:
    before = snapshot(tmp_path)
    runs = commands(str(audited))
    found: dict[str, list[str]] = {}
    printed = 0
    for argv in runs:
        code, out, err = run_cli(argv, capsys)
        assert "Traceback" not in out + err, argv
        # every command ran (eval says 3 when the condition itself fails); none refused its
        # arguments (2)
        assert code in (0, 1, 3), (argv, out, err)
        printed += len(out) + len(err)
        leaked = leaks(out + err)
        if leaked:
            found[" ".join(argv)[:160]] = leaked
    assert found == {}, json.dumps(found, indent=1)
    assert printed > 20_000  # the commands did print their reports

    assert leaks(caplog.text) == [], "a log record carries a secret"
    after = snapshot(tmp_path)
    written = {k: v for k, v in after.items() if before.get(k) != v}
    for name, content in written.items():
        assert leaks(content.decode("utf-8", "replace")) == [], f"{name} holds a secret"


def test_the_audit_sees_what_reveal_shows(
    audited: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The control: asked to reveal, the same commands show the secrets, so the scan above
    would have seen any of them printed."""
    root = str(audited)
    shown: set[str] = set()
    for argv in (
        ["matrix", root, "-w", "Agents", "--launch", LAUNCH, "--format", "json", "--reveal"],
        ["prompt", root, "-w", "Agents", "--launch", LAUNCH, "--reveal"],
        ["authority", BEFORE, AFTER, root, "-w", "Agents", "--reveal"],
    ):
        _, out, _ = run_cli(argv, capsys)
        shown |= set(leaks(out))
    expected = {"env", "profile", "uri_env", "uri_default", "uri_launch", "uri_fallback"}
    assert expected | {"launch", "seed"} <= shown, shown
