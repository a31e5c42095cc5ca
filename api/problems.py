"""The refusals the API answers, one row per status and kind: the one source of the errors table in
docs/api.md (``python -m api.problems`` prints it; tests/api/test_problems.py holds the two equal)
and of each status's description in the OpenAPI document (``api.schema``)."""

from __future__ import annotations

from typing import NamedTuple


class Problem(NamedTuple):
    status: int
    codes: str
    when: str


PROBLEMS = (
    Problem(
        400,
        "`malformed_request`, `invalid`",
        "not JSON, JSON nested deeper than 20 levels or a number of more than 30 digits "
        "(`JSON_MAX_DEPTH`, `JSON_MAX_NUMBER_DIGITS`), a wrong type, an unknown field; `fields` maps each "
        'field at fault to its messages, `{"stake": ["…"]}`. Types are strict: a field the document types '
        'as a string takes no JSON number (`"client_seed": 5` is refused), an integer no string or '
        'fraction (`"seats": "2"`, `2.0`), and none takes a boolean for a number',
    ),
    Problem(
        400,
        "`authentication_failed`",
        "a wrong username or password when logging in (`auth/token/`, `POST auth/session/`)",
    ),
    Problem(
        401,
        "`not_authenticated`, `authentication_failed`",
        "no token, or one that expired, was revoked or never existed",
    ),
    Problem(
        403,
        "`forbidden`",
        "not your seat, not the owner, not staff; a write made with a session without its `X-CSRFToken`",
    ),
    Problem(404, "`not_found`", "no such table or user"),
    Problem(405, "`method_not_allowed`", "this URL does not take this method"),
    Problem(406, "`not_acceptable`", "no answer in a media type the `Accept` header takes"),
    Problem(
        409,
        "`version_conflict`, `seat_taken`, `already_started`, …",
        "another action got there first (`current_version` says where the table is) or the table is not in "
        "a state for this. A stale `expected_version` answers `409` whatever else is wrong with the action: "
        "reload, then send it again",
    ),
    Problem(409, "`idempotency_key_in_use`", "the same `Idempotency-Key` is in use by another request at this moment"),
    Problem(
        413,
        "`request_too_large`",
        "a body of more than `DATA_UPLOAD_MAX_MEMORY_SIZE` bytes (2.5 MiB; `limit` says how many)",
    ),
    Problem(415, "`unsupported_media_type`", "a body that is not `application/json`"),
    Problem(
        422,
        "`illegal_action`, or the game's own code (`no_openers`, `cannot_leave`, …)",
        "the rules refuse it, or its `type` is not among your `legal_actions` now (the server's own "
        "commands, `timeout`, `play_round`, `start`, are never yours to send); `legal_actions` lists what "
        "you may do",
    ),
    Problem(
        422,
        "`idempotency_key_reused`, `insufficient_funds`",
        "the key was used for another request; the wallet cannot pay",
    ),
    Problem(429, "`throttled`", "too many requests; `retry_after` seconds (and the `Retry-After` header)"),
    Problem(
        429,
        "`too_many_waiting_requests`",
        "you already have 2 `events?wait=` requests waiting (`LONG_POLL_MAX_PER_USER`); ask again once one "
        "answers, or without `wait`",
    ),
    Problem(
        429,
        "`too_many_streams`",
        "you already hold 8 live streams (`STREAMS_MAX_PER_USER`); close one first",
    ),
    Problem(500, "`server_error`", "a fault of ours, logged; `request_id` to quote"),
    Problem(503, "`service_unavailable`", "the database could not be reached; retry after `retry_after` seconds"),
)


def descriptions() -> dict[str, str]:
    """Each status's description in the document: its rows, codes first."""
    by_status: dict[str, list[str]] = {}
    for problem in PROBLEMS:
        by_status.setdefault(str(problem.status), []).append(f"{problem.codes}: {problem.when}.")
    return {status: " ".join(lines) for status, lines in by_status.items()}


def markdown() -> str:
    """The errors table of docs/api.md."""
    rows = ["| status | code | when |", "| --- | --- | --- |"]
    rows += [f"| {problem.status} | {problem.codes} | {problem.when} |" for problem in PROBLEMS]
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
