"""Built-in knowledge of exceptions from the standard library and well-known packages.

Classes are recognised by the root of their module and their name, walking the MRO from
the most derived class, so none of those packages is imported and the most specific
entry wins by construction: ``requests.ConnectionError`` before ``OSError``,
urllib's ``HTTPError`` before ``URLError``, SDK timeouts before their connection-error
parents.
"""

from __future__ import annotations

import errno
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from toolhygiene._errors import Category
from toolhygiene._http import (
    api_error_code,
    api_message,
    category_for_status,
    reason_for,
    request_of,
    status_of,
)
from toolhygiene._reading import attr, class_name, module_of, mro, qualified_name, raw_message
from toolhygiene._words import http_answer

__all__ = [
    "TYPE_FACTS",
    "Route",
    "TypeFacts",
    "Verdict",
    "facts_of",
    "library_verdict",
    "route",
    "type_facts",
    "verdict_by",
]

C = Category


@dataclass(frozen=True, slots=True)
class Verdict:
    """What one exception in a chain says about the failure.

    ``never_ran``: ``True`` when the failure proves the call never reached its target,
    ``False`` when it may have (a timeout), ``None`` when it says nothing either way.
    ``score``: how specific the verdict is; the highest in a chain wins.
    """

    category: Category
    retryable: bool
    score: int
    never_ran: bool | None = None
    message: str | None = None


SCORE_RULE = 100
SCORE_TOOL_ERROR = 90
SCORE_STATUS = 80
SCORE_LIBRARY = 70
SCORE_ERRNO = 60
SCORE_BUILTIN = 40
SCORE_UNKNOWN = 0


def _v(
    category: Category,
    retryable: bool | None = None,
    never_ran: bool | None = None,
    score: int = SCORE_LIBRARY,
) -> Verdict:
    return Verdict(
        category, category.retryable if retryable is None else retryable, score, never_ran
    )


def status_verdict(exc: BaseException) -> Verdict | None:
    """The verdict of an HTTP status carried by ``exc``; never quotes the raw body."""
    status = status_of(exc)
    if status is None:
        return None
    category, retryable = category_for_status(status)
    message = http_answer(reason_for(status), request_of(exc), api_message(exc))
    return Verdict(category, retryable, SCORE_STATUS, None, message)


_ERRNO: dict[int, Verdict] = {}
for _names, _verdict in (
    (("ECONNREFUSED",), _v(C.CONNECTIVITY, never_ran=True, score=SCORE_ERRNO)),
    (
        ("ENETUNREACH", "EHOSTUNREACH", "ENETDOWN", "EHOSTDOWN", "EADDRNOTAVAIL"),
        _v(C.CONNECTIVITY, never_ran=True, score=SCORE_ERRNO),
    ),
    (
        ("ECONNRESET", "ECONNABORTED", "EPIPE", "ETIMEDOUT", "ESHUTDOWN"),
        _v(C.CONNECTIVITY, never_ran=False, score=SCORE_ERRNO),
    ),
    (("ENOENT", "ENXIO", "ENODEV"), _v(C.NOT_FOUND, score=SCORE_ERRNO)),
    (("EACCES", "EPERM"), _v(C.AUTH, score=SCORE_ERRNO)),
    (("EEXIST", "ENOTEMPTY", "EROFS", "EXDEV"), _v(C.BUSINESS, score=SCORE_ERRNO)),
    (("ENOSPC", "EDQUOT", "EFBIG"), _v(C.UPSTREAM, retryable=False, score=SCORE_ERRNO)),
    (
        ("EMFILE", "ENFILE", "EAGAIN", "EBUSY", "ENOMEM", "ENOBUFS", "EINTR"),
        _v(C.UPSTREAM, retryable=True, score=SCORE_ERRNO),
    ),
    (
        ("EINVAL", "ENOTDIR", "EISDIR", "ENAMETOOLONG", "ELOOP", "EBADF"),
        _v(C.BAD_REQUEST, score=SCORE_ERRNO),
    ),
):
    for _name in _names:
        if hasattr(errno, _name):
            _ERRNO[getattr(errno, _name)] = _verdict


def _oserror(exc: BaseException) -> Verdict | None:
    code = attr(exc, "errno")
    return _ERRNO.get(code) if isinstance(code, int) else None


def _gaierror(exc: BaseException) -> Verdict:
    # EAI_AGAIN is a passing DNS failure; an unknown name stays unknown on retry.
    import socket  # it raised this: imported already

    transient = attr(exc, "errno") == getattr(socket, "EAI_AGAIN", -3)
    return _v(C.CONNECTIVITY, retryable=transient, never_ran=True)


def _sqlite_operational(exc: BaseException) -> Verdict:
    name = attr(exc, "sqlite_errorname")
    name = name if isinstance(name, str) else ""
    text = (raw_message(exc, 4096) or "").lower()
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text or "busy" in text:
        return _v(C.UPSTREAM, retryable=True)
    if "no such" in text or "syntax error" in text or "has no column" in text:
        return _v(C.BAD_REQUEST)
    if "unable to open" in text:
        return _v(C.NOT_FOUND)
    if "readonly" in text or "read-only" in text:
        return _v(C.BUSINESS)
    return _v(C.UNKNOWN)


def _sqlstate(exc: BaseException) -> Verdict | None:
    state = attr(exc, "sqlstate") or attr(exc, "pgcode")
    if not isinstance(state, str) or len(state) != 5:
        return None
    if state in ("40001", "40P01", "55P03", "57014") or state.startswith("53"):
        return _v(C.UPSTREAM, retryable=True)
    if state.startswith("08") or state in ("57P01", "57P02", "57P03"):
        return _v(C.CONNECTIVITY, never_ran=state in ("08001", "08004"))
    if state == "42501" or state.startswith("28"):
        return _v(C.AUTH)
    if state == "3D000":
        return _v(C.NOT_FOUND)
    if state.startswith(("23", "P0", "25")):
        return _v(C.BUSINESS)
    if state.startswith(("22", "42", "0A", "21", "2B")):
        return _v(C.BAD_REQUEST)
    return _v(C.UNKNOWN)


def _psycopg(exc: BaseException) -> Verdict:
    found = _sqlstate(exc)
    if found is not None:
        return found
    text = (raw_message(exc, 4096) or "").lower()
    never_ran = "refused" in text or "could not translate host" in text
    return _v(C.CONNECTIVITY, never_ran=never_ran or None)


_BOTO_THROTTLE = frozenset(
    {
        "Throttling",
        "ThrottlingException",
        "ThrottledException",
        "TooManyRequestsException",
        "RequestLimitExceeded",
        "RequestThrottled",
        "RequestThrottledException",
        "SlowDown",
        "ProvisionedThroughputExceededException",
        "TransactionInProgressException",
        "BandwidthLimitExceeded",
        "LimitExceededException",
        "PriorRequestNotComplete",
        "EC2ThrottledException",
        "RequestTimeTooSkewed",
    }
)
_BOTO_AUTH = frozenset(
    {
        "AccessDenied",
        "AccessDeniedException",
        "UnauthorizedOperation",
        "InvalidClientTokenId",
        "ExpiredToken",
        "ExpiredTokenException",
        "SignatureDoesNotMatch",
        "UnrecognizedClientException",
        "InvalidAccessKeyId",
        "AuthFailure",
        "NotAuthorized",
        "MissingAuthenticationToken",
    }
)
_BOTO_NOT_FOUND = frozenset(
    {
        "NoSuchKey",
        "NoSuchBucket",
        "NotFound",
        "ResourceNotFoundException",
        "NoSuchEntity",
        "NoSuchUpload",
        "NoSuchVersion",
        "QueueDoesNotExist",
        "NotFoundException",
    }
)
_BOTO_BAD = frozenset(
    {
        "ValidationException",
        "ValidationError",
        "InvalidParameterValue",
        "InvalidParameter",
        "InvalidParameterException",
        "InvalidRequest",
        "MalformedPolicyDocument",
        "InvalidArgument",
        "SerializationException",
        "MissingParameter",
    }
)
_BOTO_UPSTREAM = frozenset(
    {
        "InternalError",
        "InternalFailure",
        "ServiceUnavailable",
        "ServiceUnavailableException",
        "InternalServerError",
        "InternalServerException",
    }
)
_BOTO_BUSINESS = frozenset(
    {
        "ConditionalCheckFailedException",
        "BucketAlreadyExists",
        "BucketAlreadyOwnedByYou",
        "ResourceInUseException",
        "ConflictException",
        "EntityAlreadyExists",
        "PreconditionFailed",
    }
)


def _botocore_client(exc: BaseException) -> Verdict:
    code = api_error_code(exc)
    for codes, category in (
        (_BOTO_THROTTLE, C.RATE_LIMIT),
        (_BOTO_AUTH, C.AUTH),
        (_BOTO_NOT_FOUND, C.NOT_FOUND),
        (_BOTO_BAD, C.BAD_REQUEST),
        (_BOTO_UPSTREAM, C.UPSTREAM),
        (_BOTO_BUSINESS, C.BUSINESS),
    ):
        if code in codes:
            verdict = status_verdict(exc)
            return Verdict(
                category,
                category.retryable,
                SCORE_STATUS + 1,
                None,
                verdict.message if verdict else None,
            )
    return status_verdict(exc) or _v(C.UNKNOWN)


Handler = Callable[[BaseException], "Verdict | None"]


def _const(verdict: Verdict) -> Handler:
    return lambda _exc: verdict


def _status_or(verdict: Verdict) -> Handler:
    return lambda exc: status_verdict(exc) or verdict


def _url_error(exc: BaseException) -> Verdict:
    reason = attr(exc, "reason")
    if isinstance(reason, BaseException):
        inner = library_verdict(reason)
        if inner is not None:
            return Verdict(inner.category, inner.retryable, SCORE_LIBRARY, inner.never_ran)
    return _NETWORK


_CONNECT = _v(C.CONNECTIVITY, never_ran=True)
_TIMEOUT = _v(C.CONNECTIVITY, never_ran=False)
_NETWORK = _v(C.CONNECTIVITY)
_BAD = _v(C.BAD_REQUEST)
_UPSTREAM_BAD_BODY = _v(C.UPSTREAM, retryable=False)

_HTTPX = {
    "ConnectError": _CONNECT,
    "ConnectTimeout": _CONNECT,
    "ProxyError": _NETWORK,
    "ReadTimeout": _TIMEOUT,
    "WriteTimeout": _TIMEOUT,
    "PoolTimeout": _CONNECT,
    "TimeoutException": _TIMEOUT,
    "RemoteProtocolError": _TIMEOUT,
    "ReadError": _TIMEOUT,
    "WriteError": _TIMEOUT,
    "NetworkError": _NETWORK,
    "TransportError": _NETWORK,
    "LocalProtocolError": _BAD,
    "UnsupportedProtocol": _BAD,
    "InvalidURL": _BAD,
    "TooManyRedirects": _v(C.UPSTREAM, retryable=False),
    "DecodingError": _UPSTREAM_BAD_BODY,
}

_TABLE: dict[str, Handler] = {}
for _root in ("httpx", "httpx2", "httpcore", "httpcore2"):
    for _name, _verdict in _HTTPX.items():
        _TABLE[f"{_root}.{_name}"] = _const(_verdict)
    _TABLE[f"{_root}.HTTPStatusError"] = _status_or(_v(C.UPSTREAM))

for _root in ("openai", "anthropic"):
    _TABLE[f"{_root}.APITimeoutError"] = _const(_TIMEOUT)
    _TABLE[f"{_root}.APIConnectionError"] = _const(_NETWORK)
    _TABLE[f"{_root}.APIStatusError"] = _status_or(_v(C.UPSTREAM))
    _TABLE[f"{_root}.APIResponseValidationError"] = _const(_UPSTREAM_BAD_BODY)
    _TABLE[f"{_root}.LengthFinishReasonError"] = _const(_BAD)
    _TABLE[f"{_root}.ContentFilterFinishReasonError"] = _const(_v(C.BUSINESS))
    _TABLE[f"{_root}.AuthenticationError"] = _status_or(_v(C.AUTH))

_TABLE.update(
    {
        "requests.ConnectTimeout": _const(_CONNECT),
        "requests.ReadTimeout": _const(_TIMEOUT),
        "requests.Timeout": _const(_TIMEOUT),
        "requests.ConnectionError": _const(_NETWORK),
        "requests.HTTPError": _status_or(_v(C.UPSTREAM)),
        "requests.TooManyRedirects": _const(_v(C.UPSTREAM, retryable=False)),
        "requests.MissingSchema": _const(_BAD),
        "requests.InvalidSchema": _const(_BAD),
        "requests.InvalidURL": _const(_BAD),
        "requests.InvalidHeader": _const(_BAD),
        "requests.JSONDecodeError": _const(_UPSTREAM_BAD_BODY),
        "requests.ContentDecodingError": _const(_UPSTREAM_BAD_BODY),
        "requests.ChunkedEncodingError": _const(_TIMEOUT),
        "urllib3.NewConnectionError": _const(_CONNECT),
        "urllib3.NameResolutionError": _const(_CONNECT),
        "urllib3.ConnectTimeoutError": _const(_CONNECT),
        "urllib3.ReadTimeoutError": _const(_TIMEOUT),
        "urllib3.ProtocolError": _const(_TIMEOUT),
        "urllib3.MaxRetryError": _const(_NETWORK),
        "aiohttp.ClientConnectorDNSError": _const(_CONNECT),
        "aiohttp.ClientConnectorError": _const(_CONNECT),
        "aiohttp.ConnectionTimeoutError": _const(_CONNECT),
        "aiohttp.SocketTimeoutError": _const(_TIMEOUT),
        "aiohttp.ServerTimeoutError": _const(_TIMEOUT),
        "aiohttp.ServerDisconnectedError": _const(_TIMEOUT),
        "aiohttp.ClientResponseError": _status_or(_v(C.UPSTREAM)),
        "aiohttp.ClientPayloadError": _const(_UPSTREAM_BAD_BODY),
        "aiohttp.ContentTypeError": _const(_UPSTREAM_BAD_BODY),
        "aiohttp.InvalidURL": _const(_BAD),
        "aiohttp.ClientOSError": lambda exc: _oserror(exc) or _NETWORK,
        "urllib.HTTPError": _status_or(_v(C.UPSTREAM)),
        "urllib.URLError": _url_error,
        "http.RemoteDisconnected": _const(_TIMEOUT),
        "http.IncompleteRead": _const(_TIMEOUT),
        "http.InvalidURL": _const(_BAD),
        "socket.gaierror": _gaierror,
        "socket.herror": _const(_CONNECT),
        "ssl.SSLCertVerificationError": _const(_v(C.CONNECTIVITY, retryable=False, never_ran=True)),
        "ssl.SSLError": _const(_NETWORK),
        "json.JSONDecodeError": _const(_UPSTREAM_BAD_BODY),
        "sqlite3.OperationalError": _sqlite_operational,
        "sqlite3.IntegrityError": _const(_v(C.BUSINESS)),
        "sqlite3.ProgrammingError": _const(_BAD),
        "sqlite3.DataError": _const(_BAD),
        "sqlite3.NotSupportedError": _const(_v(C.BUSINESS)),
        "psycopg.Error": _psycopg,
        "psycopg2.Error": _psycopg,
        "botocore.ClientError": _botocore_client,
        "botocore.EndpointConnectionError": _const(_CONNECT),
        "botocore.ConnectTimeoutError": _const(_CONNECT),
        "botocore.ReadTimeoutError": _const(_TIMEOUT),
        "botocore.ConnectionClosedError": _const(_TIMEOUT),
        "botocore.NoCredentialsError": _const(_v(C.AUTH)),
        "botocore.PartialCredentialsError": _const(_v(C.AUTH)),
        "botocore.ParamValidationError": _const(_BAD),
        "pydantic_core.ValidationError": _const(_BAD),
        "asyncio.TimeoutError": _const(_TIMEOUT),
        "concurrent.TimeoutError": _const(_TIMEOUT),
    }
)


_BUILTIN: dict[str, Verdict] = {
    "TimeoutError": _TIMEOUT,
    "ConnectionRefusedError": _CONNECT,
    "ConnectionError": _v(C.CONNECTIVITY, never_ran=False),
    "FileNotFoundError": _v(C.NOT_FOUND),
    "PermissionError": _v(C.AUTH),
    "FileExistsError": _v(C.BUSINESS),
    "IsADirectoryError": _BAD,
    "NotADirectoryError": _BAD,
    "KeyError": _v(C.NOT_FOUND, score=SCORE_BUILTIN),
    "IndexError": _v(C.NOT_FOUND, score=SCORE_BUILTIN),
    "LookupError": _v(C.NOT_FOUND, score=SCORE_BUILTIN),
    "UnicodeError": _v(C.BAD_REQUEST, score=SCORE_BUILTIN),
    "ValueError": _v(C.BAD_REQUEST, score=SCORE_BUILTIN),
    "TypeError": _v(C.BAD_REQUEST, score=SCORE_BUILTIN),
    "ArithmeticError": _v(C.BAD_REQUEST, score=SCORE_BUILTIN),
    "NotImplementedError": _v(C.BUSINESS, score=SCORE_BUILTIN),
    "MemoryError": _v(C.UPSTREAM, retryable=False, score=SCORE_BUILTIN),
    "RecursionError": _v(C.UNKNOWN, score=SCORE_BUILTIN),
}


def _key(cls: type) -> str:
    return f"{module_of(cls).partition('.')[0]}.{class_name(cls)}"


Route = tuple[tuple[Callable[[BaseException], "Verdict | None"] | None, "Verdict | None"], ...]
"""Where a class's verdict is looked for, in MRO order: ``(handler, None)`` asks a
handler of the exception (its errno, status, text), ``(None, verdict)`` is a builtin's
verdict, which ends the walk."""


class TypeFacts(NamedTuple):
    """What toolhygiene reads of an exception class alone, never of an exception: its
    ``route`` to a verdict, whether it is a builtin (builtins carry no HTTP headers, and
    an ``OSError``'s text is its slots'), and its ``name`` as a record gives it
    (``_reading.qualified_name``)."""

    route: Route
    builtin: bool
    name: str


def route(cls: type) -> Route:
    """``cls``'s route, read from its MRO now (``type_facts`` keeps it)."""
    steps: list[tuple[Callable[[BaseException], Verdict | None] | None, Verdict | None]] = []
    for base in mro(cls):
        if module_of(base) == "builtins":
            if issubclass(base, OSError):
                steps.append((_oserror, None))
            verdict = _BUILTIN.get(class_name(base))
            if verdict is not None:
                steps.append((None, verdict))
                break
            continue
        handler = _TABLE.get(_key(base))
        if handler is not None:
            steps.append((handler, None))
    return tuple(steps)


def facts_of(cls: type) -> TypeFacts:
    """``cls``'s facts, read now."""
    return TypeFacts(route(cls), module_of(cls) == "builtins", qualified_name(cls))


TYPE_FACTS = 512
"""Exception classes whose facts are kept at once (the oldest is forgotten first: a
program that makes classes on the fly keeps a bounded cache)."""

_FACTS: dict[int, tuple[weakref.ref[type], TypeFacts]] = {}
_FACTS_LOCK = threading.Lock()


def type_facts(cls: type) -> TypeFacts:
    """``cls``'s facts, read at its first failure in the process and kept (by identity:
    a class's own ``__hash__``/``__eq__``, a metaclass's, are never asked); a class
    renamed or rebased after that keeps what was first read."""
    kept = _FACTS.get(id(cls))
    if kept is not None and kept[0]() is cls:
        return kept[1]
    facts = facts_of(cls)
    try:
        ref = weakref.ref(cls)
    except TypeError:  # no weak reference to it: read every time
        return facts
    with _FACTS_LOCK:
        if len(_FACTS) >= TYPE_FACTS:
            del _FACTS[next(iter(_FACTS))]
        _FACTS[id(cls)] = (ref, facts)
    return facts


def verdict_by(steps: Route, exc: BaseException) -> Verdict | None:
    """``exc``'s built-in verdict along its class's route."""
    for handler, verdict in steps:
        if handler is None:
            return verdict
        found = handler(exc)
        if found is not None:
            return found
    return status_verdict(exc)


def library_verdict(exc: BaseException) -> Verdict | None:
    """The built-in verdict for ``exc`` alone (not its chain), or ``None``."""
    return verdict_by(type_facts(type(exc)).route, exc)
