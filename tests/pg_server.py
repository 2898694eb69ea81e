"""A minimal PostgreSQL wire-protocol peer on 127.0.0.1: it accepts any login, then
answers every query with an ErrorResponse carrying a scripted SQLSTATE, so psycopg raises
its real exception classes without a database server."""

from __future__ import annotations

import socket
import struct
import threading


def _message(kind: bytes, payload: bytes) -> bytes:
    return kind + struct.pack("!I", len(payload) + 4) + payload


def _error(sqlstate: str, text: str) -> bytes:
    fields = b"".join(k + v.encode() + b"\0" for k, v in
                      ((b"S", "ERROR"), (b"V", "ERROR"), (b"C", sqlstate), (b"M", text)))
    return _message(b"E", fields + b"\0")


READY = _message(b"Z", b"I")


class PgServer:
    def __init__(self) -> None:
        self.sqlstate = "23505"
        self.text = "duplicate key value violates unique constraint"
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._session, args=(conn,), daemon=True).start()

    @staticmethod
    def _read(conn: socket.socket, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = conn.recv(n - len(data))
            if not chunk:
                raise ConnectionError
            data += chunk
        return data

    def _session(self, conn: socket.socket) -> None:
        try:
            with conn:
                while True:  # startup, after refusing SSL/GSS encryption requests
                    length = struct.unpack("!I", self._read(conn, 4))[0]
                    body = self._read(conn, length - 4)
                    code = struct.unpack("!I", body[:4])[0]
                    if code in (80877103, 80877104):
                        conn.sendall(b"N")
                        continue
                    break
                conn.sendall(_message(b"R", struct.pack("!I", 0))
                             + _message(b"S", b"server_version\x0016.0\x00")
                             + _message(b"S", b"client_encoding\x00UTF8\x00")
                             + _message(b"K", struct.pack("!II", 1, 2)) + READY)
                while True:
                    kind = self._read(conn, 1)
                    length = struct.unpack("!I", self._read(conn, 4))[0]
                    self._read(conn, length - 4)
                    if kind == b"X":
                        return
                    if kind in (b"Q", b"S"):
                        conn.sendall(_error(self.sqlstate, self.text) + READY)
        except (ConnectionError, OSError):
            return

    def stop(self) -> None:
        self.sock.close()
