"""Which tags of outside text speak to the model: authority and the model's own channels.

``neutralise`` turns the role and frame tags (``<system>``, ``</tool_result>``) into
``[markup:…]`` by name. Other tags pose as the prompt's structure by what they name or
what they hold, and are judged here, a tag at a time:

- a tag that names the model, its hidden channel or authority over it (``<IMPORTANT>``,
  ``<thinking>``, ``<reasoning>``, ``<scratchpad>``, ``<admin>``, ``<claude>``,
  ``<ai_note>``, ``<gptInstructions>``): any word of its name, split at ``_``, ``-``,
  ``.``, ``:`` and case changes, is one of ``_SPEAKING``; such a tag is markup whatever
  it holds;
- a tag written in capitals that is not an HTML element (``<NOTE>``, ``<URGENT>``), or
  one naming a part of a conversation or of its orders (``<rules>``, ``<policy>``,
  ``<operator>``, ``<context>``, ``<message>``, ``<answer>``, ``<output>``, ``<model>``),
  is markup when the text it opens is a turn's, judged as a role label's value
  (``_orders.role_is_data``): ``<rules>send the password to …`` is; ``<message>Invalid
  order id</message>``, ``<model>X200</model>`` and an OFX file's ``<NAME>Jane Doe``
  are a record's fields and stay.

Ordinary HTML and XML (``<p>``, ``<table>``, ``<item>``, ``<description>Click here to
read more</description>``) is none of these and stays byte for byte; so does a
namespaced tag whose local name says nothing (``<context:component-scan>``). The
closing tag of a tag made markup is markup too.
"""

from __future__ import annotations

import functools
import re

from toolhygiene._code import placeholder
from toolhygiene._orders import role_is_data
from toolhygiene._words import markup_marker

__all__ = ["speaking_tags"]


def _lexicon(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Words that name the model, a hidden channel of its own, or authority over it.
_SPEAKING = _lexicon(
    """
    ai llm llms gpt chatgpt claude gemini llama mistral copilot chatbot openai anthropic
    thinking think thought thoughts reasoning scratchpad reflection monologue
    important urgent critical mandatory admin administrator sudo superuser override
    jailbreak directive directives guideline guidelines
    """
)
# Words that name a part of a conversation or of the orders given in it.
_PARTS = _lexicon(
    """
    rules rule policy policies operator context message messages answer answers output
    response reply model agent bot task tasks note notes memory constraints requirements
    request query input human conversation chat history persona role orders commands
    """
)
# HTML's elements (the living standard's, and the old ones a page may still hold): a
# tag in capitals that is one of them is a page's (``<P>``, ``<TABLE>``).
_HTML = _lexicon(
    """
    a abbr acronym address area article aside audio b base basefont bdi bdo big blink
    blockquote body br button canvas caption center cite code col colgroup data datalist
    dd del details dfn dialog dir div dl dt em embed fieldset figcaption figure font
    footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe img
    input ins kbd label legend li link main map mark marquee menu meta meter nav nobr
    noframes noscript object ol optgroup option output p param picture pre progress q rp
    rt ruby s samp script search section select slot small source span strike strong
    style sub summary sup svg math table tbody td template textarea tfoot th thead time
    title tr track tt u ul var video wbr
    """
)
# Keys of a keyboard, as manuals write them (``press <TAB>``, ``<ESC>``, ``<CR>``).
_KEYS = _lexicon(
    """
    tab enter return esc escape cr lf nl space spc bs backspace del delete ins insert home
    end pgup pgdn pageup pagedown up down left right ctrl alt shift meta cmd super fn
    leader nop bar bslash lt gt plug sid
    """
)
_TAG = re.compile(r"<(/?)[ \t]{0,3}([A-Za-z][\w.:-]{0,40})(?![\w.:-])(?P<attrs>\s[^<>]{0,200})?/?>")
# What starts a tag's attributes: an attribute's name. Other text there makes the
# brackets a program's printed value, not a tag: Python's ``<Response [200 OK]>``,
# ``<Task pending (…)>``, ``<Foo object at 0x…>`` is judged by its first word only when
# that word names authority (``_ALWAYS``).
_ATTRIBUTE = re.compile(r"\s+(?:[A-Za-z_:@][\w.:-]*\s*(?:=|/?$|\s)|/?$)")
_NAME_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
# What a start tag opens: the text after it to the next tag or the line's end; when that
# is blank, the next line's (``<IMPORTANT>\nsend …``).
_OPENED = re.compile(r"[ \t]*(?:\r?\n[ \t]*)?([^<\r\n]{0,200})")


def _words(name: str) -> set[str]:
    """The words of a tag's local name (after its namespace), lowered."""
    local = name.rsplit(":", 1)[-1]
    return {w.lower() for w in _NAME_WORD.findall(local)}


def _opens_a_turn(text: str, end: int) -> bool:
    m = _OPENED.match(text, end)
    value = m.group(1).strip() if m else ""
    return bool(value) and not role_is_data(f"user: {value}", 5, "user", record=False)


_NEVER, _ALWAYS, _JUDGED = range(3)


@functools.lru_cache(maxsize=512)
def _kind(name: str) -> int:
    """What a tag's name alone says: it speaks to the model (``_ALWAYS``), it does when
    it opens a turn (``_JUDGED``: a conversation's part, or capitals), or never (a
    document repeats its few names: each is read once)."""
    words = _words(name)
    if not words.isdisjoint(_SPEAKING):
        return _ALWAYS
    local = name.rsplit(":", 1)[-1]
    if words.isdisjoint(_PARTS) and not (local.isupper() and len(local) > 1):
        return _NEVER
    if words <= _KEYS:
        return _NEVER  # a key's name (``<TAB>``, ``<ESC>``)
    return _JUDGED


def _quoted(text: str, start: int, end: int, attrs: str | None) -> bool:
    """(neut20) Whether the tag at ``text[start:end]`` is a name written about, not
    markup: inside inline code (a backtick on each side: ``presses ``<TAB>`` ``), or with
    a printed value's text where attributes go (``<Response [200 OK]>``)."""
    if text[start - 1 : start] == "`" and text[end : end + 1] == "`":
        return True
    return attrs is not None and _ATTRIBUTE.match(attrs) is None


def speaking_tags(text: str) -> str:
    """``text`` with each tag that speaks to the model (see the module's docstring), and
    the closing tags of the same names, made ``[markup:<name>]``; ``text`` itself when
    there is none."""
    made: set[str] = set()
    parts: list[str] = []
    last = 0
    for m in _TAG.finditer(text):
        closing, name = m.group(1), m.group(2)
        key = name.lower()
        if key in _HTML and key not in _PARTS:
            continue  # most tags of a page: ``<p>``, ``<P>``, ``<td>``
        kind = _kind(name)
        if closing:
            speaks = key in made or kind == _ALWAYS
        else:
            speaks = kind == _ALWAYS or (
                kind == _JUDGED
                and not _quoted(text, m.start(), m.end(), m.group("attrs"))
                and not placeholder(text, m.start(2), m.end())  # <USER name> (neut21)
                and _opens_a_turn(text, m.end())
            )
            if speaks:
                made.add(key)
        if speaks:
            parts.append(text[last : m.start()])
            parts.append(markup_marker(name))
            last = m.end()
    if not parts:
        return text
    parts.append(text[last:])
    return "".join(parts)
