"""One envelope for every list the API answers:

``{"results": [...], "next_cursor": "<opaque>" | null, "has_more": true | false}``

Ask for the next page with ``?cursor=<next_cursor>``; ``?limit=`` sets the page size up to the
list's maximum (``MAX_LIMIT``, 100; the events page allows ``EVENTS_MAX_LIMIT``, 500). Nothing
stops silently: ``has_more`` says whether another page follows."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlparse

from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import NotFound
from rest_framework.pagination import CursorPagination
from rest_framework.response import Response

from api.parsers import is_whole_number
from games.engine.words import T
from games.errors import InvalidRequest

DEFAULT_LIMIT = 50
MAX_LIMIT = 100

PARAMETERS = [
    OpenApiParameter("cursor", str, required=False, description="The `next_cursor` of the previous page."),
    OpenApiParameter(
        "limit",
        {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
        required=False,
        description=f"Page size, 1 to {MAX_LIMIT}.",
    ),
]


def limit_of(query_params, *, default: int = DEFAULT_LIMIT, maximum: int = MAX_LIMIT) -> int:
    """The ``limit`` query parameter, refused (not clamped silently) outside 1..``maximum``."""
    raw = query_params.get("limit")
    # An empty ``limit=`` is no number: refused like any other (schemathesis: the document says integer).
    if raw is None:
        return default
    if not is_whole_number(raw) or not 1 <= int(raw) <= maximum:
        raise InvalidRequest(
            T("'limit' must be a whole number from 1 to {most}, not {limit}.", most=maximum, limit=repr(raw)),
            field="limit",
        )
    return int(raw)


def list_page(
    items: list[Any], query_params, *, position, default: int = DEFAULT_LIMIT
) -> tuple[list[Any], str | None]:
    """A page of ``items`` (already in the list's order) after the cursor, and the next cursor.
    ``position(item)`` is the item's cursor text, unique in the list."""
    limit = limit_of(query_params, default=default)
    cursor = query_params.get("cursor")
    start = 0
    if cursor:
        positions = [position(item) for item in items]
        if cursor not in positions:
            raise InvalidRequest(T("{cursor} is not a cursor of this list.", cursor=repr(cursor)), field="cursor")
        start = positions.index(cursor) + 1
    page = items[start : start + limit]
    more = start + limit < len(items)
    return page, (position(page[-1]) if more and page else None)


def envelope(results: list[Any], next_cursor: str | None, **extra: Any) -> dict[str, Any]:
    return {**extra, "results": results, "next_cursor": next_cursor, "has_more": next_cursor is not None}


class Cursor(CursorPagination):
    """DRF's cursor pagination over a queryset, answered in the one envelope. ``ordering`` is the
    queryset's newest-first order."""

    cursor_query_param = "cursor"
    page_size = DEFAULT_LIMIT
    page_size_query_param = "limit"
    max_page_size = MAX_LIMIT
    ordering = ("-created_at", "-pk")

    def decode_cursor(self, request):  # type: ignore[no-untyped-def]
        """DRF answers a cursor it cannot read with 404; it is a bad parameter (400), as the lists
        paged by ``list_page`` say."""
        try:
            return super().decode_cursor(request)
        except NotFound:
            raise InvalidRequest(
                T(
                    "{cursor} is not a cursor of this list.",
                    cursor=repr(request.query_params.get(self.cursor_query_param)),
                ),
                field="cursor",
            ) from None

    def get_page_size(self, request) -> int:
        return limit_of(request.query_params, default=self.page_size, maximum=self.max_page_size)

    def next_cursor(self) -> str | None:
        link = self.get_next_link() if self.has_next else None
        if link is None:
            return None
        return parse_qs(urlparse(link).query).get(self.cursor_query_param, [None])[0]

    def get_paginated_response(self, data) -> Response:
        return Response(envelope(list(data), self.next_cursor()))

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "object",
            "required": ["results", "next_cursor", "has_more"],
            "properties": {
                "results": schema,
                "next_cursor": {"type": "string", "nullable": True},
                "has_more": {"type": "boolean"},
            },
        }
