"""Databases, files, builtins, AWS and exception chains: real exceptions, real libraries."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import botocore.config
import botocore.exceptions
import botocore.session
import psycopg
import pytest

import toolhygiene as th
from helpers import NO_KEYS, raised
from pg_server import PgServer
from toolhygiene.testing import ScriptedServer, closed_port

C = th.Category


# -- sqlite3 ---------------------------------------------------------------------------

def test_sqlite_locked_database_is_transient(tmp_path: Path) -> None:
    path = tmp_path / "orders.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        exc = raised(lambda: sqlite3.connect(path, timeout=0).execute("SELECT * FROM t"))
    finally:
        holder.close()
    failure = th.classify(exc, "query")
    assert isinstance(exc, sqlite3.OperationalError)
    assert (failure.category, failure.retryable) == (C.UPSTREAM, True)


def test_sqlite_no_such_table_is_a_bad_request() -> None:
    exc = raised(lambda: sqlite3.connect(":memory:").execute("SELECT * FROM nope"))
    failure = th.classify(exc)
    assert (failure.category, failure.retryable) == (C.BAD_REQUEST, False)
    assert "no such table: nope" in failure.message


def test_sqlite_integrity_error_is_business() -> None:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)")
    db.execute("INSERT INTO t VALUES (1)")
    assert th.classify(raised(lambda: db.execute("INSERT INTO t VALUES (1)"))).category is C.BUSINESS


# -- the file system and builtins --------------------------------------------------------

def test_file_not_found_redacts_the_user_name() -> None:
    failure = th.classify(raised(lambda: Path("/home/alice/notes.md").read_text()), "read_file")
    assert failure.category is C.NOT_FOUND and not failure.retryable
    assert failure.message == "No such file or directory: '/home/[redacted:user]/notes.md'"


def test_permission_error_is_auth() -> None:
    exc = raised(lambda: os.unlink("/proc/version"))
    assert isinstance(exc, PermissionError)
    assert th.classify(exc).category is C.AUTH


def test_is_a_directory_is_a_bad_request(tmp_path: Path) -> None:
    assert th.classify(raised(lambda: tmp_path.read_text())).category is C.BAD_REQUEST


def test_file_exists_is_business(tmp_path: Path) -> None:
    assert th.classify(raised(lambda: tmp_path.mkdir())).category is C.BUSINESS


def test_connection_refused_socket() -> None:
    def connect() -> None:
        with socket.create_connection(("127.0.0.1", closed_port()), timeout=2):
            pass

    failure = th.classify(raised(connect))
    assert failure.category is C.CONNECTIVITY and failure.never_ran and failure.retryable


def test_unknown_host_is_connectivity_that_never_ran_and_will_not_pass() -> None:
    exc = raised(lambda: socket.getaddrinfo("no-such-host.invalid", 80))
    assert isinstance(exc, socket.gaierror)
    failure = th.classify(exc)
    assert failure.category is C.CONNECTIVITY and failure.never_ran
    assert failure.retryable == (exc.errno == socket.EAI_AGAIN)


@pytest.mark.parametrize(
    ("fn", "category"),
    [
        (lambda: json.loads('{"a": '), C.UPSTREAM),
        (lambda: NO_KEYS["missing"], C.NOT_FOUND),
        (lambda: [][3], C.NOT_FOUND),
        (lambda: int("many"), C.BAD_REQUEST),
        (lambda: "x" + 1, C.BAD_REQUEST),  # type: ignore[operator]
        (lambda: 1 / 0, C.BAD_REQUEST),
        (lambda: b"\xff".decode(), C.BAD_REQUEST),
        (lambda: (_ for _ in ()).throw(NotImplementedError("refunds")), C.BUSINESS),
        (lambda: (_ for _ in ()).throw(RuntimeError("boom")), C.UNKNOWN),
        (lambda: (_ for _ in ()).throw(TimeoutError("took too long")), C.CONNECTIVITY),
    ],
)
def test_builtins(fn: Callable[[], Any], category: th.Category) -> None:
    assert th.classify(raised(fn)).category is category


def test_key_error_quoting_is_explained() -> None:
    assert th.classify(raised(lambda: NO_KEYS["ORD-1"])).message == "no such key: 'ORD-1'"


def test_json_decode_error_says_where() -> None:
    failure = th.classify(raised(lambda: json.loads('{"a": ')))
    assert not failure.retryable
    assert "line 1 column 7" in failure.message


# -- psycopg ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def pg() -> Iterator[PgServer]:
    server = PgServer()
    yield server
    server.stop()


@pytest.mark.parametrize(
    ("sqlstate", "category", "retryable"),
    [
        ("23505", C.BUSINESS, False),       # unique_violation
        ("40001", C.UPSTREAM, True),        # serialization_failure
        ("40P01", C.UPSTREAM, True),        # deadlock_detected
        ("53300", C.UPSTREAM, True),        # too_many_connections
        ("42P01", C.BAD_REQUEST, False),    # undefined_table
        ("42601", C.BAD_REQUEST, False),    # syntax_error
        ("22P02", C.BAD_REQUEST, False),    # invalid_text_representation
        ("42501", C.AUTH, False),           # insufficient_privilege
        ("3D000", C.NOT_FOUND, False),      # invalid_catalog_name
        ("57P01", C.CONNECTIVITY, True),    # admin_shutdown
    ],
)
def test_psycopg_sqlstate_classes(pg: PgServer, sqlstate: str, category: th.Category,
                                  retryable: bool) -> None:
    pg.sqlstate = sqlstate
    with psycopg.connect(host="127.0.0.1", port=pg.port, user="u", dbname="d",
                         sslmode="disable", connect_timeout=5) as conn:
        exc = raised(lambda: conn.execute("SELECT 1"))
    assert isinstance(exc, psycopg.Error) and exc.sqlstate == sqlstate
    failure = th.classify(exc)
    assert (failure.category, failure.retryable) == (category, retryable)


def test_psycopg_connection_refused() -> None:
    exc = raised(lambda: psycopg.connect(host="127.0.0.1", port=closed_port(), user="u",
                                         dbname="d", connect_timeout=2))
    assert isinstance(exc, psycopg.OperationalError)
    failure = th.classify(exc)
    assert failure.category is C.CONNECTIVITY and failure.never_ran


# -- botocore ----------------------------------------------------------------------------

def dynamodb(url: str) -> Any:
    session = botocore.session.get_session()
    return session.create_client(
        "dynamodb", region_name="eu-west-1", endpoint_url=url,
        aws_access_key_id="AKIAIOSFODNN7EXAMPLE", aws_secret_access_key="x" * 40,
        config=botocore.config.Config(retries={"total_max_attempts": 1}, connect_timeout=2,
                                      read_timeout=2),
    )


@pytest.mark.parametrize(
    ("status", "code", "category"),
    [
        (400, "ThrottlingException", C.RATE_LIMIT),
        (400, "ProvisionedThroughputExceededException", C.RATE_LIMIT),
        (400, "AccessDeniedException", C.AUTH),
        (400, "ResourceNotFoundException", C.NOT_FOUND),
        (400, "ValidationException", C.BAD_REQUEST),
        (400, "ConditionalCheckFailedException", C.BUSINESS),
        (500, "InternalServerError", C.UPSTREAM),
        (418, "SomethingNew", C.BAD_REQUEST),
    ],
)
def test_botocore_error_codes(server: ScriptedServer, status: int, code: str,
                              category: th.Category) -> None:
    server.push(status, {"__type": f"com.amazonaws.dynamodb.v20120810#{code}",
                         "message": "Rate exceeded"})
    exc = raised(lambda: dynamodb(server.url).list_tables())
    assert isinstance(exc, botocore.exceptions.ClientError)
    failure = th.classify(exc, "list_tables")
    assert failure.category is category
    assert "AKIA" not in failure.line()


def test_botocore_endpoint_connection_error() -> None:
    exc = raised(lambda: dynamodb(f"http://127.0.0.1:{closed_port()}").list_tables())
    assert isinstance(exc, botocore.exceptions.EndpointConnectionError)
    failure = th.classify(exc)
    assert failure.category is C.CONNECTIVITY and failure.never_ran


def test_botocore_param_validation() -> None:
    exc = raised(lambda: dynamodb("http://127.0.0.1:1").get_item(TableName="t"))
    assert th.classify(exc).category is C.BAD_REQUEST


# -- chains and groups -------------------------------------------------------------------

def test_cause_wins_over_a_generic_wrapper() -> None:
    def tool() -> None:
        try:
            Path("/nonexistent/prices.csv").read_text()
        except OSError as exc:
            raise RuntimeError("could not load prices") from exc

    failure = th.classify(raised(tool))
    assert failure.category is C.NOT_FOUND
    assert failure.message.startswith("could not load prices: No such file or directory")


def test_suppressed_context_is_not_read() -> None:
    def tool() -> None:
        try:
            NO_KEYS["k"]
        except KeyError:
            raise RuntimeError("failed") from None

    assert th.classify(raised(tool)).category is C.UNKNOWN


def test_cyclic_chain_terminates() -> None:
    a, b = RuntimeError("a"), RuntimeError("b")
    a.__cause__, b.__cause__ = b, a
    assert th.classify(a).category is C.UNKNOWN


def test_tool_error_in_chain_keeps_its_fields() -> None:
    def tool() -> None:
        try:
            raise th.ToolError("refund exceeds the 500 EUR cap", retryable=False,
                               category="business", alternatives=["offer store credit"],
                               partial_results={"order_total": 620})
        except th.ToolError as exc:
            raise RuntimeError("refund failed") from exc

    failure = th.classify(raised(tool), "refund")
    assert failure.category is C.BUSINESS
    assert failure.alternatives == ("offer store credit",)
    assert failure.partial_results == {"order_total": 620}


# -- user rules ----------------------------------------------------------------------------

class InventoryDown(Exception):
    pass


def test_user_rule_by_class_wins_over_builtin() -> None:
    th.add_rule(KeyError, "business", hint="Ask the user for a valid SKU.")
    failure = th.classify(raised(lambda: NO_KEYS["sku"]), "stock")
    assert failure.category is C.BUSINESS
    assert failure.line().endswith("Ask the user for a valid SKU.")


def test_user_rule_by_predicate() -> None:
    th.add_rule(lambda e: "maintenance" in str(e), "upstream", retryable=False)
    failure = th.classify(InventoryDown("inventory is in maintenance"))
    assert (failure.category, failure.retryable) == (C.UPSTREAM, False)


def test_broken_predicate_does_not_apply() -> None:
    th.add_rule(lambda e: 1 / 0, "auth")  # type: ignore[arg-type,return-value]
    assert th.classify(InventoryDown("x")).category is C.UNKNOWN


def test_tool_rules_win_over_session_and_global(instant: None) -> None:
    th.add_rule(InventoryDown, "auth")

    @th.tool(rules=[th.Rule(InventoryDown, th.Category.UPSTREAM, retryable=False)])
    def stock() -> None:
        raise InventoryDown("down")

    @th.tool
    def other() -> None:
        raise InventoryDown("down")

    session = th.Session([stock, other], rules=[th.Rule(InventoryDown, th.Category.BUSINESS)])
    assert session.call("stock").failure.category is C.UPSTREAM  # type: ignore[union-attr]
    assert session.call("other").failure.category is C.BUSINESS  # type: ignore[union-attr]
