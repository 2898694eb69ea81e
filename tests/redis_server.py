"""A real redis-server on 127.0.0.1 for the tests: started on a free port with no
persistence, stopped (and restartable, to test a Redis that goes away) on demand.

Run by hand without ``redis-server`` on PATH, the tests that need it skip and say so;
under CI (``CI=true``) its absence fails them: ``make test`` installs it first."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time

import pytest


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _missing() -> None:
    message = (
        "redis-server is not on PATH: install it (Debian: apt-get install -y redis-server; "
        "`make test` does) to run the tests of RedisStore"
    )
    if os.environ.get("CI", "").lower() in ("true", "1"):
        pytest.fail(message)
    pytest.skip(message)


class RedisServer:
    """One redis-server process; ``stop()`` and ``start()`` again keep the same port."""

    def __init__(self) -> None:
        self.exe = shutil.which("redis-server")
        if self.exe is None:
            _missing()
        self.port = free_port()
        self.folder = tempfile.mkdtemp(prefix="toolhygiene-redis-")
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert self.exe is not None
        self.process = subprocess.Popen(
            [self.exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", self.folder],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=20)
            self.process = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
