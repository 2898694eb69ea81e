"""gather_subagents never catches a BaseException that is not an Exception: it is raised
once every subagent has ended, with the finished siblings' results kept on it."""

from __future__ import annotations

import asyncio

import pytest

import toolhygiene as th


class AgentAbort(BaseException):
    pass


async def test_a_base_exception_is_raised_with_the_siblings_results_on_it() -> None:
    async def good(q: str) -> str:
        return f"answer {q}"

    async def later(q: str) -> str:
        await asyncio.sleep(0)
        return f"later {q}"

    async def odd(q: str) -> str:
        raise AgentAbort("the agent's own signal")

    with pytest.raises(AgentAbort) as raised:
        await th.gather_subagents([(good, {"q": "a"}), (odd, {"q": "b"}), (later, {"q": "c"})])
    kept = raised.value.subagent_results  # type: ignore[attr-defined]
    assert [r.value if r else r for r in kept] == ["answer a", None, "later c"]
