"""The examples and the demo run offline, end to end, with the real SDK clients."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import LIGHT

# Each example is a separate interpreter talking to a local server (30 s together): they
# run once, in the main run; the light runs (other Pythons, the floors) reach the same
# code through the suite.
pytestmark = pytest.mark.skipif(LIGHT, reason="the examples run in the main run only")

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120, check=True)
    return done.stdout


def test_anthropic_loop_offline() -> None:
    assert "In Paris it is 14:05, 21C and clear." in run("examples/anthropic_loop.py")


@pytest.mark.parametrize(("argv", "name"), [([], "chat"), (["responses"], "responses")])
def test_openai_loop_offline(argv: list[str], name: str) -> None:
    assert "4 desk lamps (A-1) are in stock." in run("examples/openai_loop.py", *argv)


def test_demo_compares_with_what_users_write_and_is_the_same_everywhere() -> None:
    out = run("examples/demo.py")
    assert "Error: {exc}" in out and "+ traceback" in out and "toolhygiene" in out
    assert "[error] get_weather: not_found." in out
    assert "to GET /weather?city=Pariss" in out  # the fact the model needs survives
    assert "x less context than 'Error: {exc}'" in out
    assert "127.0.0.1" not in out and str(ROOT) not in out
    assert run("examples/demo.py") == out  # no port or path changes a figure


def test_coordinator_keeps_the_answer_and_annotates_the_gap() -> None:
    out = run("examples/coordinator.py")
    assert 'research_tides: {"brest": {"high": "14:05"' in out
    assert '[gap] research_currents {"stations": ["ouessant", "sein"]}: ' in out
    assert "station sein answered 503" in out
    assert 'Salvaged: {"ouessant": {"heading": "NE", "knots": 2.1}}.' in out
    assert "Alternatives: ask for the stations other than sein." in out
    assert ("the coordinator's model reads: [error] delegate: upstream. research_currents: "
            "station sein answered 503. Transient: a retry may succeed.") in out
    assert "requests to the currents service: 4" in out  # retried at one layer only
    assert "127.0.0.1" not in out
