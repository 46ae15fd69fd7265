"""Secrets: secret-looking keys and URI passwords are masked in every output
unless revealed; the core keeps the real values."""

from __future__ import annotations

import json

import pytest

from flowctx_core.base.secrets import (
    MASK,
    is_secret_key,
    mask_all,
    mask_text,
    mask_value,
    secret_strings,
)
from flowctx_core.model.matrix import Matrix
from flowctx_core.report.display import display_value, matrix_to_json
from flowctx_core.session import open_session
from tests.conftest import WriteWorkspace


@pytest.mark.parametrize(
    "name",
    [
        "password",
        "DB_PASSWORD",
        "client_secret",
        "auth_token",
        "refresh_token_v2",
        "credentials",
        "openai_api_key",
        "OpenAIApiKey",
        "private_key_pem",
        "signing_key",
        "KEY",
    ],
)
def test_secret_looking_keys(name: str) -> None:
    assert is_secret_key(name)


@pytest.mark.parametrize("name", ["keyboard", "keys", "key_id", "monkey_business", "owner", "", 5])
def test_ordinary_keys(name: object) -> None:
    assert not is_secret_key(name)


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("mongodb://app:hunter2@db:27017/x", "mongodb://app:***@db:27017/x"),
        ("mongodb+srv://u:p%40ss@cluster.example/", "mongodb+srv://u:***@cluster.example/"),
        (
            "see postgres://a:b@h and redis://:pw@r:6379",
            "see postgres://a:***@h and redis://:***@r:6379",
        ),
        ("mongodb://db:27017/x", "mongodb://db:27017/x"),
        ("https://example.com/a:b", "https://example.com/a:b"),
        ("no uri here", "no uri here"),
    ],
)
def test_uri_passwords_are_masked(text: str, masked: str) -> None:
    assert mask_text(text) == masked


def test_mask_value_walks_containers() -> None:
    value = {
        "user": "ada",
        "api_key": "sk-1",
        "nested": {"db_password": "pw", "url": "mongodb://u:pw@h/", "empty_token": None},
        "list": [{"token": "t"}, "plain"],
    }
    assert mask_value(value) == {
        "user": "ada",
        "api_key": MASK,
        "nested": {"db_password": MASK, "url": "mongodb://u:***@h/", "empty_token": None},
        "list": [{"token": MASK}, "plain"],
    }
    assert mask_value("sk-1", "openai_api_key") == MASK
    assert mask_value(5, "owner") == 5


def test_mask_all_hides_every_leaf_but_none_and_booleans() -> None:
    assert mask_all({"a": "x", "b": [1, None, True], "c": {"d": 2.5}}) == {
        "a": MASK,
        "b": [MASK, None, True],
        "c": {"d": MASK},
    }


def test_secret_strings_finds_what_must_never_leak() -> None:
    found = secret_strings({"api_key": "sk-1", "url": "mongodb://u:pw9@h/", "n": {"token": 42}})
    assert found == {"sk-1", "pw9", "42"}


CONTRACT = """
definitions:
  openai_api_key:
    type: string
    source: {type: config, env_var: OPENAI_API_KEY}
  mongo:
    type: string
    source: {type: config, env_var: MONGO_URL}
  service:
    type: object
    source: {type: state, default: {name: crm, client_secret: shh-123, region: eu}}
  hidden_by_env:
    type: string
    source: {type: config, env_var: SIGNING_KEY}
  region:
    type: string
    source: {type: config, default: eu}
agents:
  A: {variables: [openai_api_key, mongo, service, hidden_by_env, region]}
"""

ENV = {
    "OPENAI_API_KEY": "sk-live-abc123",
    "MONGO_URL": "mongodb://app:hunter2@db.internal:27017/prod",
    "SIGNING_KEY": "sig-777",
}
SECRETS = ("sk-live-abc123", "hunter2", "shh-123", "sig-777")


@pytest.fixture
def matrix(workspace: WriteWorkspace) -> Matrix:
    root = workspace({"workflows/W/context_variables.yaml": CONTRACT})
    return open_session(root, env=ENV).matrix("W")


def test_the_core_keeps_real_values(matrix: Matrix) -> None:
    assert matrix.values["openai_api_key"] == "sk-live-abc123"
    assert matrix.values["mongo"] == ENV["MONGO_URL"]


def test_json_output_masks_every_secret(matrix: Matrix) -> None:
    data = matrix_to_json(matrix)
    text = json.dumps(data)
    for secret in SECRETS:
        assert secret not in text
    rows = {v["name"]: v for v in data["variables"]}
    assert rows["openai_api_key"]["value"] == MASK and rows["openai_api_key"]["secret"]
    assert rows["hidden_by_env"]["value"] == MASK  # its env var's name looks secret
    assert rows["mongo"]["value"] == "mongodb://app:***@db.internal:27017/prod"
    assert rows["service"]["value"] == {"name": "crm", "client_secret": MASK, "region": "eu"}
    assert rows["region"]["value"] == "eu"


def test_reveal_shows_them(matrix: Matrix) -> None:
    text = json.dumps(matrix_to_json(matrix, reveal=True))
    for secret in SECRETS:
        assert secret in text


def test_display_value(matrix: Matrix) -> None:
    row = matrix.row("openai_api_key")
    assert row is not None
    assert display_value(row) == MASK
    assert display_value(row, reveal=True) == "sk-live-abc123"
    region = matrix.row("region")
    assert region is not None and display_value(region) == "eu"
