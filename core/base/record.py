"""Frozen value classes without ``dataclasses``.

Importing ``dataclasses`` brings ``inspect`` (and ``dis``, ``tokenize``...), and each class it
builds runs generated code: together a tenth of a cold ``flowctx eval '1 === 1'``. The few
classes every evaluation touches (the clock, the compiled expression and its result, the
provenance of a value) list their fields in ``__slots__`` and write their ``__init__``;
``Record`` gives them what ``@dataclass(frozen=True, slots=True)`` did: the same ``repr``,
equality and hash of the fields in order, refused assignment, pickling, and ``replace``.
"""

from __future__ import annotations

from typing import Any, TypeVar

R = TypeVar("R", bound="Record")


class Record:
    """Fields are the ``__slots__`` of the class and its bases, bases' first; instances are
    immutable."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._fields = (*cls._fields, *cls.__dict__.get("__slots__", ()))

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({fields})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            assert isinstance(other, Record)
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _restore, (type(self), self._values())


def _restore(cls: type[R], values: tuple[Any, ...]) -> R:
    """An unpickled record: its fields set as they were, without running ``__init__``."""
    record = object.__new__(cls)
    for name, value in zip(cls._fields, values, strict=True):
        object.__setattr__(record, name, value)
    return record


def replace(record: R, **changes: Any) -> R:
    """A copy of ``record`` with the fields named in ``changes`` set to their values."""
    unknown = set(changes) - set(record._fields)
    if unknown:
        raise TypeError(f"{type(record).__qualname__} has no field {sorted(unknown)[0]!r}")
    values = {name: changes.get(name, getattr(record, name)) for name in record._fields}
    return type(record)(**values)
