"""The Redis cache with one client, and so one connection pool, per process.

Django keeps a cache object per thread, and its ``RedisCache`` makes its client (and that client's
connection pool) per cache object. The web process serves each request on a thread of its own
(ASGI), so every request built a new pool and opened a new connection to Redis, left to the garbage
collector afterwards. Here every cache object of a process with the same servers and options uses
one client, whose pools redis-py makes safe to share between threads; a process forked from one
that had it (gunicorn with ``--preload``, a prefork worker) makes its own, since sockets must not
be shared across a fork.

Closing a cache (Django does it at the end of each request, Celery after each task) closes nothing:
the connections stay in the pool for the next request.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient

_lock = threading.Lock()
_clients: dict[str, RedisCacheClient] = {}
_pid = os.getpid()


class SharedRedisCacheClient(RedisCacheClient):
    """Django's client, its pools made under a lock: threads that share it build each pool once."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pools_lock = threading.Lock()

    def _get_connection_pool(self, write: bool) -> Any:
        index = self._get_connection_pool_index(write)
        pool = self._pools.get(index)
        if pool is None:
            with self._pools_lock:
                pool = self._pools.get(index)
                if pool is None:
                    pool = self._pools[index] = self._pool_class.from_url(self._servers[index], **self._pool_options)
        return pool


def shared_client(servers: list[str], options: dict[str, Any]) -> RedisCacheClient:
    """This process's client for ``servers`` with ``options``, made on first use."""
    global _pid
    key = repr((servers, sorted(options.items())))
    with _lock:
        if _pid != os.getpid():
            # Forked: the parent's clients hold the parent's sockets. Left alone, not closed, so
            # the parent's connections stay whole.
            _clients.clear()
            _pid = os.getpid()
        client = _clients.get(key)
        if client is None:
            client = _clients[key] = SharedRedisCacheClient(servers, **options)
        return client


class RedisCache(DjangoRedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with this process's shared client."""

    @property
    def _cache(self) -> RedisCacheClient:  # type: ignore[override]
        found = self.__dict__.get("_shared")
        if found is None or found[0] != os.getpid():
            found = self.__dict__["_shared"] = (os.getpid(), shared_client(self._servers, self._options))
        return found[1]
