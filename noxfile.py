"""The whole check, as CI runs it (``make test`` runs ``nox`` with no arguments).

- ``lint``: ruff and mypy (strict, over src, tests, examples and benchmarks), once.
- ``tests-3.11`` ... ``tests-3.13``: the suite on every Python that ``requires-python``
  claims but the oldest, with the newest dependencies; the full hypothesis profile on the
  main one (3.11), a light profile on the others; line coverage on 3.12, where
  ``sys.monitoring`` measures it at almost no cost (on 3.11 the tracer doubled the main
  run's time). A missing interpreter is an error, never a skip.
- ``lowest``: the oldest Python's suite (3.10), with every runtime dependency, and the
  extras the suite tests (``TESTED_EXTRAS``), at its declared floor (uv's
  ``--resolution lowest-direct``), and the wheel built with the oldest
  hatchling that ``build-system.requires`` allows (light hypothesis profile).
- ``docs``: the API reference, warnings as errors.
- ``integrations``: the integrations with other frameworks' loops (``integration_tests/``),
  against the real Anthropic SDK, OpenAI Agents SDK, LangGraph and pydantic-ai, once, on
  the main Python (the four-Python suite does not install them).

Interpreters are looked up on ``PATH`` and in pyenv's versions folder (``$PYENV_ROOT``,
``pyenv root``, ``~/.pyenv``); nothing is downloaded.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nox

PYTHONS = ["3.10", "3.11", "3.12", "3.13"]
MAIN = "3.11"
COVERED = "3.12"
OLDEST = PYTHONS[0]
# The oldest Python runs the suite once, at the dependencies' floors (``lowest``): with the
# newest ones too it added a fifth suite, and CI must end within 15 minutes. The newest
# dependencies are tested on every other Python.
NEWEST_DEPENDENCIES = PYTHONS[1:]
HATCHLING_FLOOR = "1.27.0"
# Every run but the main interpreter's tries fewer hypothesis examples (tests/conftest.py):
# they look for what differs between Pythons and dependency versions; the main run, with
# the full profile, searches the inputs.
LIGHT = {"TOOLHYGIENE_TESTS": "light"}

nox.options.default_venv_backend = "uv"
nox.options.error_on_missing_interpreters = True
nox.options.download_python = "never"
nox.options.reuse_venv = "yes"
nox.options.sessions = ["lint", "tests", "lowest", "docs", "integrations"]
# Bytecode compiled at install: the suite starts many interpreters, and a machine that sets
# PYTHONDONTWRITEBYTECODE would otherwise compile every import again in each of them.
os.environ.update(
    UV_PYTHON_DOWNLOADS="never", UV_PYTHON_PREFERENCE="only-system", UV_COMPILE_BYTECODE="1"
)


def _pyenv_roots() -> list[str]:
    roots = [os.environ.get("PYENV_ROOT", "")]
    if shutil.which("pyenv"):
        done = subprocess.run(["pyenv", "root"], capture_output=True, text=True, check=False)
        roots.append(done.stdout.strip())
    roots += [os.path.expanduser("~/.pyenv"), "/root/.pyenv"]
    return [r for r in dict.fromkeys(roots) if r and os.path.isdir(r)]


def _reports(exe: str, version: str) -> bool:
    """Whether ``exe`` runs and is Python ``version`` (a pyenv shim for an unselected
    version fails to run)."""
    code = "import sys; print('%d.%d' % sys.version_info[:2])"
    try:
        done = subprocess.run([exe, "-c", code], capture_output=True, text=True, timeout=30,
                              check=False)
    except OSError:
        return False
    return done.returncode == 0 and done.stdout.strip() == version


def _patch_level(path: str) -> tuple[int, ...]:
    found = re.search(r"/versions/(\d+)\.(\d+)\.(\d+)/", path)
    return tuple(int(n) for n in found.groups()) if found else ()


def find_python(version: str) -> str | None:
    """A working ``python<version>``: the one on PATH, else pyenv's newest patch release."""
    candidates = [shutil.which(f"python{version}") or ""]
    for root in _pyenv_roots():
        found = glob.glob(f"{root}/versions/{version}.*/bin/python{version}")
        candidates += sorted(found, key=_patch_level, reverse=True)
    return next((c for c in candidates if c and _reports(c, version)), None)


def _put_on_path() -> None:
    """Put each interpreter's folder first on PATH so that nox and uv find it by version;
    say loudly which are missing (their sessions then fail: never skipped)."""
    folders = []
    for version in PYTHONS:
        exe = find_python(version)
        if exe is None:
            print(
                f"noxfile: Python {version} not found on PATH nor in pyenv "
                f"({', '.join(_pyenv_roots()) or 'no pyenv root'}); install it "
                f"(pyenv install {version}): its sessions will fail.",
                file=sys.stderr,
            )
        else:
            folders.append(str(Path(exe).parent))
    os.environ["PATH"] = os.pathsep.join([*dict.fromkeys(folders), os.environ["PATH"]])


_put_on_path()


def _pytest_args(session: nox.Session) -> list[str]:
    # Two workers: the machines CI runs on have two cores.
    workers = os.environ.get("PYTEST_WORKERS", "2")
    return ["-n", workers, "--dist", "worksteal", "-q", *session.posargs]


@nox.session(python=MAIN)
def lint(session: nox.Session) -> None:
    """ruff and mypy strict over everything that is checked in."""
    session.install("-e", ".", "--group", "lint")
    session.run("ruff", "check", "src", "tests", "integration_tests", "examples", "benchmarks",
                "noxfile.py")
    session.run("ruff", "format", "--check", "src")
    session.run("mypy")


@nox.session(python=NEWEST_DEPENDENCIES)
def tests(session: nox.Session) -> None:
    """The suite: the full hypothesis profile on the main interpreter; line coverage (at
    least 85%) through ``sys.monitoring`` on ``COVERED``."""
    session.install("-e", ".", "--group", "test")
    if session.python == MAIN:
        session.run("pytest", *_pytest_args(session))
    elif session.python == COVERED:
        session.run("pytest", "--cov", "--cov-report=term", "--cov-fail-under=85",
                    *_pytest_args(session), env={**LIGHT, "COVERAGE_CORE": "sysmon"})
    else:
        session.run("pytest", *_pytest_args(session), env=LIGHT)


TESTED_EXTRAS = ("opentelemetry", "redis", "structlog")
"""The extras whose floors the lowest session installs too (the suite tests each); mcp's
needs more than the runtime floors allow (``ABOVE_FLOORS``), and the integrations' are
tested in their own session."""


def _floors() -> dict[str, str]:
    """Each runtime dependency's declared floor (``name>=X``), and those of the extras in
    ``TESTED_EXTRAS``, read from pyproject.toml."""
    project = nox.project.load_toml("pyproject.toml")["project"]
    extras = project["optional-dependencies"]
    floors = {}
    for requirement in [*project["dependencies"], *(r for e in TESTED_EXTRAS for r in extras[e])]:
        found = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*>=\s*([0-9][0-9.]*)", requirement.strip())
        if found is None:
            raise SystemExit(f"noxfile: {requirement!r} has no plain '>=' floor to test")
        floors[found.group(1)] = found.group(2)
    return floors


ABOVE_FLOORS = ("mcp",)
"""Test dependencies that need more than the runtime floors allow (mcp 2.3 needs pydantic
2.12): the lowest session leaves them out, and their tests skip there (``importorskip``),
as an extra that cannot be installed at those floors has nothing to test."""


def _test_group_at_floors() -> list[str]:
    """The test group's requirements, less those that need more than the floors."""
    group = nox.project.load_toml("pyproject.toml")["dependency-groups"]["test"]
    return [
        r for r in group
        if re.split(r"[\[<>=!~;\s]", r, maxsplit=1)[0] not in ABOVE_FLOORS
    ]


@nox.session(python=OLDEST)
def lowest(session: nox.Session) -> None:
    """The suite with every runtime dependency at its declared floor, on the oldest Python;
    the wheel built with the oldest hatchling allowed and its metadata validated."""
    tmp = Path(session.create_tmp()).resolve()
    floors = _floors()
    # Each runtime dependency pinned to its floor's release series (1.0 -> 1.0.*, as a floor
    # may name a release that was never published), resolved lowest-first: the other
    # packages then move to versions that accept every floor at once.
    pins, constraints = tmp / "floors.txt", tmp / "lowest.txt"
    pins.write_text("".join(f"{name}=={floor}.*\n" for name, floor in floors.items()))
    session.run("uv", "pip", "compile", str(pins), "--resolution", "lowest-direct",
                "--python-version", OLDEST, "--quiet", "--no-header", "-o", str(constraints))
    session.install("-e", ".", *_test_group_at_floors(), "-c", str(constraints))
    session.run("python", "-c", _CHECK_FLOORS, repr(floors))
    session.run("pytest", *_pytest_args(session), env=LIGHT)

    hatchling = tmp / "hatchling.txt"
    hatchling.write_text(f"hatchling=={HATCHLING_FLOOR}\n")
    wheels = tmp / "wheel"
    shutil.rmtree(wheels, ignore_errors=True)
    session.run("uv", "build", "--wheel", "--build-constraint", str(hatchling), "-o", str(wheels))
    session.install("packaging>=24.2")
    session.run("python", "-c", _CHECK_METADATA, str(wheels))


_CHECK_FLOORS = """
import ast, sys
from importlib.metadata import version
floors = ast.literal_eval(sys.argv[1])
installed = {name: version(name) for name in floors}
print("runtime dependencies at:", installed)
wrong = {n: v for n, v in installed.items() if v.split(".")[:2] != floors[n].split(".")[:2]}
if wrong:
    raise SystemExit(f"not at the declared floors {floors}: {wrong}")
"""

_CHECK_METADATA = """
import sys, zipfile
from pathlib import Path
from packaging.metadata import Metadata
wheel, = Path(sys.argv[1]).glob("*.whl")
with zipfile.ZipFile(wheel) as zf:
    name, = (n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
    text = zf.read(name)
meta = Metadata.from_email(text, validate=True)
print(wheel.name, "Metadata-Version", meta.metadata_version,
      "License-Expression", meta.license_expression)
"""


@nox.session(python=MAIN)
def integrations(session: nox.Session) -> None:
    """toolhygiene inside the Anthropic tool runner, the OpenAI Agents SDK, LangGraph and
    pydantic-ai: each against its real package; nothing may be skipped."""
    session.install("-e", ".", "--group", "integrations")
    session.run("pytest", "integration_tests", *_pytest_args(session))


@nox.session(python=MAIN)
def docs(session: nox.Session) -> None:
    """The API reference from the docstrings; any warning fails the build."""
    session.install("-e", ".", "--group", "docs")
    site = Path(session.create_tmp()).resolve() / "site"
    session.run("mkdocs", "build", "--strict", "--site-dir", str(site))
