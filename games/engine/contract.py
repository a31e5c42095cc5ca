"""A game's wire contract as JSON Schema, derived from the game's own types (never written twice):
its events from the event dataclasses (public fields only, each tagged with its ``type``), its legal
actions from the action types it declares, and its view from its view type. Each set is a union
discriminated by ``type``. The API turns these into the OpenAPI document's components
(``api/schema.py``); nothing here knows about HTTP."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgspec

from games.engine.decider import Decider
from games.engine.options import Option

REF = "#/components/schemas/"


def prefix_of(slug: str) -> str:
    """``five-card-draw`` → ``FiveCardDraw``: the prefix of a game's component names."""
    return "".join(part.capitalize() for part in slug.replace("_", "-").split("-"))


def _plain_tuples(node: Any) -> Any:
    """A fixed-length tuple (``prefixItems`` with ``items: false``) as an array of the union of its
    item schemas, with its length: what code generators read (openapi-python-client, say, takes no
    ``prefixItems``), still exact about each item's possible types and the count."""
    if isinstance(node, list):
        return [_plain_tuples(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _plain_tuples(value) for key, value in node.items()}
    prefix = node.pop("prefixItems", None)
    if prefix is not None:
        unique: list[Any] = []
        for item in prefix:
            if item not in unique:
                unique.append(item)
        node["items"] = unique[0] if len(unique) == 1 else {"anyOf": unique}
    if node.get("type") == "array" and "items" not in node:
        node["items"] = {}  # list[Any]: said outright, as generators want
    return node


def _components(types: tuple[type, ...], prefix: str) -> tuple[list[str], dict[str, dict[str, Any]]]:
    refs, raw = msgspec.json.schema_components(types, ref_template=REF + prefix + "{name}")
    raw = _plain_tuples(raw)
    # Titled by component name: two games' ``HandStarted`` are two models.
    components = {prefix + name: {**schema, "title": prefix + name} for name, schema in raw.items()}
    return [ref["$ref"].removeprefix(REF) for ref in refs], components


def _type_name_of(schema: dict[str, Any]) -> str | None:
    enum = schema.get("properties", {}).get("type", {}).get("enum")
    return enum[0] if enum and len(enum) == 1 else None


def _union(names: list[str], components: dict[str, dict[str, Any]], description: str) -> dict[str, Any]:
    mapping = {}
    for name in names:
        type_name = _type_name_of(components[name])
        if type_name is not None:
            mapping[type_name] = REF + name
    union: dict[str, Any] = {"oneOf": [{"$ref": REF + name} for name in names], "description": description}
    if len(mapping) == len(names):
        union["discriminator"] = {"propertyName": "type", "mapping": mapping}
    return union


def game_schemas(decider: Decider) -> dict[str, dict[str, Any]]:
    """The game's components: ``<Game>Event``, ``<Game>LegalAction`` and ``<Game>View`` with every
    schema they refer to, named with the game's prefix."""
    prefix = prefix_of(decider.slug)
    out: dict[str, dict[str, Any]] = {}

    view_type = getattr(decider, "view_type", None)
    if view_type is not None:
        # Named with the game's prefix like its events, so two games' parts never share a name; a
        # part that is one of the game's events (a showdown kept for the view) is then replaced
        # below by the event's schema, the public fields tagged with ``type``, which is what the
        # view serves (``public_event``).
        names, components = _components((view_type,), prefix)
        view_name = prefix + view_type.__name__.removeprefix(prefix)
        components[view_name] = {**components.pop(names[0]), "title": view_name}
        out.update(_renamed(components, REF + names[0], REF + view_name))
        if view_name != prefix + "View":
            out[prefix + "View"] = {"$ref": REF + view_name}

    names, components = _components(tuple(decider.event_types), prefix)
    for cls, name in zip(decider.event_types, names, strict=True):
        schema = components[name]
        secrets = {f.name for f in dataclasses.fields(cls) if f.metadata.get("secret")}
        for secret in secrets:
            schema.get("properties", {}).pop(secret, None)
        required = [field for field in schema.get("required", []) if field not in secrets]
        schema["properties"] = {"type": {"enum": [cls.__name__]}, **schema.get("properties", {})}
        schema["required"] = ["type", *required]
        schema["description"] = (
            f"{decider.name}: the event {cls.__name__} (its public fields; a seat also sees what is its own)."
        )
    out.update(components)
    _add_extras(decider, prefix, out)
    out[prefix + "Event"] = _union(names, components, f"Any {decider.name} event's data, by its `type`.")

    action_types = tuple(getattr(decider, "action_types", ()))
    if action_types:
        names, components = _components(action_types, prefix + "Action")
        out.update(components)
        out[prefix + "LegalAction"] = _union(names, components, f"A {decider.name} action, by its `type`.")
    return out


def record_schemas(decider: Decider) -> tuple[dict[str, str], dict[str, dict[str, Any]]]:
    """Each event as recorded: the public part ``codec.encode_event`` stores, which a hand audit
    shows as the event's ``data`` (the hash covers it): the public fields as stored, money in minor
    units, without ``type`` (the record has it beside) nor what a seat's view adds. Returns each
    event type's component name and the components, named ``<Game>Recorded<Event>`` (the parts
    they hold too), so they never meet the events as served."""
    prefix = prefix_of(decider.slug) + "Recorded"
    names, components = _components(tuple(decider.event_types), prefix)
    for cls, name in zip(decider.event_types, names, strict=True):
        schema = components[name]
        secrets = {f.name for f in dataclasses.fields(cls) if f.metadata.get("secret")}
        schema["properties"] = {k: v for k, v in schema.get("properties", {}).items() if k not in secrets}
        schema["required"] = [field for field in schema.get("required", []) if field not in secrets]
        schema["description"] = f"{decider.name}: the event {cls.__name__} as recorded (its public fields)."
    return {cls.__name__: name for cls, name in zip(decider.event_types, names, strict=True)}, components


def _add_extras(decider: Decider, prefix: str, out: dict[str, dict[str, Any]]) -> None:
    """Each event's schema with what ``view_event`` adds for a seat (``Decider.event_extras``)."""
    for type_name, extras in decider.event_extras.items():
        names, components = _components((extras,), prefix)
        schema = out[prefix + type_name]
        extra = components.pop(names[0])
        for key, value in extra["properties"].items():
            schema["properties"][key] = value
        out.update(components)


def _renamed(node: Any, old: str, new: str) -> Any:
    """``node`` with every ``$ref`` to ``old`` pointing at ``new``."""
    if isinstance(node, list):
        return [_renamed(item, old, new) for item in node]
    if isinstance(node, dict):
        return {
            key: new if key == "$ref" and value == old else _renamed(value, old, new) for key, value in node.items()
        }
    return node


def option_schema(option: Option) -> dict[str, Any]:
    """One table option as JSON Schema: what ``options.validate_options`` accepts."""
    schema: dict[str, Any]
    if option.type == "int":
        schema = {"type": "integer"}
        if option.minimum is not None:
            schema["minimum"] = option.minimum
        if option.maximum is not None:
            schema["maximum"] = option.maximum
    elif option.type == "bool":
        schema = {"type": "boolean"}
    elif option.type == "choice":
        schema = {"type": "string", "enum": list(option.choices)}
    else:
        schema = {"type": "string"}
    if option.help:
        schema["description"] = option.help
    schema["default"] = option.default
    return schema


def options_schema(decider: Decider) -> dict[str, Any]:
    """The game's ``options`` object: each option typed, no other key (the engine refuses them)."""
    return {
        "type": "object",
        "properties": {option.name: option_schema(option) for option in decider.options},
        "additionalProperties": False,
        "description": f"{decider.name}'s table options; any left out takes its default.",
    }


def config_schema(decider: Decider) -> dict[str, Any]:
    """A table's ``config``: its options with defaults filled in, ``seats``, and the money terms."""
    return {
        "type": "object",
        "properties": {
            "seats": {"type": "integer", "minimum": decider.min_players, "maximum": decider.max_players},
            **{option.name: option_schema(option) for option in decider.options},
        },
        "required": ["seats"],
        "description": f"A {decider.name} table's configuration.",
    }
