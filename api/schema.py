"""The OpenAPI document's last step (``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``): every
game's typed components, generated from the engine's own types (``games.engine.contract``), wired
into the table, action and event schemas; an explicit operationId and tag per operation; and the
problem-details error (``Error``) declared on every operation with the statuses it can answer."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from api import problems
from games.engine import registry
from games.engine.contract import REF, config_schema, game_schemas, options_schema, prefix_of, record_schemas
from ledger.units import CURRENCIES, MONEY_KEYS

# (path, method) → (operationId, tag). Every operation is named here; the contract test checks
# that none is missing, so a new endpoint cannot ship with a generated name.
OPERATIONS: dict[tuple[str, str], tuple[str, str]] = {
    ("/api/v1/auth/register/", "post"): ("register", "auth"),
    ("/api/v1/auth/token/", "post"): ("createToken", "auth"),
    ("/api/v1/auth/logout/", "post"): ("logout", "auth"),
    ("/api/v1/auth/logout-all/", "post"): ("logoutAll", "auth"),
    ("/api/v1/auth/session/", "get"): ("getSession", "auth"),
    ("/api/v1/auth/session/", "post"): ("createSession", "auth"),
    ("/api/v1/auth/session/", "delete"): ("deleteSession", "auth"),
    ("/api/v1/auth/tokens/", "get"): ("listTokens", "auth"),
    ("/api/v1/auth/password-reset/", "post"): ("requestPasswordReset", "auth"),
    ("/api/v1/auth/password-reset/confirm/", "post"): ("confirmPasswordReset", "auth"),
    ("/api/v1/auth/tokens/{token_id}/", "delete"): ("revokeToken", "auth"),
    ("/api/v1/games/", "get"): ("listGames", "games"),
    ("/api/v1/tables/", "get"): ("listTables", "tables"),
    ("/api/v1/tables/", "post"): ("createTable", "tables"),
    ("/api/v1/tables/{table_id}/", "get"): ("getTable", "tables"),
    ("/api/v1/tables/{table_id}/join/", "post"): ("joinTable", "tables"),
    ("/api/v1/tables/{table_id}/leave/", "post"): ("leaveTable", "tables"),
    ("/api/v1/tables/{table_id}/seats/{seat}/", "delete"): ("removeSeat", "tables"),
    ("/api/v1/tables/{table_id}/bots/", "post"): ("addBot", "tables"),
    ("/api/v1/tables/{table_id}/start/", "post"): ("startTable", "tables"),
    ("/api/v1/tables/{table_id}/client-seed/", "put"): ("setClientSeed", "play"),
    ("/api/v1/tables/{table_id}/actions/", "post"): ("postAction", "play"),
    ("/api/v1/tables/{table_id}/events/", "get"): ("listEvents", "play"),
    ("/api/v1/tables/{table_id}/stream/", "get"): ("streamTable", "play"),
    ("/api/v1/me/stream/", "get"): ("streamMyNotices", "play"),
    ("/api/v1/me/language/", "get"): ("getMyLanguage", "languages"),
    ("/api/v1/me/language/", "put"): ("setMyLanguage", "languages"),
    ("/api/v1/languages/", "get"): ("listLanguages", "languages"),
    ("/api/v1/tables/{table_id}/hands/", "get"): ("listHands", "hands"),
    ("/api/v1/tables/{table_id}/hands/{hand_no}/audit/", "get"): ("getHandAudit", "hands"),
    ("/api/v1/tables/{table_id}/hands/{hand_no}/verify/", "get"): ("verifyHand", "hands"),
    ("/api/v1/tables/{table_id}/hands/{hand_no}/history.txt", "get"): ("getHandHistoryText", "hands"),
    ("/api/v1/tables/{table_id}/hands/{hand_no}/history.phh", "get"): ("getHandHistoryPhh", "hands"),
    ("/api/v1/tables/{table_id}/replay/", "get"): ("getReplay", "hands"),
    ("/api/v1/wallets/me/", "get"): ("getMyWallets", "ledger"),
    ("/api/v1/wallets/me/transactions/", "get"): ("listMyWalletLines", "ledger"),
    ("/api/v1/me/payouts/", "get"): ("listMyPayouts", "payouts"),
    ("/api/v1/wallets/{username}/deposits/", "post"): ("createDeposit", "ledger"),
    ("/api/v1/deposits/", "get"): ("listDeposits", "ledger"),
    ("/api/v1/deposits/{deposit_id}/approve/", "post"): ("approveDeposit", "ledger"),
    ("/api/v1/deposits/{deposit_id}/reject/", "post"): ("rejectDeposit", "ledger"),
    ("/api/v1/ledger/transactions/", "get"): ("listTransactions", "ledger"),
    ("/api/v1/payouts/", "get"): ("listPayouts", "payouts"),
    ("/api/v1/payouts/report/", "get"): ("getPayoutsReport", "payouts"),
    ("/api/v1/payouts/{payout_id}/approve/", "post"): ("approvePayout", "payouts"),
    ("/api/v1/payouts/{payout_id}/reject/", "post"): ("rejectPayout", "payouts"),
    ("/api/v1/disputes/", "get"): ("listMyDisputes", "disputes"),
    ("/api/v1/disputes/", "post"): ("fileDispute", "disputes"),
    ("/api/v1/disputes/queue/", "get"): ("listDisputesQueue", "disputes"),
    ("/api/v1/disputes/report/", "get"): ("getDisputesReport", "disputes"),
    ("/api/v1/disputes/{dispute_id}/", "get"): ("getDispute", "disputes"),
    ("/api/v1/disputes/{dispute_id}/review/", "get"): ("getDisputeReview", "disputes"),
    ("/api/v1/disputes/{dispute_id}/take/", "post"): ("takeDispute", "disputes"),
    ("/api/v1/disputes/{dispute_id}/decide/", "post"): ("decideDispute", "disputes"),
    ("/api/v1/disputes/{dispute_id}/approve/", "post"): ("approveDisputeCompensation", "disputes"),
    ("/api/v1/disputes/{dispute_id}/decline/", "post"): ("declineDisputeCompensation", "disputes"),
}

TAGS = [
    {"name": "auth", "description": "Accounts and tokens."},
    {"name": "games", "description": "The games this service plays and their options."},
    {"name": "tables", "description": "Creating, joining and starting tables."},
    {"name": "play", "description": "Acting at a table and following its events."},
    {"name": "hands", "description": "Finished hands: audits, verification, histories, replays."},
    {"name": "ledger", "description": "Wallets, transactions and deposits."},
    {"name": "payouts", "description": "Your payouts, and staff review of payouts."},
    {"name": "disputes", "description": "Disputed hands: filing, the auditors' queue, decisions, compensation."},
    {"name": "ops", "description": "Health and metrics."},
    {"name": "languages", "description": "The languages answers come in, and the one you read them in."},
]

# The objects left free on purpose, each with the reason: every other object a client reads names
# its properties (tests/api/test_contract.py fails on one that does not).
FREE_OBJECTS = {
    "/components/schemas/AuditEventSecret": (
        "An event's secret fields exactly as recorded (server seeds, hidden cards), by event type and "
        "record version: an auditor recomputes the event's hash from them, so they are shown as stored."
    ),
    "/components/schemas/Error/properties/fields": (
        "What is wrong with each request field, keyed by the request's own field names and nested as "
        "the request is (a field of `stake` under `stake`); the keys are the request's, not ours."
    ),
}

# What a success says where the operation gives no words of its own.
SUCCESS_DESCRIPTIONS = {
    "200": "Done; the answer.",
    "201": "Created; the new resource.",
    "202": "Accepted; it is under way.",
    "204": "Done; no body.",
    "304": "Not modified since the `ETag` sent in `If-None-Match`; no body.",
}


def _errors(path: str, method: str, operation: dict[str, Any]) -> None:
    """The operation's error responses, exactly the statuses ``api.problems`` gives it: each with
    its codes as an enum of ``code`` and said in its description. A view's own words for a status
    come first; a status a view declared that no code of the inventory is answered with goes."""
    responses = operation.setdefault("responses", {})
    answered = problems.answers(problems.Operation.of(path, method, operation))
    for status in [status for status in responses if status[0] in "45" and int(status) not in answered]:
        del responses[status]
    for status, codes in answered.items():
        own = responses.get(str(status), {}).get("description", "")
        said = problems.description(codes)
        responses[str(status)] = {
            "description": f"{own} {said}" if own and own != "No response body" else said,
            "content": {"application/json": {"schema": _error_schema(codes)}},
        }


def _error_schema(codes: list[problems.Code]) -> dict[str, Any]:
    """The problem (``Error``) with ``code`` one of ``codes``."""
    return {
        "allOf": [
            {"$ref": REF + "Error"},
            {
                "type": "object",
                "properties": {"code": {"type": "string", "enum": [code.code for code in codes]}},
                "required": ["code"],
            },
        ]
    }


def _is_integer(schema: dict[str, Any]) -> bool:
    return schema.get("type") == "integer" or any(_is_integer(s) for s in schema.get("anyOf", []))


def _money_shown(schema: dict[str, Any]) -> None:
    """The schema of ``ledger.units.money_shown``'s output: an integer under a money name is
    shown as a decimal string (``None`` at a table without money), its integer as ``<name>_minor``."""
    props = schema.get("properties")
    if not isinstance(props, dict):
        return
    for name in [key for key in props if key in MONEY_KEYS and _is_integer(props[key])]:
        props[name] = {"type": ["string", "null"], "description": "Money as a decimal string, e.g. `10.00`."}
        props[f"{name}_minor"] = {"type": "integer", "description": f"`{name}` in minor units."}
        if name in schema.get("required", []):
            schema["required"].append(f"{name}_minor")


def _game_components(schemas: dict[str, Any]) -> None:
    events, legal, views = [], [], {}
    for decider in registry.all_games():
        generated = game_schemas(decider)
        for schema in generated.values():
            _money_shown(schema)
        schemas.update(generated)
        prefix = prefix_of(decider.slug)
        events.append({"$ref": REF + prefix + "Event"})
        if prefix + "LegalAction" in schemas:
            legal.append({"$ref": REF + prefix + "LegalAction"})
        if prefix + "View" in schemas:
            views[decider.slug] = REF + prefix + "View"
    schemas["EventData"] = {"anyOf": events, "description": "An event's data: one of its game's events, by `type`."}
    schemas["LegalAction"] = {"anyOf": legal, "description": "An action of the table's game, by `type`."}
    schemas["GameView"] = {
        "oneOf": [{"$ref": ref} for ref in views.values()],
        "discriminator": {"propertyName": "game", "mapping": views},
        "description": "The table's game as the caller's seat sees it, told apart by `game`.",
    }
    # The action a client sends: any game's action type, with the fields its legal action lists
    # (sending a legal action back as it came is always well formed) and the chosen values.
    types: set[str] = set()
    fields: dict[str, Any] = {}
    for name, schema in schemas.items():
        if "Action" in name and isinstance(schema.get("properties"), dict) and "type" in schema["properties"]:
            types.update(schema["properties"]["type"].get("enum", []))
            for field, field_schema in schema["properties"].items():
                if field != "type":
                    fields.setdefault(field, field_schema)
    schemas["Action"] = {
        "type": "object",
        "description": "What a seat does: a legal action as listed, with any chosen value (`amount`, `discard`).",
        "properties": {"type": {"type": "string", "enum": sorted(types)}, **fields},
        "required": ["type"],
    }


# What a table view's ``legal_actions`` offers: exactly what the server accepts from the caller now.
LEGAL_ACTIONS = (
    "Exactly what you may post as `action` now, and all of it: a type listed is accepted (with any "
    "`amount`, `discard` or `show` chosen from the ranges given), any other is refused (422). "
    "Playing your seat: the game's moves on your turn, and `sit_out` and `leave` as the game allows "
    "(CM-20). Sitting out: `sit_in`, and `leave` as the game allows, never the moves the table's bot "
    "plays for you. Gone (you left): nothing. The table's owner, seated or not, is also offered the "
    "owner's commands while the game takes them (`end_match` in a Whiskey Poker pot match, "
    "`end_table` at a Five-Card Draw cash table). Empty for a spectator and unless the table is running."
)


def _game_table(table: dict[str, Any], slug: str, prefix: str) -> dict[str, Any]:
    """The table schema of one game: its ``game``, config, view and legal actions."""
    props = {
        **table["properties"],
        "game": {"type": "string", "enum": [slug]},
        "config": {"$ref": REF + prefix + "Config"},
        "state": {"anyOf": [{"$ref": REF + prefix + "View"}, {"type": "null"}]},
        "legal_actions": {
            "type": "array",
            "items": {"$ref": REF + prefix + "LegalAction"},
            "description": LEGAL_ACTIONS,
        },
    }
    return {**table, "title": prefix + "Table", "properties": props}


def _money_terms(config: dict[str, Any]) -> None:
    """The money terms every table's config carries beside its options (``settlement.Stake``)."""
    config["properties"].update(
        {
            "currency": {"type": ["string", "null"], "description": "The table's currency; null without money."},
            "chip_value": {"type": "integer", "description": "What a chip is worth (chip games)."},
            "stake": {"type": "integer", "description": "What each player puts in (the other games)."},
        }
    )
    config["required"] = [*config["required"], "currency", "chip_value", "stake"]


def _wire(schemas: dict[str, Any]) -> None:
    """Point the generic schemas' free-form objects at the typed ones: a table is one of the games'
    tables, told apart by ``game``, each with its own config, view and legal actions."""
    table = schemas.pop("Table", None)
    tables, mapping = [], {}
    for decider in registry.all_games():
        prefix = prefix_of(decider.slug)
        schemas[prefix + "Config"] = config_schema(decider)
        _money_terms(schemas[prefix + "Config"])
        _money_shown(schemas[prefix + "Config"])
        # A game without a view type (the test suite's counter) has no table of its own here.
        if table is not None and prefix + "View" in schemas:
            schemas[prefix + "Table"] = _game_table(table, decider.slug, prefix)
            tables.append({"$ref": REF + prefix + "Table"})
            mapping[decider.slug] = REF + prefix + "Table"
    if table is not None:
        schemas["Table"] = {
            "oneOf": tables,
            "discriminator": {"propertyName": "game", "mapping": mapping},
            "description": table.get("description", ""),
        }
    error = schemas.get("Error")
    if error and "legal_actions" in error.get("properties", {}):
        error["properties"]["legal_actions"]["description"] = (
            "What you are offered now, the same list as the table view's `legal_actions` "
            "(422: `illegal_action`, `sitting_out`, `seat_left` and the game's own codes)."
        )
        error["properties"]["legal_actions"]["items"] = {"$ref": REF + "LegalAction"}
        error["properties"]["legal"]["items"] = {"$ref": REF + "LegalAction"}
    option = schemas.get("GameOption")
    if option:
        option["properties"]["default"] = {
            "anyOf": [{"type": "integer"}, {"type": "boolean"}, {"type": "string"}],
            "description": "The value a table gets when the option is left out, of the option's `type`.",
        }
    replay = schemas.get("Replay")
    if replay:
        replay["properties"]["state"] = {"anyOf": [{"$ref": REF + "GameView"}, {"type": "null"}]}
    for name in ("Event", "ReplayEvent"):
        if name in schemas:
            schemas[name]["properties"]["data"] = {"$ref": REF + "EventData"}
    for name in ("ActionRequest",):
        if name in schemas:
            schemas[name]["properties"]["action"] = {"$ref": REF + "Action"}


def _audit(schemas: dict[str, Any]) -> None:
    """A hand audit is one of the games' audits, told apart by ``game``, each listing its game's
    events as recorded: an event is one of the game's, told apart by ``type``, its ``data`` the
    event's recorded public fields (``record_schemas``). Each event is a whole object, not the
    generic one narrowed with ``allOf``, which generators cannot merge."""
    base, audit = schemas.pop("AuditEvent", None), schemas.pop("HandAudit", None)
    if base is None or audit is None:
        return
    schemas["AuditEventSecret"] = base["properties"]["secret"]
    audits, mapping = [], {}
    for decider in registry.all_games():
        prefix = prefix_of(decider.slug)
        records, components = record_schemas(decider)
        for schema in components.values():
            if not schema.get("properties"):
                schema["maxProperties"] = 0  # an event without fields is recorded as {}
        schemas.update(components)
        by_type = {}
        for type_name, name in records.items():
            variant = prefix + type_name + "AuditEvent"
            props = {
                **base["properties"],
                "type": {"type": "string", "enum": [type_name]},
                "data": {"$ref": REF + name},
                "secret": {"$ref": REF + "AuditEventSecret"},
            }
            schemas[variant] = {**base, "title": variant, "properties": props}
            by_type[type_name] = REF + variant
        schemas[prefix + "AuditEvent"] = {
            "oneOf": [{"$ref": ref} for ref in by_type.values()],
            "discriminator": {"propertyName": "type", "mapping": by_type},
            "description": f"A recorded {decider.name} event, told apart by `type`.",
        }
        events = {"type": "array", "items": {"$ref": REF + prefix + "AuditEvent"}}
        props = {**audit["properties"], "game": {"type": "string", "enum": [decider.slug]}, "events": events}
        schemas[prefix + "HandAudit"] = {**audit, "title": prefix + "HandAudit", "properties": props}
        audits.append({"$ref": REF + prefix + "HandAudit"})
        mapping[decider.slug] = REF + prefix + "HandAudit"
    schemas["HandAudit"] = {
        "oneOf": audits,
        "discriminator": {"propertyName": "game", "mapping": mapping},
        "description": audit.get("description", "A finished hand's audit, told apart by `game`."),
    }


def _walk(node: Any, fix: Callable[[dict[str, Any]], None]) -> None:
    """Call ``fix`` on every object of ``node``, the innermost first."""
    if isinstance(node, list):
        for item in node:
            _walk(item, fix)
    elif isinstance(node, dict):
        for value in node.values():
            _walk(value, fix)
        fix(node)


def _nullable_31(schema: dict[str, Any]) -> None:
    """OpenAPI 3.0's ``nullable: true``, which a few of drf-spectacular's schemas (the paginators')
    still carry under 3.1 where it means nothing, as 3.1's ``null`` type."""
    if schema.pop("nullable", False):
        kind = schema.get("type")
        if isinstance(kind, str):
            schema["type"] = [kind, "null"]
        elif isinstance(kind, list) and "null" not in kind:
            kind.append("null")


def _requests(schemas: dict[str, Any]) -> None:
    """Request bodies as strict as the server: its serializers refuse unknown fields, so the
    document says ``additionalProperties: false``; what the server checks by name is an enum."""
    for name, schema in schemas.items():
        if name.endswith("Request") and schema.get("type") == "object":
            schema["additionalProperties"] = False
    schemas["Action"]["additionalProperties"] = False
    create = schemas.get("CreateTableRequest")
    if create:
        _create_table_requests(schemas)
    deposit = schemas.get("DepositRequest")
    if deposit:
        deposit["properties"]["currency"] = {"type": "string", "enum": sorted(CURRENCIES)}
        deposit["required"] = ["currency", "amount"]
    seed = schemas.get("ClientSeedRequest")
    if seed:
        # Printable ASCII without '|' (the seed is joined with '|' in the fairness proof).
        seed["properties"]["client_seed"]["pattern"] = r"^[ -{}~]*$"
    reject = schemas.get("RejectRequest")
    if reject:
        # Words, and no NUL: DRF's text fields refuse one.
        reject["properties"]["reason"]["pattern"] = r"^[^\x00]*[^\x00\s][^\x00]*$"
    for name, schema in schemas.items():
        if name.endswith("Request"):
            _walk(schema, _defaults_said)
            for field in schema.get("properties", {}).values():
                if field.get("type") == "string" and not {"format", "pattern", "enum"} & set(field):
                    field["pattern"] = NO_NUL


def _defaults_said(schema: dict[str, Any]) -> None:
    """A request's defaults in words, not as ``default``: generators with their default settings
    (openapi-typescript's ``defaultNonNullable``) make a property with a ``default`` required, and
    an option a client may leave out must stay optional. The server fills the default in."""
    if "default" in schema and "type" in schema:
        default = schema.pop("default")
        said = f"Default: `{json.dumps(default)}`."
        schema["description"] = f"{schema['description']} {said}" if schema.get("description") else said


def _create_table_requests(schemas: dict[str, Any]) -> None:
    """``CreateTableRequest`` as one request per game, told apart by ``game``: each with its seats,
    its own options and the stake."""
    stake = _stake()
    variants, mapping = [], {}
    for decider in registry.all_games():
        name = prefix_of(decider.slug) + "CreateTableRequest"
        schemas[name] = {
            "type": "object",
            "properties": {
                "game": _slug(decider),
                "seats": {"type": "integer", "minimum": decider.min_players, "maximum": decider.max_players},
                "options": options_schema(decider),
                "stake": stake,
            },
            "required": ["game", "seats"],
            "additionalProperties": False,
        }
        variants.append({"$ref": REF + name})
        mapping[decider.slug] = REF + name
    schemas["CreateTableRequest"] = {
        "oneOf": variants,
        "discriminator": {"propertyName": "game", "mapping": mapping},
        "description": "A new table of one game: its seats, options and money.",
    }


def _slug(decider: Any) -> dict[str, Any]:
    """A new table's ``game``: the game's slug; a former one is still taken, and said so."""
    slug: dict[str, Any] = {"type": "string", "enum": [decider.slug]}
    if decider.former_slugs:
        former = ", ".join(f"`{name}`" for name in decider.former_slugs)
        slug["description"] = f"The game's slug. Its former slug ({former}) is still taken, and answered as this."
    return slug


def _stake() -> dict[str, Any]:
    """A new table's money: a currency with an amount or a chip value, or none."""
    return {
        "description": "The table's money: a `currency` with a stake `amount` or a `chip_value` (decimal strings).",
        "anyOf": [
            {
                "type": "object",
                "properties": {
                    "currency": {"type": "string", "enum": sorted(CURRENCIES)},
                    "amount": {"type": "string", "pattern": r"^[0-9]{1,12}(\.[0-9]{1,3})?$"},
                    "chip_value": {"type": "string", "pattern": r"^[0-9]{1,12}(\.[0-9]{1,3})?$"},
                },
                "required": ["currency"],
                "additionalProperties": False,
            },
            {"type": "object", "maxProperties": 0, "description": "No money, as null."},
            {"type": "null"},
        ],
    }


# Where the id of a table created by ``createTable`` leads: schemathesis follows these links in its
# stateful phase, and clients generated from the document learn what to do next.
TABLE_LINKS = (
    "getTable",
    "joinTable",
    "addBot",
    "startTable",
    "postAction",
    "listEvents",
    "listHands",
    "leaveTable",
    "setClientSeed",
    "getReplay",
)


def _links(paths: dict[str, Any]) -> None:
    by_id = {op["operationId"]: op for item in paths.values() for op in item.values()}
    created = by_id.get("createTable", {}).get("responses", {}).get("201")
    if created is not None:
        created["links"] = {
            name: {"operationId": name, "parameters": {"table_id": "$response.body#/id"}}
            for name in TABLE_LINKS
            if name in by_id
        }
    payouts = by_id.get("listPayouts", {}).get("responses", {}).get("200")
    if payouts is not None:
        payouts["links"] = {
            name: {"operationId": name, "parameters": {"payout_id": "$response.body#/results/0/id"}}
            for name in ("approvePayout", "rejectPayout")
        }


ACCEPT_LANGUAGE = {
    "name": "Accept-Language",
    "in": "header",
    "required": False,
    "schema": {"type": "string"},
    "description": "The language of the answer's words (`en`, `es-mx`, `fa`; `es` and `es-ES` get `es-mx`). "
    "A signed-in person's preference (`me/language/`) wins over it; neither: English.",
}
CONTENT_LANGUAGE = {
    "description": "The language the answer's words are in (`en`, `es-mx` or `fa`).",
    "schema": {"type": "string"},
}


def _header(description: str, **schema: Any) -> dict[str, Any]:
    return {"description": description, "schema": {"type": "string", **schema}}


# The headers an answer may carry, declared where they are sent (CORS_EXPOSE_HEADERS lets a browser
# read them); tests/api/contract.py fails on an answer with one its operation does not declare.
REQUEST_ID = _header("The request's id: the `X-Request-ID` sent (up to 64 of `A-Z a-z 0-9 - _ .`), or one made for it.")
RETRY_AFTER = _header("Seconds to wait before trying again, as `retry_after` says.", pattern=r"^[0-9]+$")
REPLAYED = _header(
    "`true` when this is the first answer to the same `Idempotency-Key` and body, replayed.", enum=["true"]
)
RATE_LIMIT_POLICY = _header(
    'The limits that counted this request (IETF draft RateLimit headers): per limit, `"<name>";q=<requests>;w=<seconds>`, '
    'e.g. `"user";q=1200;w=60`.'
)
RATE_LIMIT = _header(
    'What is left of each limit: `"<name>";r=<requests left>;t=<seconds until the window ends>`, e.g. '
    '`"user";r=1187;t=42`. An estimate: a process tells its counts to the others in batches.'
)
ETAG = _header("The view's tag: send it as `If-None-Match` and an unchanged table answers 304 without a body.")


def _headers(status: str, response: dict[str, Any], parameters: list[dict[str, Any]]) -> None:
    headers = response.setdefault("headers", {})
    headers["X-Request-ID"] = dict(REQUEST_ID)
    # Every operation is throttled (DEFAULT_THROTTLE_CLASSES; the logins by their own limits too).
    headers["RateLimit-Policy"] = dict(RATE_LIMIT_POLICY)
    headers["RateLimit"] = dict(RATE_LIMIT)
    if status in ("429", "503"):
        headers["Retry-After"] = dict(RETRY_AFTER)
    names = {parameter.get("name") for parameter in parameters if parameter.get("in") == "header"}
    if status.startswith("2") and "Idempotency-Key" in names:
        headers["Idempotent-Replayed"] = dict(REPLAYED)
    if status in ("200", "304") and "If-None-Match" in names:
        headers["ETag"] = dict(ETAG)


def _languages(operation: dict[str, Any]) -> None:
    """Every operation takes ``Accept-Language`` and every answer says ``Content-Language``
    (api/languages.py): the header is read in one place for all of them."""
    parameters = operation.setdefault("parameters", [])
    if not any(p.get("in") == "header" and p.get("name") == "Accept-Language" for p in parameters):
        parameters.append(dict(ACCEPT_LANGUAGE))
    for response in operation.get("responses", {}).values():
        response.setdefault("headers", {})["Content-Language"] = dict(CONTENT_LANGUAGE)


# What a text path or query parameter may hold: no C0 control character nor DEL (the edge answers
# 400 to one, ``api.errors.ControlCharactersMiddleware``), so the document says so.
NO_CONTROL_CHARACTERS = r"^[^\x00-\x1f\x7f]*$"
# What a text field of a request body may hold: anything but NUL, which DRF's text fields refuse.
NO_NUL = r"^[^\x00]*$"


def _texts_said(operation: dict[str, Any]) -> None:
    """Every text path and query parameter without a format, a pattern or a list of values of its
    own takes no control character."""
    for parameter in operation.get("parameters", []):
        schema = parameter.get("schema", {})
        if parameter.get("in") not in ("path", "query") or schema.get("type") != "string":
            continue
        if not {"format", "pattern", "enum"} & set(schema):
            schema["pattern"] = NO_CONTROL_CHARACTERS


def postprocess(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    _walk(result, _nullable_31)
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    _game_components(schemas)
    _wire(schemas)
    _audit(schemas)
    _requests(schemas)
    result["tags"] = TAGS
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            named = OPERATIONS.get((path, method))
            if named:
                operation["operationId"], tag = named
                operation["tags"] = [tag]
            _errors(path, method, operation)
            _texts_said(operation)
            responses = operation["responses"]
            for status, response in responses.items():
                # Every status says when it is answered, the ones a view declared without words too.
                words = SUCCESS_DESCRIPTIONS.get(status)
                if not response.get("description") or response["description"] == "No response body":
                    response["description"] = words or response.get("description", "")
                _headers(status, response, operation.get("parameters", []))
            if path.startswith("/api/"):
                _languages(operation)
        # Server-sent events: the stream's media type, each event's data a JSON text.
        if path.endswith("/stream/") and "get" in operations:
            ok = operations["get"]["responses"].get("200", {})
            ok["content"] = {"text/event-stream": {"schema": {"type": "string"}}}
    _links(result.get("paths", {}))
    return result
