"""A corpus of fake, real-shaped secrets by family, the carriers that bring them to the
model, and the text that must survive. Written for these tests from the published
formats; none of these values is, or was, a real credential."""

from __future__ import annotations

import json
import re
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import toolhygiene as th
from toolhygiene.testing import model_turn


@dataclass(frozen=True)
class Case:
    """One family: a value (and the label it needs, if any); ``core`` is the part of it
    that must never reach the model (default: its longest run of letters and digits)."""

    family: str
    value: str
    label: str | None = None
    core: str | None = None

    @property
    def must_not_survive(self) -> str:
        if self.core is not None:
            return self.core
        words: list[str] = re.findall(r"[A-Za-z0-9]{6,}", self.value)
        return max(words, key=len)

    @property
    def shown(self) -> str:
        """The value as a message would show it: with its label, if it needs one."""
        return f"{self.label}={self.value}" if self.label else self.value


B64_40 = "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdo"
CASES: list[Case] = [
    # -- families the old patterns claimed, in the shapes that leaked ---------------------
    Case("basic-without-label", "Basic dXNlcjpwQHNzdzByZC0xMjM0NQ==", core="dXNlcjpwQHNzdzByZC0xMjM0NQ"),
    Case("basic-lowercase", "basic YWRtaW46czNjcjN0LXZhbHVlLTk4", core="YWRtaW46czNjcjN0LXZhbHVlLTk4"),
    Case("authorization-bot", "Bot MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs", "Authorization"),
    Case("authorization-ssws", "SSWS 00QCjAl4MlV-WPXM9ab7Lk2Tz8Yq5Rw1Nc6Vd3Hf0Je", "Authorization"),
    Case("authorization-custom", "Klaviyo-API-Key pk_9f8e7d6c5b4a39281716ab", "Authorization", core="9f8e7d6c5b4a39281716ab"),
    Case("set-cookie", "sessionid=7hK2mQ9xLpR4vT8wZ3nB6cY1; HttpOnly; Path=/", "set-cookie", core="7hK2mQ9xLpR4vT8wZ3nB6cY1"),
    Case("dsn-driver", "oracle+cx_oracle://scott:T1gerPw77@db.example.com:1521/orcl", core="T1gerPw77"),
    Case("dsn-postgres", "postgresql+psycopg2://app:Pg5ecretPw9@10.1.2.3:5432/orders", core="Pg5ecretPw9"),
    Case("ansi-wrapped", "\x1b[31msk_live_51H8xYzAbCdEfGhIjKlMnOpQr\x1b[0m"),
    Case("zero-width-inside", "ghp_1234567890abcd\u200befghijklmnopqrstuvwxyz", core="efghijklmnopqrstuvwxyz"),
    Case("soft-hyphen-inside", "glpat-xT9vYq2Lm\u00adN4pR6sU8wZ0", core="N4pR6sU8wZ0"),
    Case("invalid-api-key-hex", "4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c", "Invalid API key"),
    # -- labels the old rule did not know ----------------------------------------------
    Case("SECRET_KEY", "django-insecure-7k#x9q2m$w8v", "SECRET_KEY", core="7k#x9q2m$w8v"),
    Case("signing_key", "Kq8Zr3Lw9Xp2Vm7Tn4Bc", "signing_key"),
    Case("encryption_key", "b64:Q3J5cHRvS2V5MjAyNg", "encryption_key", core="Q3J5cHRvS2V5MjAyNg"),
    Case("master_key", "mk_4Hq9Zp2Lx7Wv", "master_key", core="4Hq9Zp2Lx7Wv"),
    Case("APP_KEY", "base64:8Jk2Lm4Np6Qr8St0Uv2Wx4Yz6Ab8Cd0Ef2Gh4Ij6Kl8=", "APP_KEY"),
    Case("fullwidth-colon", "api_key\uff1a zYx9WvU8tSr7", core="zYx9WvU8tSr7"),
    Case("password", "Tr0ub4dor-and-3", "db_password", core="Tr0ub4dor"),
    Case("passphrase", "correct-horse-Battery-9", "ssh_passphrase", core="Battery"),
    Case("client-secret", "zyx987wvu654tsr321", "CLIENT_SECRET"),
    Case("private-key-id", "8f14e45fceea167a5a36dedd4bea2543", "private_key_id"),
    # -- encoded, split, echoed --------------------------------------------------------
    Case("url-encoded-token", quote("token=ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", safe=""), core="AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"),
    Case("url-encoded-dsn", quote("mysql://root:S3cr3tRootPw@mysql.example.com/shop", safe=""), core="S3cr3tRootPw"),
    Case("url-encoded-json", quote('{"password": "Hunter2-Extra-Long"}', safe=""), core="Hunter2"),
    Case("json-escaped", json.dumps('{"api_key": "Ak9Lm2Np4Qr6St8Uv"}')[1:-1], core="Ak9Lm2Np4Qr6St8Uv"),
    Case("wrapped-token", "sk_live_51H8xYzAbCdEfGh\nIjKlMnOpQrStUv", core="IjKlMnOpQrStUv"),
    Case("echoed", "password=Xy7kq2LmZ9 and later the same Xy7kq2LmZ9 again", core="Xy7kq2LmZ9"),
    # -- families never mentioned before -------------------------------------------------
    Case("aws-secret-bare", "wJa1rXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY", core="bPxRfiCYzEXAMPLEKEY"),
    Case("aws-access-key-id", "AKIAIOSFODNN7EXAMPLE"),
    Case("azure-storage-key", "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="),
    Case("azure-connection-string", "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=Fq2UVErCz4I6tq+K1SZFPTOtr9KBHBeks==;EndpointSuffix=core.windows.net", core="Fq2UVErCz4I6tq"),
    Case("sas-signature", "https://acme.blob.core.windows.net/c/f.csv?sv=2021-06-08&sp=r&sig=AbC9dEf8GhI7jKl6MnO5pQr4StU3vWx2YzA1%3D", core="AbC9dEf8GhI7jKl6MnO5pQr4StU3vWx2YzA1"),
    Case("azure-client-secret", "Xy8Q~aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456"),
    Case("gcp-api-key", "AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe"),
    Case("gcp-service-account", '"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n-----END PRIVATE KEY-----\\n"', core="MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"),
    Case("huggingface-token", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567"),
    Case("openai-key", "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0fGh3iJk"),
    Case("anthropic-key", "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcdefAA"),
    Case("sendgrid-key", "SG.aBcDeFgHiJkLmNoPqRsTuV.wXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ01"),
    Case("mailgun-key", "key-3ax6xnjp29jd6fds4gc373sgvjxteol0"),
    Case("mailchimp-key", "0123456789abcdef0123456789abcdef-us21"),
    Case("telegram-in-url", "https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage", core="AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"),
    Case("discord-webhook", "https://discord.com/api/webhooks/112233445566778899/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcdEFGH"),
    Case("slack-webhook", "https://hooks.slack.com/services/T0ABCDEF1/B0ABCDEF2/AbCdEfGhIjKlMnOpQrStUvWx"),
    Case("slack-bot-token", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"),
    Case("registry-auth-blob", '{"auths": {"registry.example.com": {"auth": "dXNlcjpyM2dpc3RyeVBhc3M="}}}', core="dXNlcjpyM2dpc3RyeVBhc3M"),
    Case("docker-token", "dckr_pat_2b3e36beeb386dfdaacb9b46004ccb7c"),
    Case("netrc", "machine api.example.com\n  login alice\n  password n3trcPassw0rd", core="n3trcPassw0rd"),
    Case("netlify-token", "nfp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab"),
    Case("digitalocean-token", "dop_v1_" + "0123456789abcdef" * 4, core="0123456789abcdef0123456789abcdef"),
    Case("heroku-token", "HRKU-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"),
    Case("vercel-token", "vcp_AbCdEfGhIjKlMnOpQrStUvWx01"),
    Case("stripe-live", "sk_live_51H8xYzAbCdEfGhIjKlMnOpQr"),
    Case("stripe-restricted", "rk_test_51H8xYzAbCdEfGhIjKlMnOpQr"),
    Case("square-token", "sq0atp-AbCdEfGhIjKlMnOpQrStUv"),
    Case("braintree-token", "access_token$production$abc123def456ghi7$0123456789abcdef0123456789abcdef", core="0123456789abcdef0123456789abcdef"),
    Case("github-pat", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX"),
    Case("gitlab-token", "glpat-xT9vYq2LmN4pR6sU8wZ0"),
    Case("npm-token", "npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"),
    Case("pypi-token", "pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmdoLWlqa2wtbW5vcC1xcnN0LXV2d3h5ejAxMjM0NQ"),
    Case("jwt", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"),
    Case("vault-token", "hvs.CAESIAbCdEfGhIjKlMnOpQrStUvWxYz0123456789"),
    Case("pem-block", "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi1Bz3lHh2h\n-----END RSA PRIVATE KEY-----"),
    Case("url-credentials", "https://deploy:Gh0stRider99@git.example.com/acme/api.git", core="Gh0stRider99"),
    Case("bearer-bare", "Bearer ya29.a0AfH6SMBx3kLmNoPqRsTuVwXyZ0123", core="a0AfH6SMBx3kLmNoPqRsTuVwXyZ0123"),
    Case("high-entropy-bare", "Q7vX2mK9pL4wR8tZ6nB3cY5hJ1dF0gS"),
]

# Families of the public secret scanners' rule sets that CASES does not hold (leak12b),
# written for these tests from the published formats: fixed random-looking bodies.
SCANNER_CASES: list[Case] = [
    Case("shopify-access-token", "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"),
    Case("shopify-shared-secret", "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"),
    Case("github-oauth", "gho_Xq7L2mPz9RkT4vN8bW3cY6hJ1dF5gS0aE2uK"),
    Case("github-app-server", "ghs_Zp4K8nQw2LxT7vR9mB3cJ6hY1dF5gS0aE2uW"),
    Case("github-refresh", "ghr_Mq3V7nLw9PxT2kR8bZ4cJ6hY1dF5gS0aE2uQ"),
    Case("gitlab-pipeline-trigger", "glptt-4f1c9a2e7b3d8c6f0a5e9b1d2c7f3a8e6b4d2c9a"),
    Case("gitlab-deploy-token", "gldt-Xq7L2mPz9RkT4vN8bW3c"),
    Case("gitlab-runner-token", "glrt-Zp4K8nQw2LxT7vR9mB3c"),
    Case("postman-key", "PMAK-4f1c9a2e7b3d8c6f0a5e9b1d-2c7f3a8e6b4d2c9a7e1f5b3d8c6a0e9f2b"),
    Case("pulumi-token", "pul-4f1c9a2e7b3d8c6f0a5e9b1d2c7f3a8e6b4d2c9a"),
    Case("doppler-token", "dp.pt.Xq7L2mPz9RkT4vN8bW3cY6hJ1dF5gS0aE2uKZp4K8nQ"),
    Case("linear-key", "lin_api_Xq7L2mPz9RkT4vN8bW3cY6hJ1dF5gS0aE2uKZp4K"),
    Case("notion-token", "ntn_Xq7L2mPz9RkT4vN8bW3cY6hJ1dF5gS0aE2uKZp4K8nQw2Lx"),
    Case("airtable-pat", "patXq7L2mPz9RkT4v.4f1c9a2e7b3d8c6f0a5e9b1d2c7f3a8e6b4d2c9a7e1f5b3d8c6a0e9f2b1d4c7a"),
    Case("sentry-user-token", "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"),
    Case("grafana-service-account", "glsa_Xq7L2mPz9RkT4vN8bW3cY6hJ1dF5gS0a_4f1c9a2e"),
    Case("newrelic-user-key", "NRAK-X7L2MPZ9RKT4VN8BW3CY6HJ1DF5"),
    Case("dynatrace-token", "dt0c01.X7L2MPZ9RKT4VN8BW3CY6HJ1.D5GS0AE2UKZP4K8NQW2LXT7VR9MB3CJ6HY1DF5GS0AE2UKZP4K8NQW2LXT7VR9MB3C"),
    Case("twilio-api-key", "SK4f1c9a2e7b3d8c6f0a5e9b1d2c7f3a8e"),
    Case("stripe-webhook-secret", "whsec_Xq7L2mPz9RkT4vN8bW3cY6hJ1dF5gS0a"),
    Case("google-oauth-client-secret", "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"),
    Case("rubygems-key", "rubygems_4f1c9a2e7b3d8c6f0a5e9b1d2c7f3a8e6b4d2c9a7e1f5b3d"),
    Case("nuget-key", "oy2kq7l2mpz9rkt4vn8bw3cy6hj1df5gs0ae2ukzp4k8nqw"),
    Case("groq-key", "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"),
    Case("replicate-token", "r8_Xq7L2mPz9RkT4vN8bW3cY6hJ1dF5gS0aE2uK"),
    Case("perplexity-key", "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"),
    Case("langsmith-key", "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"),
    Case("slack-app-token", "xapp-1-A0X7L2MPZ9R-4821937465012-4f1c9a2e7b3d8c6f0a5e9b1d2c7f3a8e6b4d2c9a7e1f5b3d8c6a0e9f2b1d4c7a"),
    Case("discord-bot-token", "MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs"),
    Case("azure-devops-pat", "q7l2mpz4rkt4vn3bw3cy6hj2df5gs7ae2ukzp4k6nqw2lxt7vr5m"),
    Case("okta-token", "00Xq7L2mPz9RkT4vN8bW3cY6hJ1dF5gS0aE2uKZp4K"),
    Case("vault-batch-token", "hvb.AAAAAQJXq7L2mPz9RkT4vN8bW3cY6hJ1dF5gS0aE2uKZp4K8nQw2LxT7vR9mB3c"),
    Case("mailgun-key-new", "4f1c9a2e7b3d8c6f0a5e9b1d2c7f3a8e-6b4d2c9a-7e1f5b3d"),
    Case("easypost-key", "EZAK4f1c9a2e7b3d8c6f0a5e9b1d2c7f3a8e6b4d2c9a7e1f5b3d8c6a0e"),
    Case("pgpass-line", "db.example.com:5432:orders:app:Pg5ecretPw9", core="Pg5ecretPw9"),
    Case("twitter-bearer", "AAAAAAAAAAAAAAAAAAAAAMLheAAAAAAA0%2BuSeid%2BULvsea4JtiGRiSDSJSI%3DEUifiRBkKG5E2XzMDjRfl76ZC9Ub0wnz4XsNiRVBChTYbJcE3F", core="EUifiRBkKG5E2XzMDjRfl76ZC9Ub0wnz4XsNiRVBChTYbJcE3F"),
    Case("putty-private-key", "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\nAAAAIXq7L2mPz9RkT4vN8bW3cY6hJ1dF5gS0aE2uKZp4\nPrivate-MAC: 4f1c9a2e7b3d8c6f0a5e9b1d2c7f3a8e", core="AAAAIXq7L2mPz9RkT4vN8bW3cY6hJ1dF5gS0aE2uKZp4"),
    Case("labelled-hex-jenkins", "114f1c9a2e7b3d8c6f0a5e9b1d2c7f3a8e", "JENKINS_API_TOKEN"),
    Case("labelled-cloudflare-global", "4f1c9a2e7b3d8c6f0a5e9b1d2c7f3a8e6b4d2", "X-Auth-Key"),
]

# Text the model needs, that redaction must leave alone.
SURVIVORS = [
    "settings.local.py",
    "loaded .env.local and config/settings.local.py",
    "git@github.com:acme/api.git",
    "clone git@gitlab.example.com:acme/tools/cli.git failed",
    "basic authentication failed",
    "Basic authentication failed for user",
    "Invalid token: expired",
    "token expired",
    "password: must be at least 12 characters",
    "Password: is too short",
    "Bearer token missing",
    "order ORD-88213 not found",
    "id 123e4567-e89b-12d3-a456-426614174000",
    "commit 4b825dc642cb6eb9a060e54bf8d69288fbee4904",
    "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "version v1.2.3 and 2.0.0-rc.1+build.5",
    "date 2026-11-30T06:14:39Z",
    "GET https://api.example.com/v1/orders?page=2&limit=50",
    "token count: 42 of 100",
    "max_tokens=1024 exceeded",
    "KeyError: 'order_id'",
    "primary_key: order_id",
    "author: Jane Roe",
    "password=${DB_PASSWORD}",
    "api_key: null",
    "file /usr/local/lib/python3.11/site-packages/httpx/_transports/default.py",
    "ConnectionRefusedError: [Errno 111] Connection refused",
    "urllib3.exceptions.NewConnectionError: failed to establish a new connection",
    "test_session_handles_parallel_calls_in_order",
    "the passphrase prompt was skipped",
    # generated names, file names of words, commit hashes in ordinary context
    "pod api-7f9c8d6b5-x2kqz restarted",
    "pod/checkout-service-v2-5d8f7c9b6d-qwz4t OOMKilled",
    "opened MyVeryLongTestFileNameForCase42.py",
    "see src/components/UserProfileSettingsPanel2024.tsx",
    "wrote ReleaseNotesQ3FY2024DraftV2.docx",
    "x TestHTTPClientRetriesOn503AndTimeout.py failed",
    "commit 3f9a1c2b7d4e5f60718293a4b5c6d7e8f9012345 merged",
    "HEAD is at 3f9a1c2 fix",
    "sha 3F9A1C2B7D4E5F60718293A4B5C6D7E8F9012345",
    # W3C trace context: hex groups that name a trace, not a key (leak12b)
    "traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
]


def traceback_of(message: str) -> str:
    """A real traceback, with a cause, whose last line carries ``message``."""
    try:
        try:
            raise KeyError("config")
        except KeyError as inner:
            raise RuntimeError(message) from inner
    except RuntimeError as exc:
        return "".join(traceback.format_exception(exc))
    raise AssertionError("unreachable")


def _dict_repr(case: Case) -> str:
    return repr({"status": 401, case.label or "detail": case.value})


def _json_body(case: Case) -> str:
    return json.dumps({"error": {"code": 401, case.label or "detail": case.value}})


def _url(case: Case) -> str:
    return f"https://api.example.com/v1/items?{case.label or 'q'}={quote(case.value, safe='')}&page=2"


def _headers(case: Case) -> str:
    name = case.label or "X-Debug"
    return f"HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\n{name}: {case.value}\r\n"


CARRIERS: dict[str, Callable[[Case], str]] = {
    "message": lambda case: f"request to billing failed: {case.shown} (retry later)",
    "dict repr": _dict_repr,
    "json body": _json_body,
    "url": _url,
    "header dump": _headers,
    "traceback": lambda case: traceback_of(f"upstream said {case.shown}"),
}


def door_tools(text: str) -> tuple[th.Tool[Any, Any], th.Tool[Any, Any]]:
    """A tool ``billing`` failing with ``text`` and a tool ``listing`` returning it."""

    @th.tool(name="billing")
    def fails(order_id: str) -> str:
        raise RuntimeError(text)

    @th.tool(name="listing")
    def succeeds(order_id: str) -> str:
        return text

    return fails, succeeds


def every_door(line: str, *secrets: str, ends_line: bool = False) -> None:
    """No ``secret`` reaches the model from ``line`` in any carrier: ``th.redact``, a
    failing call (its line and its log), a successful call's result and ``handle``
    (``ends_line``: the message carrier writes nothing after ``line``)."""
    case = Case("door", line, core=secrets[0])
    carriers = dict(CARRIERS)
    if ends_line:
        carriers["message"] = lambda case: f"request to billing failed: {case.shown}"
    for carrier, make in carriers.items():
        text = make(case)
        redacted = th.redact(text)
        fails, succeeds = door_tools(text)
        session = th.Session([fails, succeeds], line_cap=4000, max_failures=99)
        with th.testing.capture() as seen:
            failed = session.call("billing", {"order_id": "ORD-1"})
        logged = json.dumps([dict(e) for e in seen.events], default=str)
        result = session.call("listing", {"order_id": "ORD-1"}).content
        for secret in secrets:
            assert secret not in redacted, (carrier, text, redacted)
            assert secret not in failed.content, (carrier, failed.content)
            assert secret not in logged, carrier
            assert secret not in result, (carrier, result)
    messages: list[Any] = []
    session = th.Session(list(door_tools(line)), line_cap=4000, max_failures=99)
    turn = model_turn("anthropic", [("billing", {"order_id": "A"}), ("listing", {"order_id": "B"})])
    assert session.handle(turn, messages, format="anthropic")
    for secret in secrets:
        assert secret not in json.dumps(messages, default=str)
