"""A TCP forwarder of the chaos test's own, put between the shape's processes and PostgreSQL or
Redis so the test can take a service away from them while it keeps its own direct connection.

    with Proxy("127.0.0.1", 5432) as proxy:       # listens on 127.0.0.1:proxy.port
        ...                                        # processes connect to proxy.address
        proxy.cut("reset")                         # or "hang"
        proxy.restore()

``cut`` closes every open connection (with a reset, as a crashed server or a dropped NAT entry
does). Until ``restore``, a new connection is either reset at once (``"reset"``: the service is
down, clients fail fast) or accepted and never answered (``"hang"``: a partition, clients wait on
their own timeouts); the hung ones are reset on ``restore``, as the peer's TCP would eventually.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from typing import Literal

Mode = Literal["reset", "hang"]
_CHUNK = 65536


def _reset(sock: socket.socket) -> None:
    # Linger 0: close sends RST, so the peer sees the connection fail now, not at its next write.
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()


class Proxy:
    def __init__(self, target_host: str, target_port: int, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.target = (target_host, target_port)
        self._listener = socket.create_server((host, port), reuse_port=False)
        self.host, self.port = self._listener.getsockname()[:2]
        self._lock = threading.Lock()
        self._mode: Mode | None = None
        # Every socket of a forwarded pair, and every connection held by a hang.
        self._open: set[socket.socket] = set()
        self._held: set[socket.socket] = set()
        self._closed = False
        self.accepted = 0
        self.refused = 0
        threading.Thread(target=self._accept, name=f"proxy:{self.port}", daemon=True).start()

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def is_cut(self) -> bool:
        return self._mode is not None

    def cut(self, mode: Mode = "reset") -> None:
        with self._lock:
            self._mode = mode
            doomed, self._open = self._open, set()
        for sock in doomed:
            _reset(sock)

    def restore(self) -> None:
        with self._lock:
            self._mode = None
            held, self._held = self._held, set()
        for sock in held:
            _reset(sock)

    def close(self) -> None:
        self._closed = True
        with contextlib.suppress(OSError):
            self._listener.close()
        self.cut()
        self.restore()

    def __enter__(self) -> Proxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- forwarding ----------------------------------------------------------------------------

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                mode = self._mode
                if mode == "hang":
                    self._held.add(client)
            if mode == "reset":
                self.refused += 1
                _reset(client)
            elif mode is None:
                threading.Thread(target=self._connect, args=(client,), daemon=True).start()

    def _connect(self, client: socket.socket) -> None:
        try:
            upstream = socket.create_connection(self.target, timeout=5)
            upstream.settimeout(None)
        except OSError:
            _reset(client)
            return
        for sock in (client, upstream):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with self._lock:
            if self._mode is not None:
                # Cut while connecting: this pair belongs to the outage too.
                pair_allowed = False
            else:
                pair_allowed = True
                self._open.update((client, upstream))
                self.accepted += 1
        if not pair_allowed:
            _reset(client)
            _reset(upstream)
            return
        done = threading.Barrier(2, action=lambda: self._finish(client, upstream))
        threading.Thread(target=self._pump, args=(upstream, client, done), daemon=True).start()
        self._pump(client, upstream, done)

    def _pump(self, source: socket.socket, sink: socket.socket, done: threading.Barrier) -> None:
        try:
            while data := source.recv(_CHUNK):
                sink.sendall(data)
            # An orderly end passes on as one (a reset would discard what the sink has not read yet).
            sink.shutdown(socket.SHUT_WR)
        except OSError:
            # A failed side fails the pair, so neither peer waits on a half-open connection.
            _reset(source)
            _reset(sink)
        with contextlib.suppress(threading.BrokenBarrierError):
            done.wait()

    def _finish(self, client: socket.socket, upstream: socket.socket) -> None:
        with self._lock:
            self._open.discard(client)
            self._open.discard(upstream)
        for sock in (client, upstream):
            with contextlib.suppress(OSError):
                sock.close()
