import os
import re

import django
from asgiref.sync import sync_to_async
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)

# The event streams (api/streams.py): hours long, and idle nearly all of that time.
STREAMS = re.compile(r"/api/v1/(?:tables/[^/]+|me)/stream/$")


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


class Handler(ASGIHandler):
    """Django's ASGI handler, except that a stream is served outside a ``ThreadSensitiveContext``,
    and every other request through the synchronous chain (``_SyncChain``).

    That context gives each request a thread of its own for its synchronous parts (middleware and
    DRF views), and lets it go only when the response ends: a stream would keep an idle thread for
    as long as it is open. A stream's synchronous part (authenticate, find the table, take a slot)
    is short, so streams share asgiref's one thread for it instead; everything else keeps a thread
    per request, so a long poll still holds up nobody."""

    def __init__(self) -> None:
        super().__init__()
        self.requests = _SyncChain()

    async def __call__(self, scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] == "http" and STREAMS.search(scope.get("path", "")):
            await self.handle(scope, receive, send)
            return
        await self.requests(scope, receive, send)


application = Handler()
