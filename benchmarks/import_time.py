"""How long ``import toolhygiene`` takes, next to baselines measured in the same run.

Two measures, each in fresh interpreters, rounds interleaved so that a noisy neighbour slows
every target alike; bytecode is written and a first round thrown away, as for an installed
package:

- ``-X importtime``: the cumulative time of the ``import`` statement alone, for
  ``toolhygiene`` next to ``json`` (a small standard-library package) and the dependencies
  toolhygiene imports only when first needed;
- wall time and CPU time of a whole ``python -c "import toolhygiene"`` process minus
  those of ``python -c pass`` (the interpreter's own start), next to the same for
  ``import json``, ``import pydantic``, and a program that imports toolhygiene and defines
  one tool (``@th.tool`` builds the tool's schema with pydantic, so that a signature it
  cannot read fails where it is written: that program pays for pydantic);
- for that program, ``-X importtime``'s self times summed over toolhygiene's own modules
  and over everything else (pydantic, docstring-parser, the standard library).

Also lists the heavy modules that ``import toolhygiene`` pulled in (none expected: every
public name is imported at its first use, pydantic comes with the first tool schema built,
tenacity with the first retry, structlog only if the application imported it, asyncio with
async code, the redaction patterns with the first redaction; ``tests/test_import.py``
checks it).

Run: ``python benchmarks/import_time.py [rounds]``.
"""

from __future__ import annotations

import ast
import os
import statistics
import subprocess
import sys
import time

TARGETS = ["json", "toolhygiene", "pydantic", "structlog", "tenacity", "asyncio"]
TOOL = "import toolhygiene as th\n@th.tool\ndef f(x: str) -> str:\n    return x"
WALL = {
    "pass": "pass", "json": "import json", "pydantic": "import pydantic",
    "toolhygiene": "import toolhygiene", "+ one @th.tool": TOOL,
}
HEAVY = [
    "anthropic", "asyncio", "concurrent.futures", "docstring_parser", "email.utils",
    "hashlib", "html", "http.server", "httpx", "openai", "opentelemetry", "pydantic",
    "pydantic_core", "secrets", "structlog", "sysconfig", "tenacity",
    "toolhygiene._detectors", "toolhygiene.testing", "typing_extensions",
]
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


def own_and_theirs_us(code: str) -> tuple[int, int]:
    """Microseconds of ``-X importtime`` self time that running ``code`` spent importing
    toolhygiene's own modules, and everything else it imported."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        capture_output=True, text=True, check=True, env=_env(),
    )
    own = theirs = 0
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, _, name = line.removeprefix("import time:").split("|")
        if name.strip().split(".")[0] == "toolhygiene":
            own += int(self_us)
        else:
            theirs += int(self_us)
    return own, theirs


def wall_ms(code: str) -> tuple[float, float]:
    """Milliseconds a whole ``python -c code`` process took, start to exit: wall time, and
    its CPU time (user + system; on a loaded machine, waiting for a core is not counted)."""
    began = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", code], env=_env())
    _, status, usage = os.wait4(child.pid, 0)
    wall = (time.perf_counter() - began) * 1000
    if status != 0:
        raise SystemExit(f"python -c {code!r} failed")
    return wall, (usage.ru_utime + usage.ru_stime) * 1000


def heavy_modules() -> list[str]:
    code = f"import sys, toolhygiene; print([m for m in {HEAVY!r} if m in sys.modules])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env=_env())
    return list(ast.literal_eval(done.stdout))


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    for module in TARGETS:  # warm-up: writes bytecode, fills the page cache
        import_us(module)
    times: dict[str, list[int]] = {m: [] for m in TARGETS}
    walls: dict[str, list[float]] = {name: [] for name in WALL}
    cpus: dict[str, list[float]] = {name: [] for name in WALL}
    owns: list[int] = []
    theirs: list[int] = []
    for _ in range(rounds):
        own, their = own_and_theirs_us(TOOL)
        owns.append(own)
        theirs.append(their)
        for module in TARGETS:
            times[module].append(import_us(module))
        for name, code in WALL.items():
            took, spent = wall_ms(code)
            walls[name].append(took)
            cpus[name].append(spent)
    median = {m: statistics.median(t) / 1000 for m, t in times.items()}
    best = {m: min(t) / 1000 for m, t in times.items()}
    print(f"python {sys.version.split()[0]}, {rounds} rounds, fresh interpreter each")
    print(f"{'import (-X importtime)':<24}{'median ms':>10}{'best ms':>9}{'x json':>8}")
    for module in TARGETS:
        print(f"{module:<24}{median[module]:>10.1f}{best[module]:>9.1f}"
              f"{median[module] / median['json']:>8.1f}")
    wall = {name: statistics.median(w) for name, w in walls.items()}
    cpu = {name: statistics.median(c) for name, c in cpus.items()}
    print(f"{'process (median ms)':<24}{'wall':>10}{'- pass':>9}{'CPU':>8}{'- pass':>9}")
    for name in WALL:
        shown = "python -c pass" if name == "pass" else name if "@" in name else f"import {name}"
        print(f"{shown:<24}{wall[name]:>10.1f}{wall[name] - wall['pass']:>9.1f}"
              f"{cpu[name]:>8.1f}{cpu[name] - cpu['pass']:>9.1f}")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    total = median["toolhygiene"]
    print(f"import toolhygiene: {total:.1f} ms median ({total / median['json']:.1f}x import json"
          f" in the same run; {wall['toolhygiene'] - wall['pass']:.1f} ms of wall time and"
          f" {cpu['toolhygiene'] - cpu['pass']:.1f} ms of CPU time over python -c pass);"
          f" target <= {TARGET_MS:.0f} ms: {'met' if total <= TARGET_MS else 'NOT met'}")
    tool = cpu["+ one @th.tool"] - cpu["pass"]
    own_ms = statistics.median(owns) / 1000
    their_ms = statistics.median(theirs) / 1000
    print(f"import toolhygiene and one @th.tool: {tool:.1f} ms of CPU time over python -c pass"
          f" (import pydantic alone: {cpu['pydantic'] - cpu['pass']:.1f} ms); imports by"
          f" -X importtime: toolhygiene's own modules {own_ms:.1f} ms, its dependencies and"
          f" the standard library {their_ms:.1f} ms, the rest is building the schema;"
          f" target <= {TARGET_MS:.0f} ms: {'met' if tool <= TARGET_MS else 'NOT met'}")
    pulled = heavy_modules()
    print(f"heavy modules import toolhygiene pulled in: {pulled or 'none'}")
    if pulled:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
