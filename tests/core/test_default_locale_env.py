"""node's default locale comes from the environment (LC_ALL, LC_MESSAGES, then LANG), as its
zone from TZ: flowctx reads it there too, and refuses the values and the texts it does not
reproduce (a modifier such as @euro, an empty value, the zone names toString prints in a locale
other than en-US)."""

from __future__ import annotations

import pytest

from flowctx_core.expressions import evaluate
from flowctx_core.expressions.js.common import Unsupported
from flowctx_core.expressions.js.intl.locales import default_locale


@pytest.fixture(autouse=True)
def _clean(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize(
    ("env", "tag"),
    [
        ({}, "en-US"),
        ({"LANG": "C.UTF-8"}, "en-US"),
        ({"LANG": "POSIX"}, "en-US"),
        ({"LANG": "de_DE.UTF-8"}, "de-DE"),
        ({"LANG": "de_DE.UTF-8@phonebook"}, "de-DE"),
        ({"LANG": "iw_IL"}, "he-IL"),
        ({"LANG": "de_DE", "LC_MESSAGES": "fr_FR.UTF-8"}, "fr-FR"),
        ({"LANG": "de_DE", "LC_MESSAGES": "fr_FR", "LC_ALL": "ja_JP.UTF-8"}, "ja-JP"),
        ({"LANG": "pt_BR", "LC_ALL": "C"}, "en-US"),
    ],
)
def test_the_environment_names_it(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], tag: str
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert default_locale() == tag


@pytest.mark.parametrize("value", ["", "de_DE@euro", "xx_YY", "nb_NO"])
def test_what_node_keeps_whole_is_refused(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("LANG", value)
    with pytest.raises(Unsupported):
        default_locale()


def test_numbers_and_dates_follow_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    monkeypatch.setenv("TZ", "UTC")
    result = evaluate("(1234.5).toLocaleString() + ' ' + new Date(0).toLocaleString()", {}, "mj")
    assert result.raw == "1.234,5 1.1.1970, 00:00:00"
    # toString's zone name is the default locale's (Koordinierte Weltzeit): not measured
    refused = evaluate("String(new Date(0))", {}, "mj")
    assert refused.error is not None
    assert "default locale de-DE" in refused.error.message
