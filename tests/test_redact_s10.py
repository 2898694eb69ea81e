"""Over-redaction and leak families found by outside testers after session 9 (issue 12,
helper leak13): schemeless URLs and paths whose random segment swallowed the host and
the path's words; public keys, certificates and fingerprints; names that say no secret;
decomposed accents and joiners kept in the output; identifiers that are no secrets; a
backtick inside a labelled value; bytes results under ``redact_results=False``."""

from __future__ import annotations

import string
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples, issued_tokens
from toolhygiene._tokens import is_random

TOKENS = issued_tokens()
PLACE = "[redacted:high-entropy]"

# -- 1. a URL without a scheme, a path from the root -----------------------------------

LABEL = st.text(string.ascii_lowercase + string.digits, min_size=1, max_size=10).filter(
    lambda s: s[0].isalnum()
)
HOSTS = st.builds(
    lambda labels, tld: ".".join([*labels, tld]),
    st.lists(LABEL, min_size=1, max_size=3),
    st.sampled_from(["com", "io", "net", "org", "dev", "co"]),
)
SEGMENTS = st.sampled_from(
    ["v1", "v2", "api", "orders", "items", "customers", "ORD-88213", "2026-01-04", "x", "files"]
)


@settings(max_examples=examples(300), deadline=None)
@given(
    host=HOSTS,
    port=st.sampled_from(["", ":8443", ":80"]),
    scheme=st.sampled_from(["", "https://"]),
    before=st.lists(SEGMENTS, min_size=1, max_size=3),
    after=st.lists(SEGMENTS, max_size=2),
    token=TOKENS,
    method=st.sampled_from(["GET ", "POST ", "fetch failed: ", ""]),
)
def test_a_random_segment_goes_alone(
    host: str, port: str, scheme: str, before: list[str], after: list[str], token: str, method: str
) -> None:
    assume(is_random(token))
    head = f"{method}{scheme}{host}{port}/" + "/".join(before) + "/"
    tail = "".join("/" + s for s in after)
    text = f"{head}{token}{tail} timed out"
    assert th.redact(text) == f"{head}{PLACE}{tail} timed out"


@settings(max_examples=examples(200), deadline=None)
@given(
    root=st.sampled_from(["v1", "api", "Reports", "srv", "data"]),
    before=st.lists(SEGMENTS, max_size=2),
    token=TOKENS,
)
def test_a_random_segment_of_a_path_goes_alone(root: str, before: list[str], token: str) -> None:
    assume(is_random(token))
    head = "GET /" + "/".join([root, *before]) + "/"
    assert th.redact(f"{head}{token}/items") == f"{head}{PLACE}/items"


def test_words_of_a_schemeless_url_stay() -> None:
    for text in (
        "GET api.acme.com/v1/orders/ORD-88213",
        "GET api.acme.com/v1/x",
        "GET api.acme.com/v1/orders/Xk92Lm/Qp7Rt3Zz/aB9c",
        "storage.acme.com/bucket/2024/report_final_v2.pdf",
    ):
        assert th.redact(text) == text


class _Request:
    def __init__(self, url: str) -> None:
        self.url = url
        self.method = "GET"


class _Response:
    def __init__(self, request: _Request) -> None:
        self.status_code = 404
        self.request = request
        self.headers: dict[str, str] = {}
        self.text = ""


class HTTPStatusError(Exception):
    def __init__(self, url: str) -> None:
        super().__init__(f"Client error '404 Not Found' for url '{url}'")
        self.request = _Request(url)
        self.response = _Response(self.request)


@settings(max_examples=examples(100), deadline=None)
@given(segments=st.lists(st.sampled_from(["Xk92Lm", "Qp7Rt3Zz", "aB9c", "orders", "v1"]),
                         min_size=3, max_size=6),
       token=TOKENS)
def test_the_failure_line_keeps_the_request(segments: list[str], token: str) -> None:
    assume(is_random(token))
    path = "/" + "/".join(segments)
    url = f"https://api.acme.com{path}/{token}/items"

    @th.tool
    def get_order(order_id: str) -> str:
        raise HTTPStatusError(url)

    line = th.Session([get_order]).call("get_order", {"order_id": "x"}).content
    assert f"GET api.acme.com{path}/{PLACE}/items" in line, line
    assert token not in line
