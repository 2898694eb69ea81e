"""Issue 12, speed21c: each shortcut gives what the path it replaces gave.

1. Seed labels: found on an ASCII text's lowercase form by a pattern led by its first
   letter (``_seeds._LABEL_LOWER``): the label ends ``_LABEL`` gives; and a label with no
   chain of list words near it (``_seeds._chains``) is passed over: ``find`` gives what
   reading every label's window gave.
2. A value before a label: an ASCII text with no determiner and no parenthesis has none,
   a value's shape is judged once per value: ``find`` gives what matching every window
   and judging every value gave.
3. Echo: matches ordered by two sorts keyed in C, as by the key tuple.
4. A command line's secrets judged once per tool and words (``_commands.find``): what
   judging each line afresh gave.
5. A here-string's command line: its start found from the nearest end (``stdin_find``),
   as the largest of all ends.
6. The here-string detector's screen: every match its check passes is in a text the
   screen finds.
"""

from __future__ import annotations

import operator
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples
from toolhygiene import _before_label, _commands, _detectors, _seeds
from toolhygiene._positional import SPAN


def _spans(found: list[re.Match[str]]) -> list[tuple[int, int]]:
    return [m.span() for m in found]


# -- 1. seed labels ------------------------------------------------------------------------

_SEED_PIECES = st.sampled_from(
    [
        "seed ",
        "Seed: ",
        "SEED_PHRASE=",
        "mnemonic ",
        "seeds ",
        "wallet words ",
        "secret recovery phrase: ",
        "backup-seed ",
        "bip39 ",
        "BIP-39 mnemonic code ",
        "abandon ",
        "zoo ",
        "ability ",
        "Able, ",
        "lorem ",
        "hmac ",
        "webhook ",
        "seedling ",
        "1. ",
        "\\n",
        "\\nabandon ",
        "\n",
        "  ",
        " " * 17,
        "x",
        "9",
        "\u017feed ",
        "\u0131",
    ]
)


def _seed_text(pieces: list[str], repeat: int) -> str:
    return "".join(pieces) * repeat


def _seeds_before(text: str) -> list[re.Match[str]]:
    """``_seeds.find`` as it was: every label's window read."""
    found = []
    reach = 0
    for label in _seeds._LABEL.finditer(text):
        at = label.end()
        if at < reach:
            continue
        run = _seeds._run(text, at)
        if run is not None:
            m = SPAN.match(text, *run)
            if m is not None:
                found.append(m)
                reach = run[1]
    return found


@settings(max_examples=examples(600), deadline=None)
@given(st.lists(_SEED_PIECES, min_size=1, max_size=30), st.integers(1, 6))
def test_seed_labels_and_runs_as_before(pieces: list[str], repeat: int) -> None:
    text = _seed_text(pieces, repeat)
    if text.isascii():
        lowered = [m.end() for m in _seeds._LABEL_LOWER.finditer(text.lower())]
        assert lowered == [m.end() for m in _seeds._LABEL.finditer(text)]
    assert _spans(_seeds.find(text)) == _spans(_seeds_before(text))


def test_a_chain_near_many_labels_is_still_read() -> None:
    words = "abandon ability able about above absent absorb abstract absurd abuse access"
    text = "seed: x " * 20 + "seed: " + words + " accident\n" + "seed: x " * 20
    assert len(_seeds_before(text)) == 1
    assert _spans(_seeds.find(text)) == _spans(_seeds_before(text))
    assert _seeds._chains(text) != []


# -- 2. a value before its label ------------------------------------------------------------

_BEFORE_PIECES = st.sampled_from(
    [
        "Xk9mQ2!vLp",
        "'Qx7pLm2R!'",
        "`Ab3dEf6G#`",
        "hunter22",
        " is the new password",
        " is ",
        " was their ",
        " (password)",
        " (the root password)",
        ", the password for",
        ", ıts password",
        " its token",
        " password",
        " token.",
        " THE ",
        " our ",
        " My ",
        " ſecret",
        "\n",
        ". ",
        " ",
    ]
)


def _before_label_before(text: str) -> list[re.Match[str]]:
    """``_before_label.find`` as it was: every window matched."""
    found = []
    for label in _before_label._LABEL.finditer(text):
        at = label.start("label")
        if at < 7:
            continue
        start = max(0, at - _before_label._WINDOW)
        line = text.rfind("\n", start, at)
        start = line + 1 if line != -1 else start
        m = _before_label._REVERSED.match(text[start:at][::-1])
        if m is None or (m.group("paren") is not None) != (label.group("close") is not None):
            continue
        group = "quoted" if m.group("quoted") is not None else "bare"
        end, begin = at - m.start(group), at - m.end(group)
        if not _before_label._secret_shaped(text[begin:end]):
            continue
        span = SPAN.match(text, begin, end)
        if span is not None:
            found.append(span)
    return found


@settings(max_examples=examples(800), deadline=None)
@given(st.lists(_BEFORE_PIECES, min_size=1, max_size=24), st.integers(1, 4))
def test_values_before_labels_as_before(pieces: list[str], repeat: int) -> None:
    text = "".join(pieces) * repeat
    assert _spans(_before_label.find(text)) == _spans(_before_label_before(text))


# -- 3. echo's order -------------------------------------------------------------------------


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 20), st.integers(0, 20))))
def test_two_sorts_order_as_the_key_tuple(matches: list[tuple[int, int, int]]) -> None:
    once = sorted(matches, key=lambda m: (m[1], -m[2]))
    twice = sorted(matches, key=operator.itemgetter(2), reverse=True)
    twice.sort(key=operator.itemgetter(1))
    assert twice == once


# -- 4. a command line's secrets, once per words ------------------------------------------------

_COMMAND_LINES = st.sampled_from(
    [
        "htpasswd -b f u Xk9mQ2vLpZr4",
        "htpasswd -nb u Qx7pLm2R",
        "htpasswd -cbB -C 12 f u Ab3dEf6G",
        "vault login Xk9mQ2vLpZr4",
        "vault login -method=github t0kenQx7",
        "mysql -u root -pXk9mQ2vL db",
        "sshpass -p 'Qx7pLm2R' ssh h",
        "net use \\\\host\\share Qx7pLm2R /user:bob",
        "curl -u bob:Qx7pLm2R https://x",
        "['sshpass', '-p', 'Xk9mQ2vLpZr4', 'ssh', 'h']",
        "docker login -p Ab3dEf6G x",
        "7z x -pQx7pLm2R a.7z",
        "ls -la",
    ]
)


def _commands_before(text: str) -> list[re.Match[str]]:
    """``_commands.find`` as it was: each command line's secrets judged afresh."""
    found = []
    reach: dict[str, int] = {}
    for tool, end in _commands._commands(text):
        if end.start() < reach.get(tool, -1):
            continue
        quote, flags = end.group("q"), _commands._TOOLS[tool]
        limit = 12 if flags.form == "next" else _commands._ARGS
        if quote is not None:
            if flags.after:
                head = _commands._argv_items(text, end.start("q"), quote, 4)
                if flags.after not in (text[s:e].lower() for s, e in head):
                    continue
            args = _commands._argv_items(text, end.start("q"), quote, limit)
        elif flags.after:
            args, position = _commands._words_to(text, end.end(), 4)
            if flags.after not in (text[s:e].lower() for s, e in args):
                continue
            if len(args) == 4:
                args += _commands._words_to(text, position, limit - 4)[0]
        else:
            args = _commands._shell_words(text, end.end(), limit)
        reach[tool] = args[-1][1] if args else end.end()
        for start, stop in _commands._secrets(text, flags, args):
            span = SPAN.match(text, start, stop)
            if span is not None:
                found.append(span)
    return found


@settings(max_examples=examples(600), deadline=None)
@given(
    st.lists(_COMMAND_LINES, min_size=1, max_size=12),
    st.sampled_from(["\n", "; ", " | ", " ", "\\n"]),
    st.integers(1, 4),
)
def test_command_secrets_as_before(lines: list[str], glue: str, repeat: int) -> None:
    text = glue.join(lines * repeat) + "\n"
    assert _spans(_commands.find(text)) == _spans(_commands_before(text))


# -- 5. a here-string's command line, from the nearest end ------------------------------------


@settings(max_examples=examples(600), deadline=None)
@given(st.text(alphabet="ab|;&(`\n <", max_size=60), st.integers(0, 60), st.integers(0, 60))
def test_the_nearest_end_is_the_largest(text: str, lowest: int, at: int) -> None:
    lowest, at = min(lowest, len(text)), min(at, len(text))
    largest = max(text.rfind(c, lowest, at) + 1 for c in _commands._SEGMENT_ENDS) or lowest
    last = 0
    for c in _commands._SEGMENT_ENDS_NEAREST:
        last = text.rfind(c, max(lowest, last), at) + 1 or last
    assert (last or lowest) == largest
    assert sorted(_commands._SEGMENT_ENDS_NEAREST) == sorted(_commands._SEGMENT_ENDS)


# -- 6. the here-string detector's screen --------------------------------------------------------

_HERE = next(d for d in _detectors.BUILT_IN if d.check is _detectors._fed_on_stdin)


@settings(max_examples=examples(600), deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "docker login --password-stdin <<< Qx7pLm2R",
                "gh auth login --with-token",
                "--with-tokenx",
                "--password-stdin-",
                "<<< a",
                "cat <<< 'v' | ",
                "x" * 150,
                "\n",
                " ",
            ]
        ),
        max_size=12,
    )
)
def test_a_here_string_that_goes_is_in_a_screened_text(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert _HERE.screen is not None
    for m in _HERE.pattern.finditer(text):
        if _detectors._fed_on_stdin(m):
            assert _HERE.screen.search(text) is not None
