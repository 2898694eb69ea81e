"""What the observability outputs promise, checked past the quoted cases (issue 14, cold
review): ``configure`` blocks that overlap in tasks and threads take back only their own
changes; wrong-typed settings are refused; hooks are added once and never ``async def``;
the logged traceback keeps notes and shows group members as members; a user's session
id is the same valid text in every output."""

from __future__ import annotations

import asyncio
import io
import logging
import sys
import threading
import unicodedata
import warnings
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples
from toolhygiene import _config, _log

if sys.version_info < (3, 11):
    from exceptiongroup import ExceptionGroup

# -- configure: each call a layer, taken back alone -------------------------------------


def _now() -> tuple[Any, ...]:
    current = th.configure()
    return current.logs, current.trace_content, current.line_cap


def test_overlapping_blocks_in_tasks_leave_nothing_changed() -> None:
    """The first task enters, then the second; the first leaves, then the second (the
    blocks overlap without nesting, as tasks' blocks do)."""
    before = _now()
    inside: list[tuple[Any, ...]] = []

    async def job(wait_for: asyncio.Event | None, then: asyncio.Event,
                  leave_after: asyncio.Event | None, left: asyncio.Event) -> None:
        if wait_for is not None:
            await wait_for.wait()
        with th.configure(logs=False, trace_content=True):
            then.set()
            if leave_after is not None:
                await leave_after.wait()
            await asyncio.sleep(0)
            inside.append(_now())
        left.set()

    async def main() -> None:
        a_in, b_in, a_out, b_out = (asyncio.Event() for _ in range(4))
        await asyncio.gather(job(None, a_in, b_in, a_out), job(a_in, b_in, a_out, b_out))
        after_a.append(inside[0])

    after_a: list[tuple[Any, ...]] = []
    asyncio.run(main())
    assert inside == [(False, True, before[2])] * 2  # each saw its block's settings
    assert _now() == before


def test_blocks_left_in_any_order_keep_the_ones_still_open() -> None:
    before = _now()
    outer = th.configure(logs=False)
    outer.__enter__()
    inner = th.configure(trace_content=True, logs=True)
    inner.__enter__()
    outer.__exit__(None, None, None)  # the outer block is left first (another task's)
    assert _now() == (True, True, before[2])  # the inner block's changes stay
    inner.__exit__(None, None, None)
    assert _now() == before


def test_overlapping_blocks_in_threads_leave_nothing_changed() -> None:
    before = _now()
    entered = [threading.Event() for _ in range(4)]
    left = [threading.Event() for _ in range(4)]

    def job(at: int) -> None:
        with th.configure(logs=False, line_cap=200 + at):
            entered[at].set()
            # each thread leaves only once the next one is inside: the blocks overlap
            if at + 1 < len(entered):
                entered[at + 1].wait(timeout=30)
        left[at].set()

    threads = [threading.Thread(target=job, args=(at,)) for at in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert all(done.is_set() for done in left)
    assert _now() == before


@settings(max_examples=examples(60), deadline=None)
@given(st.permutations(range(4)), st.lists(st.integers(160, 400), min_size=4, max_size=4))
def test_whatever_order_blocks_are_left_in_the_settings_are_the_open_ones(
        order: list[int], caps: list[int]) -> None:
    before = th.configure()
    blocks = [th.configure(line_cap=cap) for cap in caps]
    open_ = list(range(4))
    for at in order:
        blocks[at].__exit__(None, None, None)
        open_.remove(at)
        expected = caps[open_[-1]] if open_ else before.line_cap
        assert th.configure().line_cap == expected  # the latest still open wins
    assert th.configure() == before


def test_configure_previous_takes_back_that_call_only() -> None:
    before = th.configure()
    first = th.configure(line_cap=200)
    second = th.configure(trace_content=True)
    th.configure(first)  # the first call is taken back; the second stays
    assert th.configure().line_cap == before.line_cap and th.configure().trace_content
    th.configure(second)
    assert th.configure() == before
    th.configure(first)  # a call taken back twice changes nothing more
    assert th.configure() == before


def test_a_snapshot_sets_every_setting_to_its_values() -> None:
    before = th.configure()
    th.configure(line_cap=222)
    th.configure(trace_content=True)
    th.configure(before)
    assert th.configure() == before


def test_plain_calls_in_a_loop_keep_the_layers_few() -> None:
    before = th.configure()
    # Counted from here: layers of earlier tests fold when their Settings are collected,
    # which the garbage collector decides (CI once started this test with one left).
    start = len(_config._layers)
    with th.configure(redact_emails=False):
        for cap in range(160, 260):
            th.configure(line_cap=cap)
        assert th.configure().line_cap == 259
        assert len(_config._layers) <= start + 3
    th.configure(before)
    assert th.configure() == before


def test_instant_retries_inside_a_block_is_taken_back_alone() -> None:
    with th.configure(trace_content=True) as block, th.testing.instant_retries():
        assert _config.settings.instant_retries
        block.__exit__(None, None, None)  # another task's block ends first
        assert _config.settings.instant_retries and not _config.settings.trace_content
    assert not _config.settings.instant_retries


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("logs", None),
        ("line_cap", None),
        ("redact_logs", None),
        ("trace_content", None),
        ("opentelemetry", None),
        ("result_cap", None),
        ("retry_after_ceiling", None),
        ("opentelemetry", "yes"),
        ("trace_content", 1),
        ("redact_emails", "false"),
        ("line_cap", 200.5),
        ("result_cap", "5000"),
        ("retry_after_ceiling", "60"),
        ("logs", print),
    ],
)
def test_a_wrong_typed_setting_is_refused_and_changes_nothing(name: str, value: Any) -> None:
    before = th.configure()
    with pytest.raises(th.UsageError, match=name):
        th.configure(**{name: value})
    assert th.configure() == before


# -- hooks: added once, never async def --------------------------------------------------


@th.tool(retries=0)
def fails(x: str) -> str:
    """Fails.

    Args:
        x: anything.
    """
    raise ValueError("bad input")


class Counting(th.Hooks):
    def __init__(self) -> None:
        self.seen: list[str] = []

    def on_failure(self, event: th.HookEvent) -> None:
        self.seen.append(event.name)


def test_the_same_hooks_added_twice_see_each_event_once() -> None:
    hooks = Counting()
    first = th.add_hooks(hooks)
    second = th.add_hooks(hooks)
    try:
        with th.configure(logs=False), th.Session([fails]) as session:
            session.call("fails", {"x": "1"})
        assert hooks.seen == ["tool.failed"]
    finally:
        second()
    with th.configure(logs=False), th.Session([fails]) as session:
        session.call("fails", {"x": "1"})
    assert hooks.seen == ["tool.failed"]  # either remover removes it
    first()  # and the other then changes nothing


class AsyncOnFailure(th.Hooks):
    async def on_failure(self, event: th.HookEvent) -> None:  # type: ignore[override]
        """Never run: refused at registration."""


class AsyncOnCall(th.Hooks):
    async def on_call(self, call: th.HookCall) -> None:  # type: ignore[override]
        """Never run: refused at registration."""


class AsyncGenerator(th.Hooks):
    async def on_end(self, event: th.HookEvent) -> Any:
        yield event


@pytest.mark.parametrize("kind", [AsyncOnFailure, AsyncOnCall, AsyncGenerator])
def test_async_def_hook_methods_are_refused_when_added(kind: type[th.Hooks]) -> None:
    with pytest.raises(th.UsageError, match="async def"):
        th.add_hooks(kind())


class ReturnsCoroutine(th.Hooks):
    """A plain method that hands back a coroutine (a wrapper around async code)."""

    async def _work(self, event: th.HookEvent) -> None:
        """Never awaited by toolhygiene."""

    def on_failure(self, event: th.HookEvent) -> Any:
        return self._work(event)


def test_a_hook_that_returns_a_coroutine_is_a_hook_failure_and_no_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a "never awaited" RuntimeWarning would fail here
        with th.testing.capture() as captured:
            remove = th.add_hooks(ReturnsCoroutine())
            try:
                with th.Session([fails]) as session:
                    session.call("fails", {"x": "1"})
            finally:
                remove()
    [failed] = captured.named("hook.failed")
    assert failed["method"] == "on_failure"
    assert "returned a coroutine" in failed["exception"]


# -- the logged traceback: notes kept, group members as members ---------------------------


def _note(exc: BaseException, note: str) -> None:
    """``exc.add_note(note)``, also on Python 3.10 (where the traceback module does not
    print notes, but the attribute is the same)."""
    notes = getattr(exc, "__notes__", None)
    if notes is None:
        notes = []
        exc.__notes__ = notes  # type: ignore[attr-defined]
    notes.append(note)


def _raised(fn: Any) -> BaseException:
    try:
        fn()
    except Exception as exc:
        return exc
    raise AssertionError("did not raise")


def test_notes_follow_their_exceptions_message() -> None:
    def fail() -> None:
        try:
            raise KeyError("row 7")
        except KeyError as exc:
            _note(exc, "while reading orders.csv")
            error = ValueError("bad row")
            _note(error, "first note")
            _note(error, "second note\nover two lines")
            raise error from exc

    text = _log.traceback_text(_raised(fail))
    assert "ValueError: bad row\nfirst note\nsecond note\n    over two lines\n" in text
    assert "KeyError: 'row 7'\nwhile reading orders.csv\n" in text


def test_notes_are_redacted_and_bounded() -> None:
    key = "sk-ant-api03-" + "x7Kq9" * 19 + "AA"
    error = ValueError("bad")
    for at in range(40):
        _note(error, f"note {at} {key}" + "y" * 10_000)
    text = _log.traceback_text(_raised(lambda: (_ for _ in ()).throw(error)))
    assert key not in text
    assert "note 15" in text and "note 16" not in text
    assert f"({40 - _log.TRACEBACK_NOTES} more notes not shown)" in text


def test_group_members_are_members_not_causes() -> None:
    def fail() -> None:
        try:
            raise OSError("disk")
        except OSError as cause:
            raise ExceptionGroup(
                "two failed", [ConnectionError("reset"), TimeoutError("slow")]
            ) from cause

    text = _log.traceback_text(_raised(fail))
    group = text.index("ExceptionGroup: two failed")
    first = text.index("  | member 1 of 2 of the group above:")
    second = text.index("  | member 2 of 2 of the group above:")
    cause = text.index("\nwhich came from:\n")
    assert group < first < second < cause
    assert "  | ConnectionError: reset" in text and "  | TimeoutError: slow" in text
    assert "OSError: disk" in text[cause:]
    assert "ConnectionError" not in text[cause:] and "TimeoutError" not in text[cause:]
    assert "which came from" not in text[:cause]  # no member reads as a cause


def test_a_group_in_a_taskgroup_keeps_every_member_frame() -> None:
    if sys.version_info < (3, 11):
        pytest.skip("asyncio.TaskGroup is Python 3.11+")

    async def one() -> None:
        raise ConnectionError("first")

    async def two() -> None:
        raise LookupError("second")

    async def main() -> None:
        async with asyncio.TaskGroup() as group:
            group.create_task(one())
            group.create_task(two())

    text = _log.traceback_text(_raised(lambda: asyncio.run(main())))
    assert "member 1 of 2" in text and "member 2 of 2" in text
    assert "in one" in text and "in two" in text


def test_the_log_record_carries_notes_too() -> None:
    @th.tool(retries=0)
    def noted(x: str) -> str:
        """Fails with a note.

        Args:
            x: anything.
        """
        error = ValueError("nope")
        _note(error, "context the library added")
        raise error

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logger = logging.getLogger("test_observed_settings")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        with th.configure(logs=logger), th.Session([noted]) as session:
            session.call("noted", {"x": "1"})
    finally:
        logger.removeHandler(handler)
    assert "ValueError: nope\ncontext the library added" in stream.getvalue()


# -- a user's session id: made fit once, the same in every output -------------------------


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("conv-42", "conv-42"),
        ("conv-\ud800-7", "conv-\ufffd-7"),
        ("conv-\x1b[2J\x1b]0;pwned\x07-7", "conv--7"),
        ("conv\n42", "conv 42"),
        ("  conv 42\t", "conv 42"),
        ("conv\u200b42", "conv42"),
        ("会話-42", "会話-42"),
        # Short escapes go whole too: save/restore, a character set, a private mode.
        ("conv\x1b7 42\x1b8", "conv 42"),
        ("conv\x1b(0 42", "conv 42"),
        ("conv\x1b[?1049h 42", "conv 42"),
    ],
)
def test_a_given_session_id_is_made_fit_once(given: str, kept: str) -> None:
    shown = th.Session([], session_id=given).id
    # Changed: cleaned, then "~" and a tag, so two ids stay two (as a call id's).
    assert shown == kept if given == kept else shown.rsplit("~", 1)[0] == kept


@pytest.mark.parametrize("given", ["", "  ", "\x1b[31m\x1b[0m", "\u200b", "x" * 257, 42, b"conv"])
def test_a_session_id_with_nothing_printable_is_refused(given: Any) -> None:
    with pytest.raises(th.UsageError, match="session_id"):
        th.Session([], session_id=given)


@settings(max_examples=examples(80), deadline=None)
@given(st.text(min_size=1, max_size=256))
def test_every_output_carries_the_same_valid_session_id(given: str) -> None:
    try:
        session = th.Session([fails], session_id=given)
    except th.UsageError:
        return
    sid = session.id
    sid.encode("utf-8")  # valid UTF-8
    assert sid == sid.strip() and "\x1b" not in sid
    assert not any(unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") for c in sid)
    seen: list[str] = []

    class Ids(th.Hooks):
        def on_failure(self, event: th.HookEvent) -> None:
            seen.append(event.session_id)

    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    logger = logging.getLogger("test_observed_settings.ids")
    handler = Keep()
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    remove = th.add_hooks(Ids())
    try:
        with th.configure(logs=logger), th.testing.capture() as captured:
            session.call("fails", {"x": "1"})
    finally:
        remove()
        logger.removeHandler(handler)
    [event] = captured.named("tool.failed")
    assert event["session.id"] == sid and seen == [sid]
    assert [r.toolhygiene["session.id"] for r in records] == [sid]  # type: ignore[attr-defined]
