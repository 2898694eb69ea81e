"""How long ``import toolhygiene`` takes, against ``import json`` measured in the same run.

Each import runs in a fresh interpreter under ``python -X importtime`` (which times the
imports alone, not the interpreter's start), rounds interleaved so that a noisy neighbour
slows every target alike. Bytecode is written and a first round thrown away, as for an
installed package. Also checks that ``import toolhygiene`` pulls in neither
``toolhygiene.testing`` (an HTTP server) nor an SDK.

Run: ``python benchmarks/import_time.py [rounds]``.
"""

from __future__ import annotations

import ast
import os
import statistics
import subprocess
import sys

TARGETS = ["json", "toolhygiene", "pydantic", "structlog", "tenacity", "docstring_parser"]
UNWANTED = ["toolhygiene.testing", "http.server", "anthropic", "openai", "httpx"]
TARGET_MS = 60.0


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def import_us(module: str) -> int:
    """Microseconds ``import module`` took in a fresh interpreter (its cumulative time)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {module}"],
        capture_output=True, text=True, check=True, env=_env(),
    )
    for line in reversed(done.stderr.splitlines()):
        _, cumulative, name = line.split("|")
        if name.strip() == module:
            return int(cumulative)
    raise SystemExit(f"no importtime line for {module}")


def unwanted_modules() -> list[str]:
    code = f"import sys, toolhygiene; print([m for m in {UNWANTED!r} if m in sys.modules])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env=_env())
    return list(ast.literal_eval(done.stdout))


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    for module in TARGETS:  # warm-up: writes bytecode, fills the page cache
        import_us(module)
    times: dict[str, list[int]] = {m: [] for m in TARGETS}
    for _ in range(rounds):
        for module in TARGETS:
            times[module].append(import_us(module))
    median = {m: statistics.median(t) / 1000 for m, t in times.items()}
    best = {m: min(t) / 1000 for m, t in times.items()}
    print(f"python {sys.version.split()[0]}, {rounds} rounds, fresh interpreter each")
    print(f"{'import':<18}{'median ms':>10}{'best ms':>9}{'x json':>8}")
    for module in TARGETS:
        print(f"{module:<18}{median[module]:>10.1f}{best[module]:>9.1f}"
              f"{median[module] / median['json']:>8.1f}")
    total = median["toolhygiene"]
    verdict = "met" if total <= TARGET_MS else "NOT met"
    print(f"import toolhygiene: {total:.1f} ms median ({total / median['json']:.1f}x import json"
          f" in the same run); target <= {TARGET_MS:.0f} ms: {verdict}")
    pulled = unwanted_modules()
    print(f"modules import toolhygiene should not pull in: {pulled or 'none'}")
    if pulled:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
