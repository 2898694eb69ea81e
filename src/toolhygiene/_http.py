"""HTTP facts read off any exception by duck typing: status code, headers, Retry-After.

SDKs wrap transport errors and change their HTTP library between versions, so nothing
here imports or names an HTTP library: it reads ``status_code``, ``status``, ``code``,
``response.status_code``, ``response.headers``, ``headers``, and botocore's response dict.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

from toolhygiene._errors import Category
from toolhygiene._reading import attr, short_name
from toolhygiene._redact import redact

__all__ = [
    "api_error_code",
    "api_message",
    "category_for_status",
    "headers_of",
    "reason_for",
    "request_of",
    "retry_after",
    "status_of",
]


def _as_status(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 100 <= value <= 599:
        return value
    return None


def _botocore_meta(exc: BaseException) -> Mapping[str, Any] | None:
    response = attr(exc, "response")
    if isinstance(response, Mapping):
        meta = response.get("ResponseMetadata")
        if isinstance(meta, Mapping):
            return meta
    return None


def status_of(exc: BaseException) -> int | None:
    """The HTTP status an exception carries, if any (OSError's errno is not one)."""
    for name in ("status_code", "status"):
        found = _as_status(attr(exc, name))
        if found is not None:
            return found
    if not isinstance(exc, OSError) or short_name(exc) == "HTTPError":
        found = _as_status(attr(exc, "code"))
        if found is not None:
            return found
    response = attr(exc, "response")
    if response is not None and not isinstance(response, Mapping):
        for name in ("status_code", "status"):
            found = _as_status(attr(response, name))
            if found is not None:
                return found
    meta = _botocore_meta(exc)
    if meta is not None:
        return _as_status(meta.get("HTTPStatusCode"))
    return None


def api_message(exc: BaseException) -> str | None:
    """The API's own account of an error answer, never the raw body: ``error.message``
    of a JSON body (OpenAI, Anthropic), botocore's ``Error`` code and message."""
    body = attr(exc, "body")
    if isinstance(body, Mapping):
        inner = body.get("error", body)
        if isinstance(inner, Mapping):
            text = inner.get("message")
            if isinstance(text, str) and text:
                return text
    response = attr(exc, "response")
    if isinstance(response, Mapping):
        error = response.get("Error")
        if isinstance(error, Mapping):
            code, text = error.get("Code"), error.get("Message")
            return ": ".join(str(p) for p in (code, text) if p) or None
    return None


def api_error_code(exc: BaseException) -> str:
    """botocore's error code (``ThrottlingException``); ``""`` when there is none."""
    response = attr(exc, "response")
    error = response.get("Error") if isinstance(response, Mapping) else None
    return str(error.get("Code", "")) if isinstance(error, Mapping) else ""


def _attribute(obj: Any, name: str) -> Any:
    """``obj.name``, or ``None`` when it is missing or its property raises (httpx raises
    ``RuntimeError`` for a request that was never set)."""
    try:
        return getattr(obj, name, None)
    except Exception:
        return None


def request_of(exc: BaseException) -> str | None:
    """The request a failed HTTP call made, as the model can use it: method, and the path
    with its query (``GET /weather?city=Pariss``), redacted as a whole URL (so a webhook
    or a signed URL is recognised). The host is shown only when it is a public name; ports,
    credentials and fragments never are."""
    request = _attribute(exc, "request")
    if request is None:
        response = _attribute(exc, "response")
        request = _attribute(response, "request") if response is not None else None
    info = _attribute(exc, "request_info")  # aiohttp
    source = request if request is not None else info
    url = _attribute(source, "real_url") or _attribute(source, "url") or _attribute(exc, "url")
    if not url:
        return None
    from urllib.parse import urlsplit  # imports ipaddress: at the first HTTP failure

    try:
        parts = urlsplit(str(url))
        host = (parts.hostname or "").lower()
    except ValueError:
        return None
    if not parts.path and not host:
        return None
    base = f"{parts.scheme or 'https'}://{host}"
    text = redact(base + (parts.path or "/") + (f"?{parts.query}" if parts.query else ""))
    if text.startswith(base + "/"):
        shown = text[len(base) :]
        if _public(host):
            shown = host + shown
    elif "://" not in text:  # the whole URL was one secret (a webhook): its placeholder
        shown = text
    else:  # the host itself was redacted: keep what follows it
        after = text.find("/", text.find("://") + 3)
        shown = text[after:] if after > 0 else ""
    method = _attribute(source, "method")
    return f"{method} {shown}" if isinstance(method, str) and method else shown or None


_INTERNAL_SUFFIXES = (
    ".internal",
    ".local",
    ".localdomain",
    ".lan",
    ".corp",
    ".home",
    ".intranet",
    ".private",
    ".svc",
    ".cluster.local",
    ".home.arpa",
    ".test",
    ".invalid",
    ".localhost",
)


def _public(host: str) -> bool:
    """A host name that anyone could resolve: dotted, a letters-only top-level domain, not
    an address, not a name of an internal zone."""
    if "." not in host or host.endswith(_INTERNAL_SUFFIXES):
        return False
    top = host.rsplit(".", 1)[1]
    return len(top) >= 2 and top.isalpha() and redact(host) == host


def headers_of(exc: BaseException) -> Mapping[str, Any] | None:
    """The response headers an exception carries, if any."""
    response = attr(exc, "response")
    if response is not None and not isinstance(response, Mapping):
        headers = attr(response, "headers")
        if headers is not None and attr(headers, "get") is not None:
            return headers  # type: ignore[no-any-return]
    headers = attr(exc, "headers")
    if headers is not None and attr(headers, "get") is not None:
        return headers  # type: ignore[no-any-return]
    meta = _botocore_meta(exc)
    if meta is not None:
        found = meta.get("HTTPHeaders")
        if isinstance(found, Mapping):
            return found
    return None


def _header(headers: Mapping[str, Any], name: str) -> str | None:
    try:
        value = headers.get(name)
        if value is None:
            value = headers.get(name.title())
    except Exception:  # a hostile or broken mapping is no Retry-After
        return None
    return value if isinstance(value, str) else None


def retry_after(headers: Mapping[str, Any] | None, ceiling: float) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``retry-after`` (seconds or an HTTP
    date); ``None`` when absent, negative, not finite or above ``ceiling``."""
    if headers is None:
        return None
    seconds: float | None = None
    raw_ms = _header(headers, "retry-after-ms")
    if raw_ms is not None:
        try:
            seconds = float(raw_ms) / 1000.0
        except ValueError:
            seconds = None
    if seconds is None:
        raw = _header(headers, "retry-after")
        if raw is None:
            return None
        try:
            seconds = float(raw)
        except ValueError:
            # A date is rare, and email slow to import: imported here.
            from email.utils import parsedate_to_datetime

            try:
                seconds = parsedate_to_datetime(raw).timestamp() - time.time()
            except (TypeError, ValueError, IndexError, OverflowError):
                return None
            seconds = max(seconds, 0.0)
    if not math.isfinite(seconds) or seconds < 0 or seconds > ceiling:
        return None
    return seconds


_STATUS: dict[int, tuple[Category, bool]] = {
    402: (Category.BUSINESS, False),
    407: (Category.AUTH, False),
    408: (Category.CONNECTIVITY, True),
    409: (Category.CONNECTIVITY, True),
    429: (Category.RATE_LIMIT, True),
    501: (Category.UPSTREAM, False),
    505: (Category.UPSTREAM, False),
    529: (Category.UPSTREAM, True),
}


def category_for_status(status: int) -> tuple[Category, bool]:
    """The category and retryability of an HTTP status code."""
    known = _STATUS.get(status)
    if known is not None:
        return known
    if status in (401, 403):
        return Category.AUTH, False
    if status in (404, 410):
        return Category.NOT_FOUND, False
    if status >= 500:
        return Category.UPSTREAM, True
    if status >= 400:
        return Category.BAD_REQUEST, False
    return Category.UNKNOWN, False


def reason_for(status: int) -> str:
    """``429 Too Many Requests``; 529 is Anthropic's ``Overloaded``."""
    if status == 529:
        return "529 Overloaded"
    try:
        return f"{status} {HTTPStatus(status).phrase}"
    except ValueError:
        return str(status)
