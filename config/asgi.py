import asyncio
import contextvars
import os
import re
from concurrent.futures import ThreadPoolExecutor

import django
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.urls import set_script_prefix

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)

# The event streams (api/streams.py): hours long, and idle nearly all of that time.
STREAMS = re.compile(r"/api/v1/(?:tables/[^/]+|me)/stream/$")
# A long poll of a table's events (``events/?wait=``) holds its thread for up to a minute.
LONG_POLL = re.compile(r"/api/v1/tables/[^/]+/events/$")


class _SyncChain(ASGIHandler):
    """Django's ASGI handler with the middleware chain built for synchronous views.

    Every view but the streams is synchronous, and so is most of the middleware. Built for ASGI, the
    chain would go into a thread for the middleware, back to the event loop for the handler's core
    (the last middleware being synchronous), and into the thread again for the view: three switches
    and an event loop task per request, a fifth of a small request's CPU (docs/operations.md). Built
    as WSGI builds it, the whole chain, view included, runs in one switch to the request's thread."""

    def __init__(self) -> None:
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def get_response_async(self, request):  # type: ignore[no-untyped-def]
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


class _PooledChain(_SyncChain):
    """The synchronous chain on a pool of ``WEB_THREADS`` threads kept for the process's life, in one
    switch per request: the request's start, its response and its end (which gives the thread's
    database connection back to the pool) all run on one thread, as a threaded WSGI server runs
    them. A thread made for each request, with its own context, connection wrapper and Celery
    backend, and the switches Django's handler makes for the signals, cost more than the rest of a
    small request's trip through the server (docs/operations.md). Each request runs in a fresh copy
    of the event loop's context, so nothing a request sets in its context outlives it."""

    def __init__(self) -> None:
        super().__init__()
        self.threads = ThreadPoolExecutor(max_workers=settings.WEB_THREADS, thread_name_prefix="request")

    async def __call__(self, scope, receive, send):  # type: ignore[no-untyped-def]
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        loop = asyncio.get_running_loop()
        response = await loop.run_in_executor(
            self.threads, contextvars.copy_context().run, self._respond, scope, body_file
        )
        try:
            await self.send_response(response, send)
        except asyncio.CancelledError:
            pass  # the client went during the answer; it is finished all the same
        finally:
            if response.streaming:
                await loop.run_in_executor(self.threads, contextvars.copy_context().run, response.close)

    def _respond(self, scope, body_file):  # type: ignore[no-untyped-def]
        try:
            set_script_prefix(get_script_prefix(scope))
            signals.request_started.send(sender=self.__class__, scope=scope)
            request, error_response = self.create_request(scope, body_file)
            response = error_response if request is None else self.get_response(request)
            response._handler_class = self.__class__
            # A body already made is finished here, on the thread that made it: request_finished
            # gives this thread's connection back. A streamed body (a static file) ends once sent.
            if not response.streaming:
                response.close()
            return response
        finally:
            body_file.close()


class Handler(ASGIHandler):
    """Django's ASGI handler, except that a stream is served outside a ``ThreadSensitiveContext``,
    a long poll through the synchronous chain on a thread of its own (``_SyncChain``), and every
    other request through that chain on the process's pool of threads (``_PooledChain``).

    That context gives each request a thread of its own for its synchronous parts (middleware and
    DRF views), and lets it go only when the response ends: a stream would keep an idle thread for
    as long as it is open. A stream's synchronous part (authenticate, find the table, take a slot)
    is short, so streams share asgiref's one thread for it instead. A long poll keeps a thread of its
    own, so that waiting polls never hold up the pool's requests."""

    def __init__(self) -> None:
        super().__init__()
        self.long_polls = _SyncChain()
        self.requests = _PooledChain()

    async def __call__(self, scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] == "http":
            path = scope.get("path", "")
            if STREAMS.search(path):
                await self.handle(scope, receive, send)
                return
            if b"wait=" in scope.get("query_string", b"") and LONG_POLL.search(path):
                await self.long_polls(scope, receive, send)
                return
            await self.requests(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


application = Handler()
