"""What an outside text writes to make the model leak data through its own output
(issue 12, neut21).

- An image a client would fetch as soon as it shows the reply: Markdown's
  ``![alt](https://host/path?q=…)`` and ``![alt][ref]``, and HTML's ``<img src="…">``.
  Copied into a reply with data filled into its address, it sends that data to the
  address's host with no click. In an untrusted result it is shown as ``[image: alt]
  (https://host/path?q=…)``: the model still learns that an image was there, what it
  was called and where it points, but the text is no image's markup any more (no client
  fetches it on display; a bare address is at most a link, fetched only when followed).
  A slot the address leaves for the model to fill in (``{api_key}``, ``{{token}}``,
  ``[API_KEY]``, ``<secret>``, ``$KEY``, ``SECRET_HERE``: braces, brackets, angle
  brackets, a variable, a name in capitals joined by ``_``) becomes ``[instruction-like
  text removed]``: it asks for a value, it holds none.
- An order to fill a private value in: a verb of putting a value somewhere (fill in,
  insert, put, add, append, include, embed, paste, substitute, replace … with) and a
  secret or the user's private data (an API key, a token, a password, a cookie, the
  system prompt, the conversation, an e-mail address, …) that is the user's ("the
  user's API key", "their password") or goes into a link, an image, an address or a
  query; and an order relayed to the model ("tell the assistant to …", "ask the AI to
  …", "instruct the agent to …") naming such a value. The sentence from its verb
  becomes ``[instruction-like text removed]``. "Fill in your API key in the .env file"
  (a manual's, to its reader, about the reader's own key) and "Ask the assistant to
  draft an e-mail" (no secret) stay.

Each shape starts with a literal (``![``, ``<img``) or is looked for around a verb's
word found by ``str.find``, and reads a bounded window: linear.
"""

from __future__ import annotations

import re

from toolhygiene._needles import Gate
from toolhygiene._words import INSTRUCTION_REMOVED, image_marker

__all__ = ["exfil_gate", "exfil_edits"]

# -- images --------------------------------------------------------------------------------

_IMAGE = re.compile(
    r"!\[(?P<alt>[^\[\]\n]{0,300})\][ \t]{0,3}(?:"
    r"\([ \t]{0,3}<?(?P<url>[^\s()<>]{1,2048}(?:\([^\s()]{0,200}\)[^\s()<>]{0,500})?)>?"
    r"(?:[ \t]{1,3}(?:\"[^\"\n]{0,300}\"|'[^'\n]{0,300}'|\([^()\n]{0,300}\)))?[ \t]{0,3}\)"
    r"|\[(?P<ref>[^\[\]\n]{0,100})\])"
)
_IMG_TAG = re.compile(r"<img\b(?P<attrs>[^<>]{0,2000})>", re.IGNORECASE)
_ATTR = re.compile(
    r"(?P<name>src|alt|srcset|data-src)[ \t]{0,3}=[ \t]{0,3}"
    r"(?:\"(?P<dq>[^\"]{0,2048})\"|'(?P<sq>[^']{0,2048})'|(?P<bare>[^\s\"'>]{1,2048}))",
    re.IGNORECASE,
)
# A slot left in an address for a value: braces (once or twice), brackets, angle
# brackets (also URL-encoded), a shell or template variable, a name in capitals joined
# by "_" (``SECRET_HERE``, ``API_KEY``, ``USER_EMAIL``).
_SLOT = re.compile(
    r"\{\{?[^{}\s]{1,80}\}?\}|%7[Bb](?:%7[Bb])?[^%\s]{1,80}(?:%7[Dd]){1,2}"
    r"|\[[^\[\]\s]{1,80}\]|%5[Bb][^%\s]{1,80}%5[Dd]|<[^<>\s]{1,80}>|%3[Cc][^%\s]{1,80}%3[Ee]"
    r"|\$\{?[A-Za-z_][A-Za-z0-9_]{0,60}\}?"
    r"|(?<![A-Za-z0-9])[A-Z][A-Z0-9]{1,30}(?:_[A-Z0-9]{1,30}){1,4}(?![A-Za-z0-9])"
)
_REMOVED = INSTRUCTION_REMOVED


def _shown_address(url: str) -> str:
    """``url`` with each slot for a value made ``[instruction-like text removed]``."""
    return _SLOT.sub(_REMOVED, url) if url else url


def _image_shown(alt: str, url: str) -> str:
    return image_marker(" ".join(alt.split()), _shown_address(url))


# A query's parameter left empty for a value ("?d=", "&q=&"): an address built to be
# completed.
_EMPTY_VALUE = re.compile(r"[?&#][\w.-]{1,40}=(?=&|$)")


def _built_to_fill(url: str) -> bool:
    """Whether an image's address leaves a value to fill in (``_SLOT``, ``_EMPTY_VALUE``)."""
    return _SLOT.search(url) is not None or _EMPTY_VALUE.search(url) is not None


def _images(text: str) -> list[tuple[int, int, str]]:
    """Each image whose address leaves a value to fill in, and what it becomes. An image
    at a fixed address (a badge, a screenshot, a logo) stays byte for byte: copied into a
    reply it sends nothing of the user's."""
    found: list[tuple[int, int, str]] = []
    if "![" in text:
        refs: dict[str, str] | None = None
        for m in _IMAGE.finditer(text):
            if m.group("ref") is not None:
                if refs is None:
                    refs = {d.group("ref").lower(): d.group("url") for d in _REF_DEF.finditer(text)}
                ref = m.group("ref") or m.group("alt")
                url = refs.get(ref.lower(), "")
                if url.startswith("<") and url.endswith(">"):
                    url = url[1:-1]
                if url and _built_to_fill(url):
                    shown = f"{_image_shown(m.group('alt'), '')} [{m.group('ref')}]"
                    found.append((m.start(), m.end(), shown))
            elif _built_to_fill(m.group("url")):
                found.append((m.start(), m.end(), _image_shown(m.group("alt"), m.group("url"))))
    if "<" in text and ("img" in text or "IMG" in text or "Img" in text):
        for m in _IMG_TAG.finditer(text):
            attrs = {
                a.group("name").lower(): a.group("dq") or a.group("sq") or a.group("bare") or ""
                for a in _ATTR.finditer(m.group("attrs"))
            }
            url = attrs.get("src") or attrs.get("data-src") or attrs.get("srcset", "")
            if url and _built_to_fill(url):
                found.append((m.start(), m.end(), _image_shown(attrs.get("alt", ""), url)))
    return found


# A reference's definition: ``[ref]: https://…`` at a line's start.
_REF_DEF = re.compile(
    r"(?m)^[ \t]{0,3}\[(?P<ref>[^\[\]\n]{1,100})\]:[ \t]{0,3}(?P<url>[^\s]{1,2048})"
)


# -- orders to fill a private value in ----------------------------------------------------

_CREDENTIAL = (
    r"(?:api[ \t_-]{0,2}keys?|access[ \t_-]{0,2}(?:keys?|tokens?)|keys?|tokens?|passwords?"
    r"|passphrases?|passcodes?|pins?|secrets?|credentials?|cookies?|session[ \t_-]{0,2}"
    r"(?:ids?|tokens?|cookies?)|ssh[ \t]{1,3}keys?|private[ \t]{1,3}keys?|system[ \t]{1,3}"
    r"prompt|(?:conversation|chat|message)[ \t]{1,3}history)"
)
_PRIVATE = (
    r"(?:conversation|chat|messages|e-?mails?(?:[ \t]{1,3}address(?:es)?)?|phone[ \t]{1,3}"
    r"numbers?|(?:home[ \t]{1,3})?address(?:es)?|credit[ \t]{1,3}card(?:[ \t]{1,3}numbers?)?"
    r"|card[ \t]{1,3}numbers?|ssn|social[ \t]{1,3}security[ \t]{1,3}numbers?|personal"
    r"[ \t]{1,3}(?:data|details|information|info)|data|name|location)"
)
_OWNER = (
    r"(?:the[ \t]{1,3}(?:user|users|customer|customers|client|human|person|account[ \t]"
    r"{1,3}owner)['\u2019]s?|their|his|her|the[ \t]{1,3}(?:current|logged-in|signed-in)"
    r"[ \t]{1,3}user['\u2019]s)"
)
_FILL = (
    r"(?:fill(?:[ \t]{1,3}(?:in|out))?|insert|put|place|add|append|include|embed|paste|plug"
    r"(?:[ \t]{1,3}in)?|substitute|inject|attach|encode|write|enter|type|replace[ \t]{1,3}"
    r"[^.!?\n]{1,60}?[ \t]{1,3}with)"
)
_PLACE = r"(?:url|link|image|img|query|placeholder|slot|markdown|src)"
_ORDER = re.compile(
    rf"\b{_FILL}[ \t]{{1,3}}(?:(?:in|into|the|a|an|all|every)[ \t]{{1,3}}){{0,2}}{_OWNER}"
    rf"[ \t]{{1,3}}(?:[\w-]{{1,20}}[ \t]{{1,3}}){{0,2}}?(?:{_CREDENTIAL}\b"
    rf"|{_PRIVATE}\b(?=[^.!?\n]{{0,80}}\b{_PLACE}s?\b))[^.!?\n]{{0,200}}[.!?]?",
    re.IGNORECASE,
)
_RELAYED = re.compile(
    r"\b(?:tell|ask|instruct|get|have|make|order|command|remind|direct|prompt)[ \t]{1,3}"
    r"(?:(?:the|your|this|that|any|our)[ \t]{1,3})?(?:ai|a\.i\.|assistant|model|agent|bot"
    r"|chatbot|llm|gpt|chatgpt|copilot|claude|gemini)s?[ \t]{1,3}(?:to[ \t]{1,3})?"
    r"(?P<rest>[^.!?\n]{1,300})[.!?]?",
    re.IGNORECASE,
)
_SECRET_WORD = re.compile(
    rf"\b(?:{_CREDENTIAL}|{_OWNER}[ \t]{{1,3}}(?:[\w-]{{1,20}}[ \t]{{1,3}}){{0,2}}?{_PRIVATE})\b",
    re.IGNORECASE,
)
_RELAY_NEEDLES = ("tell", "ask", "instruct", "get ", "have", "make", "order", "command",
                  "remind", "direct", "prompt")  # fmt: skip
_FILL_NEEDLES = ("fill", "insert", "put", "place", "add", "append", "include", "embed",
                 "paste", "plug", "substitut", "inject", "attach", "encode", "write",
                 "enter", "type", "replace")  # fmt: skip
_MODEL_NEEDLES = ("ai", "assistant", "model", "agent", "bot", "llm", "gpt", "copilot",
                  "claude", "gemini")  # fmt: skip


def _word_starts(lowered: str, needles: tuple[str, ...]) -> list[int]:
    """Where each of ``needles`` starts a word of ``lowered`` (``str.find``, in C), in
    order."""
    hits: list[int] = []
    for needle in needles:
        i = lowered.find(needle)
        while i != -1:
            if i == 0 or not (lowered[i - 1].isalnum() or lowered[i - 1] == "_"):
                hits.append(i)
            i = lowered.find(needle, i + len(needle))
    hits.sort()
    return hits


def _orders(text: str, lowered: str) -> list[tuple[int, int, str]]:
    """Each order to fill a private value in, matched at a verb's word (each match reads
    at most a sentence of 300 characters)."""
    found: list[tuple[int, int, str]] = []
    if any(n in lowered for n in _MODEL_NEEDLES) and any(n in lowered for n in _RELAY_NEEDLES):
        for at in _word_starts(lowered, _RELAY_NEEDLES):
            m = _RELAYED.match(text, at)
            if m is not None and _SECRET_WORD.search(m.group("rest")) is not None:
                found.append((m.start(), m.end(), _REMOVED))
    if any(n in lowered for n in _FILL_NEEDLES):
        for at in _word_starts(lowered, _FILL_NEEDLES):
            m = _ORDER.match(text, at)
            if m is not None:
                found.append((m.start(), m.end(), _REMOVED))
    return found


_SECRET_NEEDLES = ("key", "token", "pass", "secret", "credential", "cookie", "session",
                   "prompt", "history", "pin", "mail", "phone", "address", "card", "ssn",
                   "personal", "data", "name", "location", "conversation", "chat",
                   "messages")  # fmt: skip


_ASKING = Gate(_FILL_NEEDLES + _RELAY_NEEDLES)
_NAMING_SECRETS = Gate(_SECRET_NEEDLES)


def exfil_gate(lowered: str) -> bool:
    """Whether ``lowered`` may hold a shape of this module (C scans)."""
    return "![" in lowered or "<img" in lowered or (_ASKING(lowered) and _NAMING_SECRETS(lowered))


def exfil_edits(text: str) -> list[tuple[int, int, str]]:
    """What this module replaces in ``text``: each span and what it becomes, in order,
    not overlapping (an image first, then an order)."""
    lowered = text.lower()
    found = _images(text) + _orders(text, lowered)
    found.sort(key=lambda edit: (edit[0], -edit[1]))
    kept: list[tuple[int, int, str]] = []
    for edit in found:
        if kept and edit[0] < kept[-1][1]:
            continue
        kept.append(edit)
    return kept
