"""The OpenAPI document's words for the streams (``api.streams``): what a stream sends, how it
ends, and the parameters the two share."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse


def ends_described(*, table: bool) -> str:
    """The schema's words for how a stream ends by itself (docs/api.md, "How a stream ends")."""
    codes = (
        "`token_revoked` (the token was revoked or logged out), `token_expired`, `session_ended` (the "
        "browser session logged out or expired), `account_inactive`"
    )
    if table:
        codes += ", `table_finished` (every event of the finished table was sent)"
    return (
        "The stream's last message, when it ends by itself, is `event: stream_end` with `data: "
        '{"code", "detail"}` (no `id`; `detail` in the reader\'s language); `code` says why: '
        + codes
        + ". A revocation ends the token's streams within a second, an expiry at the next heartbeat. "
        "A reconnect after it is refused (401)" + (" or, for a finished table, answered 204." if table else ".")
    )


STREAM_RESPONSE = OpenApiResponse(
    description="text/event-stream. Opened with no position (no `Last-Event-ID`, no `after`), its first "
    "message is `event: table` with `id:` the table's version and `data:` the caller's view of the "
    "table, as `GET /tables/{id}/` answers it: an EventSource that reconnects resumes after it. Then, "
    "and from a position, one message per event (`id:` its seq, `event:` its type, `data:` the "
    "caller's view of the event, as the events endpoint gives it) and a comment every "
    "STREAM_HEARTBEAT_SECONDS. A position more than STREAM_RESUME_LIMIT events behind the table is "
    "answered `409 resume_too_old` with `catch_up`, the events endpoint to read from first. With "
    "`view=true`, after the events of each wake one message `event: table` (no `id`) whose `data` is "
    "the caller's view of the table at a version no older than the last event sent: a client redraws "
    "from it without asking again. " + ends_described(table=True)
)

VIEW_PARAMETER = OpenApiParameter(
    "view",
    bool,
    required=False,
    description="`true`: after the events of each wake, the caller's view of the table (`event: table`).",
)


FINISHED_RESPONSE = OpenApiResponse(
    description="The table has finished and nothing after the resume point is left to send: no stream "
    "(an EventSource stops reconnecting on 204)."
)
