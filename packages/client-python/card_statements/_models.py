"""The models' base: a JSON object of the API as a dataclass that keeps the fields it does not
know, its nested objects as their own models."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, Dict, Mapping, Type, TypeVar, Union

M = TypeVar("M", bound="Model")


class Model:
    """A JSON object of the API as a dataclass: the fields the version's reference names, as
    attributes (`None` when absent), and `extra`, the fields it does not name. The API adds
    response fields without a new version, so a client never loses what it does not know yet."""

    extra: Dict[str, Any]

    @classmethod
    def from_dict(cls: Type[M], data: Mapping[str, Any]) -> M:
        hints = _type_hints(cls)
        fields = _json_fields(cls)
        values: Dict[str, Any] = {f.name: None for f in fields.values()}
        extra: Dict[str, Any] = {}
        for key, value in data.items():
            known = fields.get(key)
            if known is None:
                extra[key] = value
            else:
                values[known.name] = _convert(hints[known.name], value)
        return cls(**values, extra=extra)  # type: ignore[call-arg]

    def __repr__(self) -> str:
        shown = [
            f"{f.name}={getattr(self, f.name)!r}"
            for f in dataclasses.fields(self)  # type: ignore[arg-type]
            if getattr(self, f.name) is not None and getattr(self, f.name) != {}
        ]
        return f"{type(self).__name__}({', '.join(shown)})"

    def to_dict(self) -> Dict[str, Any]:
        """The object as JSON data: its fields that are set, then the extra ones."""
        out: Dict[str, Any] = {}
        for key, f in _json_fields(type(self)).items():
            value = getattr(self, f.name)
            if value is not None:
                out[key] = plain(value)
        out.update(self.extra)
        return out


_HINTS: Dict[type, Dict[str, Any]] = {}
_FIELDS: Dict[type, Dict[str, "dataclasses.Field[Any]"]] = {}


def _type_hints(cls: type) -> Dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _json_fields(cls: type) -> Dict[str, "dataclasses.Field[Any]"]:
    """The dataclass fields by JSON name (a name that is a Python keyword gets a trailing `_`)."""
    if cls not in _FIELDS:
        _FIELDS[cls] = {
            f.metadata.get("json", f.name): f for f in dataclasses.fields(cls) if f.name != "extra"
        }
    return _FIELDS[cls]


def _convert(hint: Any, value: Any) -> Any:
    """A JSON value as the annotated type holds it: nested objects become their models."""
    origin = typing.get_origin(hint)
    if origin is Union:
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return _convert(options[0], value) if len(options) == 1 else value
    if origin is list and isinstance(value, list):
        (item,) = typing.get_args(hint) or (Any,)
        return [_convert(item, v) for v in value]
    if origin is dict and isinstance(value, dict):
        item = (typing.get_args(hint) or (str, Any))[1]
        return {k: _convert(item, v) for k, v in value.items()}
    if isinstance(hint, type) and issubclass(hint, Model) and isinstance(value, dict):
        return hint.from_dict(value)
    return value


def plain(value: Any) -> Any:
    if isinstance(value, Model):
        return value.to_dict()
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def field_of(obj: Any, name: str) -> Any:
    """A field of a model (known or extra) or of plain JSON data."""
    if isinstance(obj, Model):
        value = getattr(obj, name, None)
        return obj.extra.get(name) if value is None else value
    return obj.get(name) if isinstance(obj, dict) else None
