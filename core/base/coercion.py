"""Type coercion as the runtime applies it: booleans and integers only (mozaiks 0.2.0,
``mozaiksai/core/workflow/context/variables.py`` ``_coerce_value``)."""

from __future__ import annotations

from typing import Any

from flowctx_core.base.secrets import mask_value

_TRUE = {"1", "true", "yes", "on"}


def coerce(value: Any, type_name: str, *, conceal: bool = False) -> tuple[Any, str | None]:
    """The coerced value and a warning when coercion failed (the raw value is then kept).

    ``conceal`` keeps the value out of the warning (a secret variable): warnings are printed
    and exported as they are, unlike values, which are masked at display time.
    """
    if value is None:
        return None, None
    if type_name == "boolean":
        if isinstance(value, str):
            return value.strip().lower() in _TRUE, None
        return bool(value), None
    if type_name == "integer":
        if isinstance(value, bool):
            return int(value), None
        try:
            return int(value), None
        except (TypeError, ValueError, OverflowError):
            shown = f"the {type(value).__name__} value" if conceal else _short(value)
            return value, f"cannot coerce {shown} to integer; the raw value is kept"
    return value, None


def _short(value: Any) -> str:
    # masked before it is cut: a URI cut before its ``@`` no longer looks like one
    text = repr(mask_value(value))
    return text if len(text) <= 40 else text[:37] + "..."
