"""Events and state as JSON: the stored type name of an event, its public and secret parts, and a
state exact enough that a snapshot decodes to an equal state."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any

import msgspec

JSON = Any

SECRET = {"secret": True}


def secret_field(**kwargs: Any) -> Any:
    """A dataclass field kept in the event's ``secret`` part (seeds, hidden cards)."""
    return dataclasses.field(metadata=SECRET, **kwargs)


def event_type(event: Any) -> str:
    """The stored type name of an event: its class name."""
    return type(event).__name__


@functools.cache
def _secret_names(cls: type) -> frozenset[str]:
    return frozenset(f.name for f in dataclasses.fields(cls) if f.metadata.get("secret"))


def encode_event(event: Any) -> tuple[str, dict[str, JSON], dict[str, JSON]]:
    """Split an event into its type, its public data and its secret data, as JSON values."""
    data = msgspec.to_builtins(event)
    cls: type = type(event)  # mypy reads ``type(Any)`` as an unhashable ``type[Any]``
    secrets = _secret_names(cls)
    public = {k: v for k, v in data.items() if k not in secrets}
    secret = {k: v for k, v in data.items() if k in secrets}
    return event_type(event), public, secret


def decode_event(
    types: Mapping[str, type], type_name: str, data: Mapping[str, JSON], secret: Mapping[str, JSON] | None = None
) -> Any:
    """Rebuild an event from its stored parts."""
    cls = types[type_name]
    return msgspec.convert({**data, **(secret or {})}, type=cls)


def encode_state(state: Any) -> JSON:
    """State as JSON values, exact enough that ``decode_state`` gives an equal state."""
    return msgspec.to_builtins(state)


def decode_state(state_type: type, data: JSON) -> Any:
    """Rebuild a state from ``encode_state``'s output."""
    return msgspec.convert(data, type=state_type)
