"""A scripted HTTP server on 127.0.0.1 for tests: real clients, real sockets, no network.

Each request takes the next scripted reply; every request is recorded with its JSON body
so tests can assert on what a real SDK client actually sent.
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


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


class ScriptedServer:
    def __init__(self) -> None:
        self.replies: deque[Reply] = deque()
        self.default = Reply(404, {"error": {"type": "not_found_error", "message": "no script"}})
        self.requests: list[Seen] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                with server._lock:
                    server.requests.append(
                        Seen(self.command, self.path, dict(self.headers.items()), body)
                    )
                    reply = server.replies.popleft() if server.replies else server.default
                if reply.delay:
                    time.sleep(reply.delay)
                if isinstance(reply.body, (bytes, bytearray)):
                    payload, kind = bytes(reply.body), "application/octet-stream"
                elif isinstance(reply.body, str):
                    payload, kind = reply.body.encode(), "text/html; charset=utf-8"
                else:
                    payload, kind = json.dumps(reply.body).encode(), "application/json"
                try:
                    self.send_response(reply.status)
                    headers = {"content-type": kind, **reply.headers}
                    for key, value in headers.items():
                        self.send_header(key, value)
                    self.send_header("content-length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            do_GET = do_POST = do_PUT = do_DELETE = _handle

        class Quiet(ThreadingHTTPServer):
            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # clients that time out on purpose reset their connections

        self.httpd = Quiet(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()

    def push(self, status: int = 200, body: Any = None, headers: dict[str, str] | None = None,
             delay: float = 0.0) -> None:
        with self._lock:
            self.replies.append(Reply(status, body, headers or {}, delay))

    def reset(self) -> None:
        with self._lock:
            self.replies.clear()
            self.requests.clear()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def closed_port() -> int:
    """A loopback port that nothing listens on (connection refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
