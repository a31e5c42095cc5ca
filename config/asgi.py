import os
import re

import django
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)

# The event streams (api/streams.py): hours long, and idle nearly all of that time.
STREAMS = re.compile(r"/api/v1/(?:tables/[^/]+|me)/stream/$")


class Handler(ASGIHandler):
    """Django's ASGI handler, except that a stream is served outside a ``ThreadSensitiveContext``.

    That context gives each request a thread of its own for its synchronous parts (middleware and
    DRF views), and lets it go only when the response ends: a stream would keep an idle thread for
    as long as it is open. A stream's synchronous part (authenticate, find the table, take a slot)
    is short, so streams share asgiref's one thread for it instead; everything else keeps a thread
    per request, so a long poll still holds up nobody."""

    async def __call__(self, scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] == "http" and STREAMS.search(scope.get("path", "")):
            await self.handle(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


application = Handler()
