"""Real HTTP clients against a real local server raise the exceptions under test."""

from __future__ import annotations

import asyncio
import email.utils
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import aiohttp
import anthropic
import httpx
import openai
import pytest
import requests

import toolhygiene as th
from helpers import raised
from toolhygiene.testing import ScriptedServer, closed_port

C = th.Category
HTML_500 = "<html><head><title>500</title></head><body><pre>Traceback (most recent call last):\n  File \"/srv/app.py\"</pre></body></html>"


def via_httpx(server: ScriptedServer) -> Callable[[], Any]:
    return lambda: httpx.get(server.url + "/x", timeout=5).raise_for_status()


def via_requests(server: ScriptedServer) -> Callable[[], Any]:
    return lambda: requests.get(server.url + "/x", timeout=5).raise_for_status()


def via_urllib(server: ScriptedServer) -> Callable[[], Any]:
    return lambda: urllib.request.urlopen(server.url + "/x", timeout=5).read()


def via_aiohttp(server: ScriptedServer) -> Callable[[], Any]:
    async def go() -> None:
        async with aiohttp.ClientSession() as s, s.get(server.url + "/x") as r:
            r.raise_for_status()

    return lambda: asyncio.run(go())


def via_openai(server: ScriptedServer) -> Callable[[], Any]:
    client = openai.OpenAI(base_url=server.url + "/v1", api_key="sk-test", max_retries=0)
    return lambda: client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])


def via_anthropic(server: ScriptedServer) -> Callable[[], Any]:
    client = anthropic.Anthropic(base_url=server.url, api_key="test", max_retries=0)
    return lambda: client.messages.create(model="m", max_tokens=10, messages=[{"role": "user", "content": "hi"}])


CLIENTS = {"httpx": via_httpx, "requests": via_requests, "urllib": via_urllib,
           "aiohttp": via_aiohttp, "openai": via_openai, "anthropic": via_anthropic}

STATUSES = [
    (400, C.BAD_REQUEST, False), (401, C.AUTH, False), (402, C.BUSINESS, False),
    (403, C.AUTH, False), (404, C.NOT_FOUND, False), (407, C.AUTH, False),
    (408, C.CONNECTIVITY, True), (409, C.CONNECTIVITY, True), (410, C.NOT_FOUND, False),
    (413, C.BAD_REQUEST, False), (414, C.BAD_REQUEST, False), (422, C.BAD_REQUEST, False),
    (429, C.RATE_LIMIT, True), (500, C.UPSTREAM, True), (502, C.UPSTREAM, True),
    (503, C.UPSTREAM, True), (529, C.UPSTREAM, True),
]


@pytest.mark.parametrize("client", sorted(CLIENTS))
@pytest.mark.parametrize(("status", "category", "retryable"), STATUSES)
def test_status_codes_from_every_client(server: ScriptedServer, client: str, status: int,
                                        category: th.Category, retryable: bool) -> None:
    server.push(status, {"type": "error", "error": {"type": "x", "message": "upstream says no"}})
    failure = th.classify(raised(CLIENTS[client](server)), "fetch")
    assert (failure.category, failure.retryable) == (category, retryable)
    assert str(status) in failure.message


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_html_body_never_reaches_the_line(server: ScriptedServer, client: str) -> None:
    server.push(500, HTML_500)
    failure = th.classify(raised(CLIENTS[client](server)), "fetch")
    line = failure.line()
    assert failure.category is C.UPSTREAM
    assert "<html" not in line and "Traceback" not in line and "/srv" not in line
    assert "500 Internal Server Error" in line


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_retry_after_seconds_reaches_failure_and_line(server: ScriptedServer,
                                                      client: str) -> None:
    server.push(429, {"error": {"message": "slow down"}}, {"Retry-After": "7"})
    failure = th.classify(raised(CLIENTS[client](server)), "check_stock")
    assert failure.category is C.RATE_LIMIT
    assert failure.retry_after == 7.0
    assert "Transient: retry after 7 s." in failure.line()


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"retry-after-ms": "1500"}, 1.5),
        ({"retry-after": "2.5"}, 2.5),
        ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),
        ({"retry-after": "-3"}, None),
        ({"retry-after": "nan"}, None),
        ({"retry-after": "inf"}, None),
        ({"retry-after": "99999999"}, None),
        ({"retry-after": "soon"}, None),
        ({}, None),
    ],
)
def test_retry_after_forms(server: ScriptedServer, headers: dict[str, str],
                           expected: float | None) -> None:
    server.push(429, {}, headers)
    assert th.classify(raised(via_httpx(server))).retry_after == expected


def test_retry_after_as_http_date(server: ScriptedServer) -> None:
    server.push(503, {}, {"retry-after": email.utils.formatdate(time.time() + 30, usegmt=True)})
    wait = th.classify(raised(via_requests(server))).retry_after
    assert wait is not None and 25 <= wait <= 31


def test_retry_after_ceiling_is_the_users(server: ScriptedServer) -> None:
    previous = th.configure(retry_after_ceiling=10)
    try:
        server.push(429, {}, {"retry-after": "60"})
        assert th.classify(raised(via_httpx(server))).retry_after is None
        server.push(429, {}, {"retry-after": "6"})
        assert th.classify(raised(via_httpx(server))).retry_after == 6
    finally:
        th.configure(retry_after_ceiling=previous.retry_after_ceiling)


def test_sdk_error_message_from_json_body(server: ScriptedServer) -> None:
    server.push(529, {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})
    exc = raised(via_anthropic(server))
    assert type(exc).__module__.startswith("anthropic")
    failure = th.classify(exc, "ask_claude")
    assert failure.category is C.UPSTREAM and failure.retryable
    assert failure.message == (
        "the service answered HTTP 529 Overloaded to POST /v1/messages: Overloaded")


def test_openai_retry_after_ms(server: ScriptedServer) -> None:
    server.push(429, {"error": {"message": "Rate limit reached", "type": "requests"}},
                {"retry-after-ms": "1200"})
    exc = raised(via_openai(server))
    assert isinstance(exc, openai.RateLimitError)
    failure = th.classify(exc, "ask_gpt")
    assert failure.retry_after == 1.2
    assert "Rate limit reached" in failure.message


CONNECT: dict[str, Callable[[str], object]] = {
    "httpx": lambda url: httpx.get(url, timeout=2),
    "requests": lambda url: requests.get(url, timeout=2),
    "urllib": lambda url: urllib.request.urlopen(url, timeout=2),
    "aiohttp": lambda url: asyncio.run(_aiohttp_get(url, 2)),
    "openai": lambda url: openai.OpenAI(base_url=url, api_key="k", max_retries=0).models.list(),
    "anthropic": lambda url: anthropic.Anthropic(base_url=url, api_key="k", max_retries=0).models.list(),
}


async def _aiohttp_get(url: str, timeout: float) -> None:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout)) as s:
        async with s.get(url) as r:
            await r.read()


@pytest.mark.parametrize("client", sorted(CONNECT))
def test_connection_refused_is_connectivity_that_never_ran(client: str) -> None:
    failure = th.classify(raised(lambda: CONNECT[client](f"http://127.0.0.1:{closed_port()}/x")))
    assert failure.category is C.CONNECTIVITY
    assert failure.retryable
    assert failure.never_ran, failure
    assert "127.0.0.1" not in failure.line()


# Only the read may time out: a machine under load can take longer than a short timeout to
# connect even on loopback, and a connect timeout is a call that never ran (another answer).
READ = 0.3
CONNECT_WAIT = 10.0
STALL: dict[str, Callable[[str], object]] = {
    "httpx": lambda url: httpx.get(url, timeout=httpx.Timeout(READ, connect=CONNECT_WAIT)),
    "requests": lambda url: requests.get(url, timeout=(CONNECT_WAIT, READ)),
    # urllib has one timeout for every socket operation: the stall outlasts it by far.
    "urllib": lambda url: urllib.request.urlopen(url, timeout=1.0),
    "aiohttp": lambda url: asyncio.run(_aiohttp_read_timeout(url)),
    "openai": lambda url: openai.OpenAI(base_url=url, api_key="k", max_retries=0,
                                        timeout=openai.Timeout(READ, connect=CONNECT_WAIT)
                                        ).models.list(),
    "anthropic": lambda url: anthropic.Anthropic(base_url=url, api_key="k", max_retries=0,
                                                 timeout=anthropic.Timeout(READ, connect=CONNECT_WAIT)
                                                 ).models.list(),
}
STALL_FOR = 3.0


async def _aiohttp_read_timeout(url: str) -> None:
    timeout = aiohttp.ClientTimeout(sock_connect=CONNECT_WAIT, sock_read=READ)
    async with aiohttp.ClientSession(timeout=timeout) as s:
        async with s.get(url) as r:
            await r.read()


@pytest.mark.parametrize("client", sorted(STALL))
def test_read_timeout_is_connectivity_that_may_have_run(server: ScriptedServer,
                                                        client: str) -> None:
    server.push(200, {}, delay=STALL_FOR)
    exc = raised(lambda: STALL[client](server.url + "/x"))
    failure = th.classify(exc)
    assert failure.category is C.CONNECTIVITY, (type(exc), failure)
    assert failure.retryable
    assert not failure.never_ran, (type(exc), exc)


def test_sdk_timeout_is_checked_before_its_connection_error_parent(server: ScriptedServer) -> None:
    server.push(200, {}, delay=STALL_FOR)
    exc = raised(lambda: STALL["openai"](server.url + "/v1"))
    assert isinstance(exc, openai.APITimeoutError)
    assert isinstance(exc, openai.APIConnectionError)
    assert not th.classify(exc).never_ran


def test_runtime_error_raised_from_a_429_is_a_rate_limit(server: ScriptedServer) -> None:
    server.push(429, {}, {"retry-after": "3"})

    def tool() -> None:
        try:
            httpx.get(server.url + "/prices", timeout=5).raise_for_status()
        except httpx.HTTPStatusError as exc:
            raise RuntimeError("could not fetch prices") from exc

    failure = th.classify(raised(tool), "get_prices")
    assert failure.category is C.RATE_LIMIT
    assert failure.retry_after == 3
    assert failure.message.startswith("could not fetch prices: the service answered HTTP 429")


def test_requests_errors_are_oserrors_but_classified_as_requests(server: ScriptedServer) -> None:
    exc = raised(lambda: requests.get("nope://x"))
    assert isinstance(exc, OSError)
    assert th.classify(exc).category is C.BAD_REQUEST


def test_urllib_http_error_is_a_url_error_but_classified_by_status(server: ScriptedServer) -> None:
    server.push(404, {})
    exc = raised(via_urllib(server))
    assert isinstance(exc, urllib.error.URLError)
    assert th.classify(exc).category is C.NOT_FOUND
