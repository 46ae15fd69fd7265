"""Which of node's number formats a ``locales`` argument selects (``toLocaleString``): the
first locale asked for, looked up as ICU falls back (language-script-region, language-script,
language-region, language), and node's default, en-US, for a language it does not have."""

from __future__ import annotations

from typing import Any, Final

from flowctx_core.expressions.js.localecase import first_locale, language_of
from flowctx_core.expressions.js.numberlocales import NUMBER_LOCALES, NumberShape

#: node's default locale, en-US (the generated table keeps a region only where it differs from
#: its language, so en-US is en's row)
DEFAULT: Final = NUMBER_LOCALES.get("en-US", NUMBER_LOCALES["en"])


def _default() -> NumberShape:
    """The default locale's shape: en-US's, or the environment's (LANG=de_DE.UTF-8)."""
    from flowctx_core.expressions.js.intl.locales import DEFAULT as EN_US
    from flowctx_core.expressions.js.intl.locales import default_locale

    tag = default_locale()
    return DEFAULT if tag == EN_US else number_shape(tag)


def number_shape(locales: Any) -> NumberShape:
    tag = first_locale(locales)
    if tag is None:
        return _default()
    parts = tag.split("-")
    several = type(locales) is list and len(locales) > 1
    if several or any(len(p) == 1 and p.lower() != "x" for p in parts[1:]):
        # an extension: a numbering system (-u-nu-thai), a variant (en-US-u-va-posix)...
        # or a list, whose first tag node may not have (['xx', 'de'] is de's): Intl resolves
        # it
        from flowctx_core.expressions.js import intl

        formatter = intl.service("numberformat").construct(locales)
        shape: NumberShape = intl.service("numberformat").numbered_shape(
            formatter.o["base"], formatter.o["numberingSystem"], formatter.o["posix"]
        )
        return shape
    lowered = [p.lower() for p in parts]
    if "x" in lowered:
        parts = parts[: lowered.index("x")]  # private use: ignored
    language = language_of(tag)
    script = next((p.title() for p in parts[1:] if len(p) == 4 and p.isalpha()), None)
    region = next((p.upper() for p in parts[1:] if len(p) in (2, 3) and p.isalnum()), None)
    # ICU's fallback drops the last subtag: with a script the region is never tried alone
    # (pt-Latn-PT is pt's, not pt-PT's; ku-Latn-IQ ku's, not the Arabic-script ku-IQ's)
    tries = []
    if script and region:
        tries.append(f"{language}-{script}-{region}")
    if script:
        tries.append(f"{language}-{script}")
    elif region:
        tries.append(f"{language}-{region}")
    tries.append(language)
    for name in tries:
        found = NUMBER_LOCALES.get(name)
        if found is not None:
            return found
    return _default()
