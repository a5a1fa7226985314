"""A TCP forwarder between a store and its PostgreSQL server, to take the server away in
the middle of a test (every connection through it is cut at once)."""

from __future__ import annotations

import contextlib
import socket
import threading
from typing import Any

from psycopg.conninfo import conninfo_to_dict, make_conninfo


class Cable:
    """Forwards `127.0.0.1:<port>` to the server of `dsn`; `dsn` of the cable itself is
    the same DSN through it."""

    def __init__(self, dsn: str) -> None:
        target = conninfo_to_dict(dsn)
        self._target = (
            str(target.get("host") or "127.0.0.1"),
            int(str(target.get("port") or 5432)),
        )
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.dsn = make_conninfo(dsn, host="127.0.0.1", port=self._listener.getsockname()[1])
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        self._cut = False
        threading.Thread(target=self._accept, daemon=True).start()

    def __enter__(self) -> Cable:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.cut()

    def cut(self) -> None:
        """Close the listener and every connection: the server is gone for the client."""
        with self._lock:
            self._cut = True
            for sock in [self._listener, *self._open]:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            self._open.clear()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self._target)
            except OSError:
                client.close()
                continue
            with self._lock:
                if self._cut:
                    client.close()
                    server.close()
                    return
                self._open += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=_pump, args=(a, b), daemon=True).start()


def _pump(source: socket.socket, sink: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while data := source.recv(65536):
            sink.sendall(data)
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)
