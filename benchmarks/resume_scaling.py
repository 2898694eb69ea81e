"""How ``Session.resume`` scales with a long list of errors never recovered.

The list (OpenAI chat): N rounds, each a failure of a tool the Session does not have (it
never recovers, so every error stays pending) and a success of another tool. Resume must
read it once: the time for 4N rounds over the time for N is about 4 when linear, 16 when
quadratic. The baseline is the same run's N rounds.
"""

from __future__ import annotations

import time

import toolhygiene as th


@th.tool
def ok(x: str) -> str:
    """Succeed.

    Args:
        x: anything.
    """
    return x


def _list(rounds: int) -> list[dict[str, object]]:
    sample: list[object] = []
    th.Session([ok]).handle(
        th.testing.model_turn("openai_chat", [("nope", {"x": "1"}), ("ok", {"x": "1"})]),
        sample,
        format="openai_chat",
    )
    error, success = (m["content"] for m in sample[1:3])  # type: ignore[index]
    messages: list[dict[str, object]] = [{"role": "user", "content": "go"}]
    for i in range(rounds):
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"a{i}", "type": "function", "function": {"name": "nope", "arguments": "{}"}},
            {"id": f"b{i}", "type": "function",
             "function": {"name": "ok", "arguments": '{"x": "1"}'}},
        ]})  # fmt: skip
        messages.append({"role": "tool", "tool_call_id": f"a{i}", "content": error})
        messages.append({"role": "tool", "tool_call_id": f"b{i}", "content": success})
    return messages


def _resume(rounds: int) -> float:
    messages = _list(rounds)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        th.Session([ok]).resume(messages)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    small, large = 1_000, 4_000
    base, big = _resume(small), _resume(large)
    print(f"resume of {small:,} rounds of pending errors: {base * 1000:.0f} ms")
    print(f"resume of {large:,} rounds: {big * 1000:.0f} ms")
    print(f"ratio {large // small}x rounds: {big / base:.1f}x time (linear ~4, quadratic ~16)")


if __name__ == "__main__":
    main()
