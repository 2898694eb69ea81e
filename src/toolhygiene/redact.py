"""Make untrusted text safe for a model's context: redact, neutralise, fold, cap.

The order is fixed (``sanitize``): cap the raw text, redact secrets and internals,
neutralise instruction-like markup, fold to one line, then truncate to the line cap.
Truncating first could cut a secret so that half of it slips past the patterns.

Every pattern is linear: bounded quantifiers, no nested repetition, so hostile text of
any shape costs time in proportion to its length.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["RAW_CAP", "fold", "neutralise", "redact", "redact_data", "sanitize", "truncate"]

RAW_CAP = 65_536
"""Characters of raw text read at most; the rest is dropped before any other work."""

_ELLIPSIS = "…"

_Sub = Callable[[re.Match[str]], str]


def _placeholder(name: str) -> str:
    return f"[redacted:{name}]"


def _replace_all(name: str) -> Callable[[re.Match[str]], str]:
    text = _placeholder(name)
    return lambda _m: text


def _keep_group(group: int, name: str, suffix: int | None = None) -> Callable[[re.Match[str]], str]:
    text = _placeholder(name)

    def sub(m: re.Match[str]) -> str:
        tail = m.group(suffix) if suffix is not None else ""
        return m.group(group) + text + (tail or "")

    return sub


_ALLOWED_VALUES = frozenset({"true", "false", "null", "none", "nil", "undefined", "", "***"})


def _secret_value(m: re.Match[str]) -> str:
    value = m.group("value").strip("\"'")
    if (
        value.lower() in _ALLOWED_VALUES
        or value.startswith(("$", "{{", "<", "%(", "[redacted:"))
        or set(value) <= {"*", "x", "X", "•"}
    ):
        return m.group(0)
    return m.group("key") + m.group("sep") + _placeholder("secret")


_HOME = r"(?P<prefix>/home/|/Users/|[A-Za-z]:\\{1,2}Users\\{1,2})(?P<user>[^/\\\s'\"<>:]{1,64})"

# Most specific first: a PEM block before anything that could match inside it, a
# connection string before the generic URL-credentials rule, Anthropic keys before
# OpenAI's ``sk-``.
# Each rule runs only where its gate lets it: a regex found in the text, or one of a
# tuple of lowercase substrings present. When a tuple's first member is part of all the
# others, it is checked alone first: one search rules out the whole group.
# Regex gates start with a rare literal or a digit, so the search skips most positions:
# cheaper than a substring search per needle where a rule has many.
_AWS_ID_GATE = re.compile(r"(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}")
_PRIVATE_V4_GATE = re.compile(r"1(?:0|27|92\.168|72|69\.254|00)\.\d")


Gate = tuple[str, ...] | re.Pattern[str]

_RULES: tuple[tuple[Gate, re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (
        ("-----begin",),
        re.compile(
            r"-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----[\s\S]*?"
            r"(?:-----END[A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----|\Z)"
        ),
        _replace_all("private-key"),
    ),
    (
        (
            "postgres",
            "mysql",
            "mariadb",
            "mongodb",
            "redis",
            "amqp",
            "mssql",
            "sqlserver",
            "oracle",
            "clickhouse",
            "cockroach",
        ),
        re.compile(
            r"\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|amqps?|mssql|"
            r"sqlserver|oracle|clickhouse|cockroachdb)(?:\+[a-z0-9]{1,20})?://[^\s'\"<>`]{1,2048}",
            re.IGNORECASE,
        ),
        _replace_all("connection-string"),
    ),
    (
        ("jdbc:",),
        re.compile(r"\bjdbc:[a-z0-9]{1,20}:[^\s'\"<>`]{1,2048}", re.IGNORECASE),
        _replace_all("connection-string"),
    ),
    (
        ("hooks.slack.com",),
        re.compile(
            r"\bhttps://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{8,200}"
        ),
        _replace_all("slack-webhook"),
    ),
    (
        ("@",),
        re.compile(
            r"\b([a-z][a-z0-9+.-]{1,20}://)[^\s/:@'\"<>]{1,256}:[^\s/@'\"<>]{1,256}@",
            re.IGNORECASE,
        ),
        _keep_group(1, "credentials", None),
    ),
    (
        ("authorization",),
        re.compile(
            r"\b((?:proxy-)?authorization[\"']?\s{0,5}[:=]\s{0,5}[\"']?)"
            r"(?:(?:bearer|basic|token|digest|negotiate|apikey)\s{1,5})?[^\s,;'\"]{1,4096}",
            re.IGNORECASE,
        ),
        _keep_group(1, "authorization"),
    ),
    (
        ("bearer",),
        re.compile(r"\b(bearer\s{1,5})[A-Za-z0-9\-._~+/]{8,4096}=*", re.IGNORECASE),
        _keep_group(1, "bearer-token"),
    ),
    (
        ("basic",),
        re.compile(r"\b(basic\s{1,5})[A-Za-z0-9+/]{8,4096}={0,2}(?![A-Za-z0-9+/=])"),
        _keep_group(1, "basic-credentials"),
    ),
    (("sk-ant-",), re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{20,512}"), _replace_all("anthropic-key")),
    (
        ("sk-",),
        re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,512}"),
        _replace_all("openai-key"),
    ),
    (
        (
            "gl",
            "glpat-",
            "gldt-",
            "glrt-",
            "glptt-",
            "glcbt-",
            "glsoat-",
            "glft-",
            "glimt-",
            "glagent-",
        ),
        re.compile(r"\bgl(?:pat|dt|rt|ptt|cbt|soat|ft|imt|agent)-[A-Za-z0-9_\-]{20,255}"),
        _replace_all("gitlab-token"),
    ),
    (("xox",), re.compile(r"\bxox[abposre]-[A-Za-z0-9\-]{10,255}"), _replace_all("slack-token")),
    (("xapp-",), re.compile(r"\bxapp-\d-[A-Za-z0-9\-]{10,255}"), _replace_all("slack-token")),
    (("pypi-age",), re.compile(r"\bpypi-AgE[A-Za-z0-9_\-]{50,1024}"), _replace_all("pypi-token")),
    (
        ("_live_", "_test_"),
        re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,256}"),
        _replace_all("stripe-key"),
    ),
    (
        ("whsec_",),
        re.compile(r"\bwhsec_[A-Za-z0-9]{16,256}"),
        _replace_all("stripe-webhook-secret"),
    ),
    (
        ("gh", "ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,255}\b"),
        _replace_all("github-token"),
    ),
    (
        ("github_pat_",),
        re.compile(r"\bgithub_pat_[A-Za-z0-9_]{22,255}\b"),
        _replace_all("github-token"),
    ),
    (("npm_",), re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"), _replace_all("npm-token")),
    (("rubygems_",), re.compile(r"\brubygems_[a-f0-9]{48}\b"), _replace_all("rubygems-token")),
    (
        ("dckr_pat_",),
        re.compile(r"\bdckr_pat_[A-Za-z0-9_\-]{20,255}"),
        _replace_all("docker-token"),
    ),
    (
        _AWS_ID_GATE,
        re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}\b"),
        _replace_all("aws-access-key-id"),
    ),
    (
        ("secret",),
        re.compile(
            r"((?:aws)?_?secret_?(?:access)?_?key[\"']?\s{0,5}[:=]\s{0,5}[\"']?)"
            r"[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])",
            re.IGNORECASE,
        ),
        _keep_group(1, "aws-secret-key"),
    ),
    (
        ("aiza",),
        re.compile(r"\bAIza[0-9A-Za-z_\-]{35}(?![0-9A-Za-z_\-])"),
        _replace_all("google-api-key"),
    ),
    (
        ("eyj",),
        re.compile(
            r"\beyJ[A-Za-z0-9_\-]{8,4096}\.eyJ[A-Za-z0-9_\-]{2,8192}\.[A-Za-z0-9_\-]{0,4096}"
        ),
        _replace_all("jwt"),
    ),
    (
        ("cookie",),
        re.compile(r"\b((?:set-)?cookie\s{0,5}:\s{0,5})[^\r\n]{1,8192}", re.IGNORECASE),
        _keep_group(1, "cookie"),
    ),
    (
        ("sess",),
        re.compile(
            r"\b((?:php|j|asp\.net_)?sess(?:ion)?[_-]?id\s{0,5}[=:]\s{0,5})[^\s;&,'\"]{4,1024}",
            re.IGNORECASE,
        ),
        _keep_group(1, "session-id"),
    ),
    (
        ("pass", "pwd", "secret", "key", "token", "credential", "signature"),
        re.compile(
            r"(?P<key>\b[A-Za-z0-9_.\-]{0,40}(?:password|passwd|passphrase|pwd|secret|"
            r"api[_\-]?key|apikey|access[_\-]?key|access[_\-]?token|auth[_\-]?token|"
            r"refresh[_\-]?token|id[_\-]?token|client[_\-]?secret|private[_\-]?key|token|"
            r"credentials?|signature)[\"']?)"
            r"(?P<sep>\s{0,5}[:=]\s{0,5})(?P<value>\"[^\"\r\n]{0,1024}\"|'[^'\r\n]{0,1024}'|"
            r"[^\s\"',;&}\)\]]{1,1024})",
            re.IGNORECASE,
        ),
        _secret_value,
    ),
    (
        ("@",),
        re.compile(
            r"\b[A-Za-z0-9._%+\-]{1,64}@[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63}){0,8}\.[A-Za-z]{2,24}\b"
        ),
        _replace_all("email"),
    ),
    (
        _PRIVATE_V4_GATE,
        re.compile(
            r"(?<![\d.])(?:10(?:\.\d{1,3}){3}|127(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}|"
            r"172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|169\.254(?:\.\d{1,3}){2}|"
            r"100\.(?:6[4-9]|[7-9]\d|1[01]\d|12[0-7])(?:\.\d{1,3}){2})(?![\d.]*\d)"
        ),
        _replace_all("private-ip"),
    ),
    (
        ("::", "fc", "fd", "fe80:"),
        re.compile(
            r"(?<![\w:])(?:::1|(?:f[cd][0-9a-f]{2}|fe80):[0-9a-f:]{2,39})(?![\w:])", re.IGNORECASE
        ),
        _replace_all("private-ip"),
    ),
    (
        (".internal", ".local", ".corp", ".lan", ".intranet", "home.arpa", "localhost"),
        re.compile(
            r"\b(?:[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?\.){1,10}"
            r"(?:internal|local|corp|lan|intranet|localdomain|home\.arpa)\b|\blocalhost\b",
            re.IGNORECASE,
        ),
        _replace_all("internal-host"),
    ),
    (
        ("/home/", "/users/", "users\\"),
        re.compile(_HOME),
        lambda m: m.group("prefix") + _placeholder("user"),
    ),
)


def _compile_gate(gate: Gate) -> tuple[str | None, tuple[str, ...], re.Pattern[str] | None]:
    if isinstance(gate, re.Pattern):
        return None, (), gate
    first, rest = gate[0], gate[1:]
    if rest and all(first in other for other in rest):
        return first, rest, None
    return None, gate, None


_PLAN = tuple((*_compile_gate(gate), pattern, sub) for gate, pattern, sub in _RULES)


def redact(text: str) -> str:
    """Replace secrets and internals in ``text`` with ``[redacted:<what>]`` placeholders.

    Removes API keys and tokens (cloud, VCS, chat, LLM, payment, package registries),
    JWTs, PEM private keys, credentials in URLs and headers, connection strings,
    ``key=value`` secrets, cookies and session ids, e-mail addresses, private and
    loopback addresses, internal host names and the user name in home directories.
    Ids the model needs (UUIDs, order numbers, hashes, versions, public URLs) stay.
    """
    lowered = text.lower()
    for common, any_of, regex, pattern, sub in _PLAN:
        if regex is not None:
            if regex.search(text) is None:
                continue
        elif common is not None and common not in lowered:
            continue
        else:
            # Inline, not any(): this loop is most of the cost of redacting short text.
            for needle in any_of:
                if needle in lowered:
                    break
            else:
                continue
        text = pattern.sub(sub, text)
    return text


_MARKUP = re.compile(
    r"<\s{0,5}/?\s{0,5}(?P<tag>system|assistant|user|human|developer|tool_result|tool_use|"
    r"function_results?|function_calls?|tool_call|instructions?|prompt|antml:[a-z_]{1,30}|"
    r"im_start|im_end|invoke|parameter)\b[^<>]{0,200}>|<\|[a-z_]{1,30}\|>",
    re.IGNORECASE,
)
_ROLE_MARKER = re.compile(r"(?im)^[ \t]{0,20}(system|assistant|human|user|developer)[ \t]{0,5}:")
_INJECTION = re.compile(
    r"\b(?:ignore|disregard|forget|override)\s{1,5}(?:all\s{1,5}|any\s{1,5}|the\s{1,5})?"
    r"(?:previous|prior|above|earlier|preceding|your)\s{1,5}"
    r"(?:instructions?|prompts?|messages?|rules|context)",
    re.IGNORECASE,
)


_ROLES = ("system", "assistant", "human", "user", "developer")
_STEERING = ("ignore", "disregard", "forget", "override")


def _markup_sub(m: re.Match[str]) -> str:
    tag = m.group("tag")
    return f"[markup:{tag.lower()}]" if tag else "[markup]"


def neutralise(text: str) -> str:
    """Defuse text written to steer a model: role tags, chat-template tokens, role
    markers at line starts and "ignore previous instructions" phrasing."""
    lowered = text.lower()
    if "<" in text:
        text = _MARKUP.sub(_markup_sub, text)
    if ":" in text and _any_in(_ROLES, lowered):
        text = _ROLE_MARKER.sub(lambda m: f"[role:{m.group(1).lower()}]", text)
    if _any_in(_STEERING, lowered):
        text = _INJECTION.sub("[instruction-like text removed]", text)
    return text


def _any_in(needles: tuple[str, ...], haystack: str) -> bool:
    # A plain loop: any() over a generator costs more than the searches it saves here.
    for needle in needles:  # noqa: SIM110
        if needle in haystack:
            return True
    return False


_INVISIBLE = re.compile(
    r"\x1b\[[0-?]{0,32}[ -/]{0,8}[@-~]"  # CSI sequences (colours, cursor moves)
    r"|\x1b\][^\x07\x1b]{0,4096}(?:\x07|\x1b\\)?"  # OSC sequences (titles, links)
    r"|[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f]"  # other control characters
    r"|[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u00ad]"  # invisible, bidi
)
_SPACE = re.compile(r"[\s\x85\u2028\u2029]+")


def fold(text: str) -> str:
    """One line: drop escapes, control, zero-width and bidi characters, collapse spaces."""
    if text.isascii() and text.isprintable():
        return text.strip() if "  " not in text else _SPACE.sub(" ", text).strip()
    text = _INVISIBLE.sub("", text)
    return _SPACE.sub(" ", text).strip()


def truncate(text: str, cap: int) -> str:
    """Cut ``text`` to at most ``cap`` characters at a word boundary, ending in ``…``."""
    if len(text) <= cap:
        return text
    cut = text[: cap - 1]
    space = cut.rfind(" ")
    if space >= cap // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.") + _ELLIPSIS


def sanitize(text: str, cap: int, *, redacting: bool = True) -> str:
    """Untrusted text to one safe line of at most ``cap`` characters.

    The order is the point: cap the raw text, redact, neutralise, fold, truncate.
    """
    if not text:
        return ""
    text = text[:RAW_CAP]
    if redacting:
        text = redact(text)
    return truncate(fold(neutralise(text)), cap)


def redact_data(value: Any, depth: int = 0) -> Any:
    """``value`` with every string in it redacted: dicts, lists and tuples are walked
    (keys too), other objects are left as they are. Deeper than 20 levels is cut."""
    if isinstance(value, str):
        return redact(value[:RAW_CAP])
    if depth > 20:
        return "[cut: nested too deep]"
    if isinstance(value, Mapping):
        return {redact_data(k, depth + 1): redact_data(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_data(v, depth + 1) for v in value]
    return value
