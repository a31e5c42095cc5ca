"""The request id and latency of every request, and ``/metrics``.

The metrics themselves are declared in ``games.telemetry``; this module wires them to Django and
adds the gauges read from the database at scrape time.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterator

from django.core.signals import request_finished
from django.db import DatabaseError
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily, Metric

from games import selectors, telemetry

access = logging.getLogger("access")
log = logging.getLogger(__name__)

_METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}
# Probes and scrapes come every few seconds; their lines would bury the requests people make.
_QUIET_ROUTES = {"healthz", "readyz", "metrics"}


class RequestMiddleware:
    """Gives every request an id (``X-Request-ID`` if the caller sent a sane one), answers with it,
    tags every log line of the request with it, and times the request by route."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = telemetry.sane_request_id(request.headers.get("X-Request-ID")) or telemetry.new_request_id()
        # Bound until the request is finished rather than until this returns: Django logs a refused
        # request ("Not Found: ...", django.request) after the middleware, and that line carries it too.
        telemetry.bind_request_id(request_id)
        started = time.perf_counter()
        response = self.get_response(request)
        elapsed = time.perf_counter() - started
        match = getattr(request, "resolver_match", None)
        # The route's name, never the path: paths hold table ids, one label value per table.
        route = (match.view_name if match else "") or "unmatched"
        method = request.method if request.method in _METHODS else "other"
        telemetry.REQUEST_LATENCY.labels(route=route, method=method, status=f"{response.status_code // 100}xx").observe(
            elapsed
        )
        access.log(
            logging.DEBUG if route in _QUIET_ROUTES else logging.INFO,
            "%s %s %s %.1fms",
            request.method,
            request.path,
            response.status_code,
            elapsed * 1000,
            extra={"route": route, "status": response.status_code, "duration_ms": round(elapsed * 1000, 1)},
        )
        response["X-Request-ID"] = request_id
        return response


@receiver(request_finished)
def _request_finished(**_: object) -> None:
    # A worker thread's next lines (or next request, until its own id is bound) are not this request's.
    telemetry.bind_request_id(None)


class BacklogCollector:
    """Gauges computed from the database at each scrape, so every web process reports the same."""

    def collect(self) -> Iterator[Metric]:
        try:
            backlog = selectors.operations_backlog()
        except DatabaseError as exc:
            # The rest of /metrics still answers; /readyz says what is wrong with the database.
            log.warning("metrics: cannot read the backlog gauges: %s", exc)
            return
        yield GaugeMetricFamily(
            "game_deadlines_overdue",
            "Running tables whose deadline has passed and is not yet expired by the sweep.",
            value=backlog["deadlines_overdue"],
        )
        yield GaugeMetricFamily(
            "game_deadline_oldest_overdue_seconds",
            "How long ago the oldest overdue deadline passed (0 when none is).",
            value=backlog["oldest_overdue_seconds"],
        )
        yield GaugeMetricFamily(
            "payouts_pending", "Payouts waiting for a staff decision.", value=backlog["payouts_pending"]
        )


def metrics(request: HttpRequest) -> HttpResponse:
    """Prometheus' text format: this process's metrics, or with ``PROMETHEUS_MULTIPROC_DIR`` those
    of every process writing to that folder (web and worker), and the backlog gauges."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(REGISTRY)
    registry.register(BacklogCollector())
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
