"""Two readings of a JSON Schema document that the contract tests share: the schemas closed to any
key they do not name (so a served answer with an unnamed key fails), and the objects a client would
read untyped."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def closed(node: Any) -> Any:
    """``node`` with every object that lists its properties closed to any other: the document
    leaves them open for clients (a field may be added), but an answer with a key the document does
    not name is a drift between the code and its types."""
    if isinstance(node, list):
        return [closed(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: closed(value) for key, value in node.items()}
    if isinstance(node.get("allOf"), list):
        # Each part of an ``allOf`` sees the whole object: a part closed to the others' keys would
        # refuse every answer. The parts' components are closed on their own.
        out["allOf"] = [_open(closed(part)) for part in node["allOf"]]
    if isinstance(node.get("properties"), dict) and "additionalProperties" not in node:
        out["additionalProperties"] = False
    return out


def _open(part: Any) -> Any:
    if isinstance(part, dict) and part.get("additionalProperties") is False and "properties" in part:
        return {key: value for key, value in part.items() if key != "additionalProperties"}
    return part


def untyped(node: Any, where: str = "") -> Iterator[str]:
    """Where ``node`` has a value a client reads without a type: an object without properties (nor
    a typed ``additionalProperties``), or an empty schema ``{}`` under a property or an array."""
    if isinstance(node, list):
        for number, item in enumerate(node):
            yield from untyped(item, f"{where}/{number}")
        return
    if not isinstance(node, dict):
        return
    kind = node.get("type")
    is_object = kind == "object" or (isinstance(kind, list) and "object" in kind)
    extra = node.get("additionalProperties")
    if (
        is_object
        and not node.get("properties")
        and not (isinstance(extra, dict) and extra)
        and node.get("maxProperties") != 0
    ):
        yield where
    for key, value in node.items():
        if key == "properties" and isinstance(value, dict):
            for name, schema in value.items():
                if schema == {}:
                    yield f"{where}/properties/{name}"
                yield from untyped(schema, f"{where}/properties/{name}")
            continue
        if key in ("items", "additionalProperties") and value == {}:
            yield f"{where}/{key}"
        yield from untyped(value, f"{where}/{key}")
