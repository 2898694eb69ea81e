"""A scripted HTTP server on 127.0.0.1: real clients, real sockets, no network.

Each request takes the next scripted reply (or the default one); every request is
recorded with its parsed JSON body, so a test can assert on what a real SDK client sent.
Point an SDK at ``server.url`` and script model turns with ``push``.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["Event", "Reply", "ScriptedServer", "Seen", "closed_port"]


Event = tuple[str | None, Any]
"""One server-sent event: its name (or ``None``) and its data (JSON unless a str)."""


@dataclass
class Reply:
    """One scripted answer: status, body (dict/list as JSON, str as HTML, bytes raw),
    headers, a delay before answering (to provoke read timeouts), or ``events`` to
    answer as a stream of server-sent events (what ``stream=True`` clients read)."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    events: list[Event] | None = None


def _event_stream(events: list[Event]) -> bytes:
    out = []
    for name, data in events:
        head = f"event: {name}\n" if name else ""
        text = data if isinstance(data, str) else json.dumps(data)
        out.append(f"{head}data: {text}\n\n")
    return "".join(out).encode()


@dataclass
class Seen:
    """One request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any


class _Quiet(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # clients that time out on purpose reset their connections


class ScriptedServer:
    """Serve scripted replies on 127.0.0.1 until ``stop()``; usable as a context manager."""

    def __init__(self) -> None:
        self.replies: deque[Reply] = deque()
        self.default = Reply(404, {"error": {"type": "not_found_error", "message": "no script"}})
        self.requests: list[Seen] = []
        self._lock = threading.Lock()
        self.httpd = _Quiet(("127.0.0.1", 0), self._handler())
        self.port = int(self.httpd.server_address[1])
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                reply = server._take(Seen(self.command, self.path, dict(self.headers), body))
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.events is not None:
                    payload, kind = _event_stream(reply.events), "text/event-stream"
                elif isinstance(reply.body, (bytes, bytearray)):
                    payload, kind = bytes(reply.body), "application/octet-stream"
                elif isinstance(reply.body, str):
                    payload, kind = reply.body.encode(), "text/html; charset=utf-8"
                else:
                    payload, kind = json.dumps(reply.body).encode(), "application/json"
                try:
                    self.send_response(reply.status)
                    for key, value in {"content-type": kind, **reply.headers}.items():
                        self.send_header(key, value)
                    self.send_header("content-length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            do_GET = do_POST = do_PUT = do_DELETE = _handle  # noqa: N815 - http.server names

        return Handler

    def _take(self, seen: Seen) -> Reply:
        with self._lock:
            self.requests.append(seen)
            return self.replies.popleft() if self.replies else self.default

    def push(
        self,
        status: int = 200,
        body: Any = None,
        headers: dict[str, str] | None = None,
        delay: float = 0.0,
        *,
        events: list[Event] | None = None,
    ) -> None:
        """Script the next reply (``events``: a stream of server-sent events)."""
        with self._lock:
            self.replies.append(Reply(status, body, headers or {}, delay, events))

    def reset(self) -> None:
        """Forget scripted replies and recorded requests."""
        with self._lock:
            self.replies.clear()
            self.requests.clear()

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> ScriptedServer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def closed_port() -> int:
    """A loopback port that nothing listens on (connecting to it is refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
