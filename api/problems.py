"""Every code the API refuses with: its status, when it is answered and which operations answer it.
The one source of the errors table in docs/api.md (``manage.py errors_table`` writes it;
tests/api/test_problems.py fails when the two differ) and of each operation's error responses in
the OpenAPI document (``api.schema``): the statuses it declares, each with its codes as an enum.

A code is answered by operations named by their ``operationId``, or by a kind of operation
(``SCOPES``): every one, the signed-in ones, the ones on a resource by id, the writes, the ones
taking an ``Idempotency-Key``. tests/api/test_problems.py fails on a code raised in the code and
missing here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

EVERY = "every"
SIGNED_IN = "signed-in"
BY_ID = "by-id"
WRITES = "writes"
KEYED = "keyed"

# A kind of operation in the table's words.
SCOPES = {
    EVERY: "every operation",
    SIGNED_IN: "every operation that takes a token or session",
    BY_ID: "every operation on a resource by its id",
    WRITES: "every write (`POST`, `PUT`, `DELETE`)",
    KEYED: "every operation taking an `Idempotency-Key`",
}

# The commands that run through the game's rules: each answers the rules' refusals.
RULED = ("postAction", "leaveTable", "startTable")
HAND_READS = ("getHandAudit", "verifyHand", "getHandHistoryText", "getHandHistoryPhh")
REVIEWS = ("getDisputeReview", "takeDispute", "decideDispute")
COMPENSATION = ("approveDisputeCompensation", "declineDisputeCompensation")


@dataclass(frozen=True, slots=True)
class Code:
    status: int
    code: str
    when: str
    # Kinds of operation (``SCOPES``) and operationIds; none: a guard no request reaches.
    by: tuple[str, ...]


CODES = (
    Code(
        400,
        "malformed_request",
        "the body is not JSON, is nested deeper than 20 levels or has a number of more than 30 digits "
        "(`JSON_MAX_DEPTH`, `JSON_MAX_NUMBER_DIGITS`), or the request cannot be read",
        (EVERY,),
    ),
    Code(
        400,
        "invalid",
        "a wrong type, an unknown field, a value out of range (a body field or a query parameter); `fields` "
        'maps each field at fault to its messages, `{"stake": ["…"]}`. Types are strict: a field the document '
        'types as a string takes no JSON number (`"client_seed": 5` is refused), an integer no string or '
        'fraction (`"seats": "2"`, `2.0`), and none takes a boolean for a number; an integer query parameter is '
        "ASCII digits alone (`limit=50.0`, `after=1.0` are refused). A write that takes no body "
        "(`auth/logout/`, `tables/{id}/start/`, `deposits/{id}/approve/`, …) takes nothing or `{}`: any field "
        "sent is unknown. A path or query parameter "
        "holding a control character (`\\x00` to `\\x1f`, `\\x7f`) is refused before anything reads it",
        (EVERY,),
    ),
    Code(
        400,
        "authentication_failed",
        "a wrong username or password when logging in",
        ("createToken", "createSession"),
    ),
    Code(400, "invalid_reset_link", "the reset link is wrong, used or expired", ("confirmPasswordReset",)),
    Code(400, "unknown_language", "no such language among `GET /languages/`", ("setMyLanguage",)),
    Code(
        400,
        "invalid_amount",
        "an amount that is not a positive decimal with at most the currency's digits",
        ("createTable", "createDeposit", "decideDispute"),
    ),
    Code(400, "unknown_unit", "no such currency", ("createTable", "createDeposit", "decideDispute")),
    Code(
        400,
        "unknown_account",
        "a ledger account key out of its grammar: the ledger's own guard, which no request reaches",
        (),
    ),
    Code(
        400,
        "unbalanced_transaction",
        "postings that do not sum to zero: the ledger's own guard, which no request reaches",
        (),
    ),
    Code(
        401,
        "not_authenticated",
        "no token or session",
        (SIGNED_IN,),
    ),
    Code(
        401,
        "authentication_failed",
        "a token that expired, was revoked or never existed",
        (SIGNED_IN,),
    ),
    Code(403, "forbidden", "not yours to do: not your seat, not the owner, not staff", (EVERY,)),
    Code(403, "csrf_failed", "a write made with a session without its `X-CSRFToken`", (WRITES,)),
    Code(
        403,
        "not_your_hand",
        "you did not play at this table, and are neither staff nor an auditor",
        ("listHands", *HAND_READS, "fileDispute"),
    ),
    Code(
        403,
        "table_not_finished",
        "only a finished table can be replayed (staff can replay any)",
        ("getReplay",),
    ),
    Code(403, "not_auditor", "only auditors and staff review disputes", ("listDisputesQueue", *REVIEWS)),
    Code(
        403,
        "played_at_table",
        "you played at the disputed table, so you cannot review it or approve its compensation",
        (*REVIEWS, *COMPENSATION),
    ),
    Code(403, "not_staff", "only staff do this", ("getDisputesReport", *COMPENSATION)),
    Code(404, "not_found", "no such table, user, token, deposit, payout or dispute", (BY_ID, "fileDispute")),
    Code(404, "no_such_hand", "the table has no hand of this number", (*HAND_READS, "fileDispute")),
    Code(
        404,
        "no_phh",
        "the game has no PHH export for this hand (a standard Five-Card Draw has one only in triple draw); "
        "use `history.txt`",
        ("getHandHistoryPhh",),
    ),
    Code(404, "no_such_payout", "you have no such payout at this table", ("fileDispute",)),
    Code(405, "method_not_allowed", "this URL does not take this method", (WRITES,)),
    Code(406, "not_acceptable", "no answer in a media type the `Accept` header takes", (EVERY,)),
    Code(
        409,
        "version_conflict",
        "another action got there first; `current_version` says where the table is. A stale "
        "`expected_version` answers `409` whatever else is wrong with the action: reload, then send it again. "
        "Sitting out, sitting in, leaving and the owner's commands mean the same at any version and are taken "
        "at the version the table is at",
        ("joinTable", "leaveTable", "removeSeat", "addBot", "startTable", "postAction"),
    ),
    Code(
        409,
        "table_not_open",
        "the table has started: seats are taken and removed only before",
        ("joinTable", "addBot", "removeSeat"),
    ),
    Code(409, "already_started", "the table has already started", ("startTable",)),
    Code(409, "already_seated", "you already have a seat at this table", ("joinTable",)),
    Code(409, "seat_taken", "the seat asked for is taken", ("joinTable", "addBot")),
    Code(409, "table_full", "every seat is taken", ("joinTable", "addBot")),
    Code(409, "table_finished", "the table has finished", ("leaveTable", "setClientSeed")),
    Code(
        409,
        "too_many_tables",
        "you already own as many open or running tables as one person may (`MAX_RUNNING_TABLES_PER_PERSON`, "
        "10; `limit` says how many); finish or end one first (a finished table does not count)",
        ("createTable",),
    ),
    Code(409, "table_not_full", "a table starts only with every seat taken", ("startTable",)),
    Code(409, "table_not_running", "the table is not running: not started, or finished", ("postAction",)),
    Code(409, "hand_in_progress", "the hand is still being played", (*HAND_READS, "fileDispute")),
    Code(409, "dispute_window_closed", "the time to dispute this hand is over", ("fileDispute",)),
    Code(409, "dispute_already_open", "you already have an open dispute of this hand", ("fileDispute",)),
    Code(409, "dispute_taken", "another auditor has taken this dispute", ("takeDispute", "decideDispute")),
    Code(409, "dispute_decided", "the dispute has been decided", ("takeDispute", "decideDispute")),
    Code(
        409,
        "dispute_not_awaiting_approval",
        "the dispute's compensation is not waiting for a staff approval",
        COMPENSATION,
    ),
    Code(
        409,
        "second_approver_needed",
        "under the two-person rule someone else has to decide this (you filed or decided it first)",
        (*COMPENSATION, "approvePayout", "approveDeposit", "rejectDeposit"),
    ),
    Code(409, "payout_decided", "the payout was already approved or rejected", ("approvePayout", "rejectPayout")),
    Code(409, "payout_held", "the payout is held by an open dispute of its hand", ("approvePayout",)),
    Code(
        409,
        "deposit_decided",
        "the deposit was already approved or rejected (a second decision, even the same one, by someone else or "
        "with another reason; the same member's retry answers the first transaction)",
        ("approveDeposit", "rejectDeposit"),
    ),
    Code(409, "already_reversed", "the transaction was already reversed: the ledger's own guard", ()),
    Code(
        409,
        "resume_too_old",
        "the stream was asked to resume more than 500 events behind the table (`STREAM_RESUME_LIMIT`); "
        "read them from `catch_up` (the events endpoint, paged) and open the stream again from the last "
        "one read; `current_version` says where the table is",
        ("streamTable",),
    ),
    Code(
        409,
        "idempotency_key_in_use",
        "the same `Idempotency-Key` is in use by another request at this moment",
        (KEYED,),
    ),
    Code(
        413,
        "request_too_large",
        "a body of more than `DATA_UPLOAD_MAX_MEMORY_SIZE` bytes (2.5 MiB; `limit` says how many)",
        (WRITES,),
    ),
    Code(415, "unsupported_media_type", "a body that is not `application/json`", (WRITES,)),
    Code(
        422,
        "illegal_action",
        "the rules refuse it, or its `type` is not among your `legal_actions` now (the server's own commands, "
        "`timeout`, `play_round`, `start`, are never yours to send); `legal_actions` lists what you may do",
        RULED,
    ),
    Code(422, "not_started", "the game has not started yet", RULED),
    Code(422, "game_over", "the game is over", RULED),
    Code(422, "not_your_turn", "it is another seat's turn (Five-Card Draw)", RULED),
    Code(422, "sitting_out", "you are sitting out: sit in first (CM-20)", ("postAction",)),
    Code(422, "seat_left", "you have left this table (CM-20)", RULED),
    Code(422, "already_sitting_out", "you are already sitting out (CM-20)", RULED),
    Code(422, "not_sitting_out", "you are not sitting out (CM-20)", RULED),
    Code(422, "out_of_game", "you are out of the game (La Viuda, Whiskey Poker)", RULED),
    Code(422, "cannot_leave", "you are no longer at this table (Five-Card Draw)", RULED),
    Code(422, "cannot_end", "only the owner ends a cash table, and only between hands (Five-Card Draw)", RULED),
    Code(422, "no_openers", "you need a pair of jacks or better to open the betting (Five-Card Draw, FD-6)", RULED),
    Code(
        422,
        "no_top_up",
        "no top-up now: a tournament, cards in your hand, leaving, or a bad `chips` (Five-Card Draw, FD-13)",
        RULED,
    ),
    Code(422, "above_max_buy_in", "the top-up would take your stack past `max_buy_in` (FD-13)", RULED),
    Code(422, "stale_timeout", "a timer for a seat no longer awaited (Euchre)", RULED),
    Code(422, "missing_seed", "the match cannot start without the seed of hand 1 (Guerra, GC-2)", RULED),
    Code(
        422,
        "insufficient_funds",
        "the wallet cannot pay (a buy-in, a top-up); `needed` and `balance` say how much",
        ("createTable", "joinTable", "startTable", "postAction"),
    ),
    Code(422, "idempotency_key_reused", "the `Idempotency-Key` was used for another request", (KEYED,)),
    Code(
        422,
        "compensation_over_bound",
        "a compensation over what the player lost on the hand (or at the table), less what was upheld for it "
        "already (`bound`, `lost`, `compensated`, `currency`)",
        ("decideDispute", "approveDisputeCompensation"),
    ),
    Code(
        422,
        "compensation_budget_exceeded",
        "a compensation past the house's budget (`DISPUTE_COMPENSATION_BUDGET`: `budget`, `left`, `currency`)",
        ("decideDispute", "approveDisputeCompensation"),
    ),
    Code(429, "throttled", "too many requests; `retry_after` seconds (and the `Retry-After` header)", (EVERY,)),
    Code(
        429,
        "too_many_waiting_requests",
        "you already have 2 `events?wait=` requests waiting (`LONG_POLL_MAX_PER_USER`); ask again once one "
        "answers, or without `wait`",
        ("listEvents",),
    ),
    Code(
        429,
        "too_many_streams",
        "you already hold 8 live streams (`STREAMS_MAX_PER_USER`); close one first",
        ("streamTable", "streamMyNotices"),
    ),
    Code(
        429,
        "too_many_spectators",
        "the table already has 500 spectators on this server (`STREAM_SPECTATORS_PER_TABLE`, per web "
        "process); retry after `retry_after` seconds. Seated players and the owner are never refused",
        ("streamTable",),
    ),
    Code(500, "server_error", "a fault of ours, logged; `request_id` to quote", (EVERY,)),
    Code(
        503,
        "service_unavailable",
        "the database or the cache could not be reached; retry after `retry_after` seconds",
        (EVERY,),
    ),
)


@dataclass(frozen=True, slots=True)
class Operation:
    """What ``answers`` needs to know of an operation of the document."""

    operation_id: str
    path: str
    method: str
    signed_in: bool
    keyed: bool

    @classmethod
    def of(cls, path: str, method: str, operation: Mapping[str, Any]) -> Operation:
        security = operation.get("security", [])
        headers = {p.get("name") for p in operation.get("parameters", []) if p.get("in") == "header"}
        return cls(
            operation_id=str(operation.get("operationId", "")),
            path=path,
            method=method,
            # drf-spectacular lists ``{}`` among the schemes of a view anyone may call.
            signed_in=security != [{}] and any(security),
            keyed="Idempotency-Key" in headers,
        )

    def is_of(self, scope: str) -> bool:
        return {
            EVERY: True,
            SIGNED_IN: self.signed_in,
            BY_ID: "{" in self.path,
            WRITES: self.method in ("post", "put", "patch", "delete"),
            KEYED: self.keyed,
        }.get(scope, scope == self.operation_id)


def answers(operation: Operation) -> dict[int, list[Code]]:
    """The codes ``operation`` can answer, by status."""
    by_status: dict[int, list[Code]] = {}
    for code in CODES:
        if any(operation.is_of(scope) for scope in code.by):
            by_status.setdefault(code.status, []).append(code)
    return dict(sorted(by_status.items()))


def description(codes: list[Code]) -> str:
    """A status's description in the document: each of its codes with when it is answered."""
    return " ".join(f"`{code.code}`: {code.when}." for code in codes)


def _answered_by(code: Code) -> str:
    if not code.by:
        return "none (a guard)"
    return ", ".join(SCOPES.get(scope, f"`{scope}`") for scope in code.by)


def markdown() -> str:
    """The errors table of docs/api.md."""
    rows = ["| status | code | when | answered by |", "| --- | --- | --- | --- |"]
    rows += [f"| {c.status} | `{c.code}` | {c.when} | {_answered_by(c)} |" for c in CODES]
    return "\n".join(rows) + "\n"


BEGIN = "<!-- errors table: manage.py errors_table writes it from api/problems.py; do not edit -->\n"
END = "<!-- end of the errors table -->\n"


def with_table(text: str) -> str:
    """``text`` (docs/api.md) with the table between its markers made anew."""
    start = text.index(BEGIN) + len(BEGIN)
    return text[:start] + markdown() + text[text.index(END, start) :]
