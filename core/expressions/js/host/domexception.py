"""DOMException as node 20 has it: a name and a message read through getters, the legacy
``code`` of the WebIDL error names (0 for the disused ones and any other name), the 25
constants on the class and its objects; an Error otherwise (``instanceof Error``, its
toString), whose only own property is its stack."""

from __future__ import annotations

from typing import Any, Final

from flowctx_core.expressions.js.constructors import JsErrorObject
from flowctx_core.expressions.js.host import DOM_CODES as CODES
from flowctx_core.expressions.js.host import DOM_CONSTANTS as CONSTANTS
from flowctx_core.expressions.js.values import UNDEFINED, JsError, to_string, typeof

_DISUSED: Final = frozenset({"DOMStringSizeError", "NoDataAllowedError", "ValidationError"})
_CODE_OF: Final = {name: code for code, (name, _) in enumerate(CODES, 1) if name not in _DISUSED}
_GETTERS: Final = ("name", "message", "code")


class JsDOMException(JsErrorObject):
    __slots__ = ()
    TAG: Final = "DOMException"
    KINDS: Final = frozenset({"DOMException", "Error"})

    def js_get(self, key: str) -> Any:
        if key in self.props:
            return self.props[key]
        if key == "code":
            return _CODE_OF.get(self.name, 0)
        if key in CONSTANTS:
            return CONSTANTS[key]
        return super().js_get(key)

    def js_set(self, key: str, value: Any) -> None:
        if key in _GETTERS:
            # V8 names the object by its side-effect-free print, empty for a DOMException
            raise JsError(f"Cannot set property {key} of  which has only a getter")
        self.props[key] = value

    def js_owns(self, key: str) -> bool:
        return key in self.props

    def js_has(self, key: str) -> bool:
        return key in _GETTERS or key in CONSTANTS or self.js_get(key) is not UNDEFINED

    def js_keys(self) -> list[str]:
        return list(self.props)

    def js_json(self) -> Any:
        return dict(self.props)

    def own_names(self) -> list[str]:
        return ["stack", *self.props]

    def js_shown(self) -> str:
        return ""


def construct(message: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any) -> JsDOMException:
    text = "" if message is UNDEFINED else to_string(message)
    if options is not None and typeof(options) == "object":
        from flowctx_core.expressions.js.objects import get_member

        name = to_string(get_member(options, "name"))
    else:
        name = "Error" if options is UNDEFINED else to_string(options)
    made = JsDOMException(name, text)
    made.own_message = False  # its message is the prototype's getter, not its own
    return made
