"""Redaction is linear: adversarial inputs at n and 4n characters.

For each shape, prints the time at 16 KB and at 64 KB (the raw cap) and the ratio; a
linear pattern set gives about 4x, catastrophic backtracking would give 16x or far more.
Baseline measured in the same run: ``str.lower`` over the same text.
"""

from __future__ import annotations

import timeit

import toolhygiene as th

SHAPES = {
    "a.a.a.": "a.",
    "a@a@a@": "a@",
    "password=": "password=",
    "http://": "http://",
    "1.1.1.": "1.",
    "<system ": "<system ",
    "::::": ":",
    "/home/": "/home/",
    "Bearer ": "Bearer ",
    "-----BEGIN": "-----BEGIN RSA PRIVATE KEY-----",
    "eyJ.eyJ.": "eyJaaaaaaaa.",
    "sk-ant-": "sk-ant-",
    "words": "lorem ipsum dolor ",
}


def per_call(text: str) -> float:
    number = 5
    return min(timeit.repeat(lambda: th.redact(text), number=number, repeat=3)) / number


def main() -> None:
    print(f"{'shape':<12} {'16 KB':>10} {'64 KB':>10} {'ratio':>7} {'lower() ratio':>14}")
    for name, unit in SHAPES.items():
        small = (unit * (16_384 // len(unit) + 1))[:16_384]
        large = (unit * (65_536 // len(unit) + 1))[:65_536]
        t_small, t_large = per_call(small), per_call(large)
        base = (min(timeit.repeat(large.lower, number=50, repeat=3))
                / min(timeit.repeat(small.lower, number=50, repeat=3)))
        print(f"{name:<12} {t_small * 1e3:>8.2f}ms {t_large * 1e3:>8.2f}ms "
              f"{t_large / t_small:>6.1f}x {base:>13.1f}x")


if __name__ == "__main__":
    main()
