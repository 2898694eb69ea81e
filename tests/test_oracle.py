"""detect-secrets as an oracle, at test time only: whatever its plugins flag in our
corpus, and in a corpus hypothesis writes, toolhygiene has redacted.

The plugins run as detect-secrets scans files (its default plugins and filters), over
the corpus written as a ``.txt``, a ``.py`` and a ``.yaml`` file, since some plugins read
each kind differently. One plugin is left out on purpose: ``HexHighEntropyString`` flags
every quoted commit hash and checksum, and a plain hex digest without a secret label is
a survivor by design (a labelled one is redacted, and the tests prove it).
"""

from __future__ import annotations

import base64
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from corpus import CARRIERS, CASES, SCANNER_CASES
from helpers import examples

detect_secrets = pytest.importorskip("detect_secrets")
from detect_secrets.core.secrets_collection import SecretsCollection  # noqa: E402
from detect_secrets.settings import default_settings, transient_settings  # noqa: E402

SKIPPED_PLUGINS = {"HexHighEntropyString"}


def _plugins() -> list[dict[str, str]]:
    with default_settings() as configured:
        names = [p["name"] for p in configured.json()["plugins_used"]]
    return [{"name": name} for name in names if name not in SKIPPED_PLUGINS]


def flagged(texts: list[str], folder: Path) -> Iterator[tuple[str, str]]:
    """(text, flagged value) for every finding of detect-secrets in ``texts``."""
    lines: list[tuple[int, str]] = []
    for index, text in enumerate(texts):
        lines.extend((index, line) for line in text.splitlines() or [""])
    body = "\n".join(line for _, line in lines) + "\n"
    config = {"plugins_used": _plugins()}
    for suffix in (".txt", ".py", ".yaml"):
        path = folder / f"corpus{suffix}"
        path.write_text(body, encoding="utf-8")
        with transient_settings(config):
            found = SecretsCollection()
            found.scan_file(str(path))
        for _, secret in found:
            value = secret.secret_value
            if value:
                yield texts[lines[secret.line_number - 1][0]], value


def _corpus() -> list[str]:
    return [make(case) for case in (*CASES, *SCANNER_CASES) for make in CARRIERS.values()]


def test_the_oracle_finds_something_in_the_corpus(tmp_path: Path) -> None:
    """Guard: an oracle that flags nothing proves nothing."""
    families = {text for text, _ in flagged(_corpus(), tmp_path)}
    assert len(families) >= 40


def test_everything_the_oracle_flags_in_the_corpus_is_redacted(tmp_path: Path) -> None:
    leaks = [(value, th.redact(text)) for text, value in flagged(_corpus(), tmp_path)
             if value in th.redact(text)]
    assert leaks == []


LABELS = ["password", "passwd", "api_key", "apiKey", "secret", "client_secret", "token",
          "auth_token", "SECRET_KEY", "private_key", "db_password", "x-api-key", "access_token"]
SEPARATORS = ["=", ": ", " = ", ":", '": "', "': '", "\uff1a"]
PREFIXES = ["ghp_", "gho_", "glpat-", "xoxb-", "sk_live_", "rk_live_", "sk-proj-", "sk-ant-api03-",
            "AKIA", "npm_", "hf_", "SG.", "dop_v1_", "dckr_pat_", "AIza"]
B62 = string.ascii_letters + string.digits


@st.composite
def secret_line(draw: st.DrawFn) -> str:
    body = "".join(draw(st.lists(st.sampled_from(B62), min_size=24, max_size=48)))
    kind = draw(st.sampled_from(["label", "prefix", "quoted", "url", "bearer"]))
    if kind == "label":
        label, sep = draw(st.sampled_from(LABELS)), draw(st.sampled_from(SEPARATORS))
        quote = '"' if sep.startswith('"') else "'" if sep.startswith("'") else ""
        return f"{quote}{label}{sep}{body}{quote}"
    if kind == "prefix":
        prefix = draw(st.sampled_from(PREFIXES))
        if prefix == "AKIA":
            body = body.upper()[:16].ljust(16, "Q")
        if prefix == "SG.":
            body = body[:22] + "." + body + body[:43 - len(body)]
        return f"used {prefix}{body} here"
    if kind == "quoted":
        # What ``secrets.token_urlsafe`` writes, from bytes hypothesis draws: a failure
        # is replayed and shrunk, not lost with the operating system's randomness.
        raw = draw(st.binary(min_size=24, max_size=48))
        return f'value = "{base64.urlsafe_b64encode(raw).rstrip(b"=").decode()}"'
    if kind == "url":
        return f"mysql://app:{body[:16]}@db.example.com:3306/shop"
    return f"Authorization: Bearer {body}"


@given(st.lists(secret_line(), min_size=1, max_size=12))
@settings(max_examples=examples(60), derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_everything_the_oracle_flags_in_generated_text_is_redacted(
        tmp_path: Path, lines: list[str]) -> None:
    for text, value in flagged(lines, tmp_path):
        assert value not in th.redact(text), (text, value)
