"""Redaction is linear and fast on adversarial text: each shape at 16 KB and 64 KB.

For each shape, prints the time of ``redact()`` at 16 KB and at 64 KB (the raw cap) and
the ratio; a linear engine gives about 4x, catastrophic backtracking 16x or far more.
Baselines measured in the same run: ``str.lower`` over the same text (its ratio is the
linear ratio on this machine) and ``json.dumps`` of the 64 KB text (the last column: how
many times one JSON encoding of it the redaction costs, which machine load mostly cancels
out of). Target: every shape <= 20 ms at 64 KB.

Most shapes repeat one unit (``SHAPES``), which favours the engine's once-per-text
shortcuts (a run, a labelled value or a JSON literal seen before is judged once); the
``DISTINCT`` shapes draw every value afresh from a seeded generator (``key_i=value_i``
lines, random tokens, labelled secrets, YAML block scalars, a service log with
connection strings, bearer tokens, e-mails and private IPs), so nothing repeats.
Run: ``make bench`` (or ``.venv/bin/python benchmarks/redact_scaling.py``).
"""

from __future__ import annotations

import json
import os
import random
import string
import sys
import time
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
    "key=value": "api_key=Ab3dEf6hIj ",
    "labels": "token=abc12345678 secret=def98765432 ",
    "echoes": "password=Xy7kq2Lm0 Xy7kq2Lm0 ",
    "random": "Q7vX2mK9pL4wR8tZ6nB3 ",
    "base64/40": "wJa1rXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKE ",
    "sk_live_": "sk_live_51H8xYzAbCdEfGhIjKlMnOpQr ",
    "wrapped": "Ab3dEf6hIj9kLm2n\n",
    "%41": "%41",
    'json "\\"': '"a\\"bcdefghij" ',
    "fc fd": "fc fd ",
    "e-mails": "jane@example.com ",
    ".internal": "a.internal ",
    "10.": "10.",
    "\\u200b": "\\u200b",
    "invisible": "a\u200b",
    '\\"\\"\\"': '\\"',
    "key\uff1a": "key\uff1a",
    '"\\\\a': '"\\\\a',
    "Authorization: Bearer": "Authorization: Bearer ",
    "--password": "--password ",
    ".netrc": "machine a login b password ",
    "YAML |": "password: |\n  Zq8Lm2Xw9Vb7\n",
    "full-width": "\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44\uff1aZq8Lm2Xw9 ",
    "glued key": "sk_live_51H8xYzAbCdEfGhIjKlMnOpQr",
    "echo forms": "password=Zq8Lm2Xw9Vb7 ZQ8LM2XW9VB7 Zq8Lm2\n Xw9Vb7 WnE4TG0yWHc5VmI3 ",
    "escaped OSC": "\\x1b]8;;https://x/?t=1\\x1b\\\\a",
    "token=a ": "token=a ",  # the cold tester's: 8,192 one-letter labelled values
    # speed15: joiners kept in words of joining scripts and emoji, marks on Latin letters
    "a\\u200d": "a\u200d",
    "ZWNJ": "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 "
    "\u06a9\u062a\u0627\u0628\u200c\u0647\u0627 ",
    "emoji ZWJ": "\U0001f468\u200d\U0001f469\u200d\U0001f467 ",
    "Cafe\\u0301": "Cafe\u0301_2024_Q1.xlsx",
    # leak15: seed labels, encoded controls, framework keys, encoded tokens, glued tails
    "seed label": "seed: " + "abandon " * 11 + "zzz ",
    "%0B": "%0B",
    "%E2%80%A8": "%E2%80%A8x",
    "%ab": "%ab",
    "sk_live_%0A": "sk_live_abc%0A",
    "hex ghp_": "6768705f0123456789abcdef",
    "base64 ghp_": "z2hw QUJD",
    # speed17: the shapes tests/test_redact_work.py timed (a test asserts no time)
    '\\"a': '\\"a',
    "password\uff1a": "password\uff1a",
    "key=a*200": "key=" + "a" * 200 + " ",
    "YAML >-": "token: >-\n",
    "netrc repr": "machine h login u password p4ss\\n",
    "spaced letters": "i g n o r e  p r e v i o u s ",
    "heads": "AKIAEAAAghp_",
    # speed18: session 12's new steps (bracketed values, a placeholder before a line's
    # token, pydantic's error layout)
    "password=[a]": "password=[a]",
    "password: [redacted]": "password: [redacted]\n",
    "input_value=": "input_value=",
    "pydantic lines": "api_key\n  String should have at most 8 characters "
    "[type=string_too_long, input_value='Xk9mQ2vLpZr4', input_type=str]\n",
    "[type=x, input_value=": "[type=x, input_value=",
    # nest19: objects with bare keys, flow lists, containers in pydantic errors
    "{a: b": "password: {a: b, ",
    "session {foo": '{"session": {"foo": "hunter2", "id": 1}} ',
    "k: [a, b": "api_keys: [Qx7pLm2R, Ab3dEf6G] ",
    'k: ["a",': 'passwords: ["a1b2c3d4", ',
    "input_value=[": "password\n  Input should be a valid string [type=string_type, "
    "input_value=['hunter2', 'x'], input_type=list]\n",
    "input_value=[...": "password\n  x [type=t, input_value=['a', ...b', 'c', ",
    '"loc" "input": [': '{"loc": ["password"], "msg": "m", "input": ["hunter2", "x"]} ',
    # leak19: echoes written with references, ligatures, other digits and dashes; the
    # value under a placeholder after blank lines or quoted; letters after a bare key;
    # a literal glued before a reference; a word in brackets
    "html-ref echo": "password=hunter2xyz &#104;unter2xyz &#x68;&lt; ",
    "fi-ss echo": "password=profile99x pro\ufb01le99x stra\u00dfe \u0662\u2011 ",
    "[redacted] blank": 'password: [redacted]\n\n"Qx7pLm2vRt9s"\n',
    "**** phrase": "password: ****\ncorrect horse battery staple\n",
    "used key az": "used key qwertyuiopasdfghjklzxcvbnm ",
    "v${REF}": "password=Tr0ub4dor3${DB_PASSWORD} ",
    "${word}": "password=${swordfish} ",
    # pair19: a secret named by a sibling member (``_named``): pairs with no secret, pairs
    # with one each (flat, YAML, beside a nested object), names that are labels with no
    # object around them (a line, unclosed braces and parentheses, YAML); a hex label
    '{"name": x, "value"': '{"name": "LOG_LEVEL", "value": "info", "id": 7}, ',
    '{"Name": pw, "Value"': '{"Name": "/prod/db/password", "Value": "Xk9mQ2vLpZr4"}, ',
    "name: password, ": "name: password, ",
    '{"key": "token", ': '{"key": "token", ',
    "- name: PW": "- name: DB_PASSWORD\n  value: Xk9mQ2vLpZr4\n",
    '{"a": {}, "name": pw': '{"a": {"b": 1}, "name": "password", "value": "Xk9mQ2vLpZr4"}, ',
    "(name=password, ": "(name=password, ",
    "name: password\\n": "name: password\n",
    "hex password=": "body: 70617373776f72643d794d55446e7332383125796770 ",
    # fix20a: marks after a value, an Authorization name/value pair, TOML's triple
    # quotes, CDATA, SET PASSWORD, Redis MONITOR, add-mask, a LOGIN pair, Terraform's
    # random_password, Secret Manager's payload (each unit a needle with no value closed)
    "value\\n...": "password=Ab3dEf6hIj\n...\n",
    "HAR auth": '{"name": "Authorization", "value": "Bearer abc"}, ',
    '"""': 'password = """a',
    "CDATA": "<password><![CDATA[a",
    "SET PASSWORD": "SET PASSWORD FOR a = '",
    '"AUTH"': '"AUTH" "a',
    "add-mask": "::add-mask::a ",
    "_LOGIN=": "A_LOGIN=a:",
    "random_password": 'resource "random_password" "a" {',
    "payload": '"payload": {"data": "a", "name": "projects/1/secrets/a/versions/1"} ',
    "_WEBHOOK=": "A_WEBHOOK=a ",
    "webhook ": "webhook hmac seed ",
    # shell19: commands whose password is positional or fed on standard input, expect's
    # send, a value before its label
    "echo a |": "echo a | ",
    "echo | sudo -S": "echo 'Xk9mQ2vLpZr4' | sudo -S true\n",
    "<<< a": "<<< a ",
    "sudo -S <<<": "sudo -S true <<< a\n",
    'send "a"': 'send "a" ',
    "expect send": 'expect "*assword:"\nsend "Xk9mQ2vLpZr4\\r"\n',
    "htpasswd -b": "htpasswd -b f u Xk9mQ2vLpZr4\n",
    "vault login": "vault login a ",
    "argv sshpass": "['sshpass', '-p', 'Xk9mQ2vLpZr4', 'ssh', 'h'] ",
    "is the password": "Xk9mQ2!vLp is the new password. ",
    "a is the token": "a is the token ",
    "(password)": "'a' (password) ",
    # leak21: a spoken passphrase, a setting verb, camel letters after a bare key, a
    # literal before a quoted reference, a flag's argument with "=", TOML over lines,
    # Terraform state, flow lists beside short items, cookies with preferences, objects
    # that _named reads past closed ones
    "is correct horse": "the wifi password is correct horse battery staple\n",
    "is horse (words)": "password is correct horse battery staple ",
    "changed ... to": "changed the password to hunter2 ",
    "key QwertyUiop": "key QwertyUiopAsdfGhjk ",
    '"a${REF}"': 'password="Tr0ub4dor3${DB_PASSWORD}" ',
    "--password a=b": "mytool --password Ab12=x ",
    "= '''\\n": "password = '''\nhunter2abc\n'''\n",
    "= [\\n": 'api_keys = [\n  "Qx7pLm2Rab9",\n',
    "tfstate": '{"type": "random_password", "attributes": {"result": "k3Vq!9zR"}, '
    '"sensitive_attributes": [[{"type": "get_attr", "value": "result"}]]}, ',
    "sensitive_values": '"values": {"a": "b"}, "sensitive_values": {"a": true}, ',
    "[hunter2, x]": "password: [hunter2, x]\n",
    "cookie theme": '{"name": "Cookie", "value": "sid=3170bfb2512abb6e79c7c329bd455ecd; '
    'theme=dark"}, ',
    "{} {} {} name": '{"a": {}, "b": {}, "c": {}, "name": "DB_PASSWORD", "value": "hunterQ0"}, ',
    "}}} name": '"name": "password", }',
    ", the password": "a, the password ",
    "password is a-b-c-d": "password is ab-cd-ef-gh ",
    # speed20: a certificate's first line under a secret's label, alone and as a block
    "password: -----BEGIN": "password: -----BEGIN CERTIFICATE-----\n",
    "password: PEM ... END": "password: -----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQx7pLm2R\n"
    "Ab3dEf6GhIjKlMnOpQr==\n-----END CERTIFICATE-----\n",
    # fix21a: other languages' sentences, XML siblings, runtimes' dumps, lists of codes,
    # SNMP, a keypair's bytes, a spaced TOTP key, Entity Framework's parameters
    "Passwort ist": "Das Passwort ist Qx7pLm2R9! ",
    "es es es": "contraseña temporal es es es ",
    "<name>/<value>": "<name>password</name><value>Xk9mQ2vLpZr4</value>",
    "<name>pw</name>": "<name>password</name>",
    "<key>/<string>": "<key>token</key>\n<string>a",
    "<entry key=": '<entry key="password">a',
    '"]=> string(': '["password"]=>\n  string(3) "',
    "Some(": 'pass: Some("a',
    "{password,<<": '{password,<<"a',
    "\\:key": "a.password\\:b=",
    "codes: - x": "recovery codes:\n- 1234-5678\n",
    "community": "snmp-server community a ",
    "[1,2,": "[1,2,",
    "key: jbsw": "key: jbsw y3dp ehpk 3pxp ",
    "Parameters=[": "[Parameters=[@p0='a', ",
    "_SALT": "define('NONCE_SALT', 'a b'); ",
}

# One label and a flood after it (leak15: a framework key's alphabet, a glued tail).
FLOODS = {
    # fix21a: a numbered list of codes, and a keypair's bytes, without end
    "Backup codes 1.": ("Backup codes\n", "1. 56401357\n"),
    "[64 bytes]": ("[", "7,"),
    "EF INSERT": (
        "[Parameters=[@p0='a', @p1='b']]\nINSERT INTO U ([Password], [Name]) VALUES ",
        "(@p0, @p1),\n",
    ),
    "SECRET_KEY=&(": ("SECRET_KEY=", "&("),
    "password is a`": ("password is ", "a`"),
    # cold15's prose and placeholders after a label, each before five fillers.
    **{
        f"{label}{unit}": (label, unit)
        for label in (
            "password: see vault item ",
            "password: (empty)",
            "password: none,",
            "password: not found; used ",
            "Idempotency-Key: password=",
        )
        for unit in ("a", "(", "'", "a,)", " x")
    },
    # speed18: one URL-encoded run with a secret in every pair (fix17b's write-back)
    "q=...%26token%3D": ("q=", "a%3D1%26token%3DXk9mQ2vLpZr4%26b%3D2%20"),
    # speed19b (session 13): untrusted text's floods of an assistant described or owned
    # (each match's sentence judged by ``_people``), no label before them
    "The AI will now ": ("", "The AI will now "),
    "The assistant will now ": ("", "The assistant will now "),
    "Please CC my assistant, ": ("", "Please CC my assistant, "),
}

_ALNUM = string.ascii_letters + string.digits
_LABELS = ("password", "token", "secret", "api_key", "client_secret", "PGPASSWORD", "auth")


def _lines_kv(rng: random.Random, i: int) -> str:
    return f"key_{i}=value_{rng.randrange(10**9)}\n"


def _tokens(rng: random.Random, i: int) -> str:
    return "".join(rng.choices(_ALNUM, k=20)) + " "


def _labelled(rng: random.Random, i: int) -> str:
    return f"{_LABELS[i % len(_LABELS)]}={''.join(rng.choices(_ALNUM, k=14))} "


def _yaml(rng: random.Random, i: int) -> str:
    return f"password_{i}: |\n  {''.join(rng.choices(_ALNUM, k=14))}\n"


def _log(rng: random.Random, i: int) -> str:
    host = f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(256)}"
    stamp = f"2026-11-30T{i // 3600 % 24:02}:{i // 60 % 60:02}:{i % 60:02}.{i % 1000:03}Z"
    kind = i % 6
    if kind == 0:
        return (
            f"{stamp} INFO  GET /api/v1/users/{rng.randrange(10**6)}?page={i % 9} "
            f"200 {rng.randrange(999)}ms from {host}\n"
        )
    if kind == 1:
        return (
            f"{stamp} DEBUG connect postgres://app:{''.join(rng.choices(_ALNUM, k=16))}"
            f"@db-{i}.internal:5432/app\n"
        )
    if kind == 2:
        return (
            f"{stamp} WARN  retry {i % 5}/5 for job {rng.getrandbits(64):016x} "
            f"user=jane{i}@example.com\n"
        )
    if kind == 3:
        return (
            f"{stamp} ERROR Authorization: Bearer {''.join(rng.choices(_ALNUM, k=32))} rejected\n"
        )
    if kind == 4:
        return (
            f'{stamp} INFO  {{"event": "login", "token": '
            f'"{"".join(rng.choices(_ALNUM, k=24))}", "id": {i}}}\n'
        )
    return f'{stamp} ERROR File "/home/app/src/worker_{i % 40}.py", line {i % 900}, in handle\n'


def _pins(rng: random.Random, i: int) -> str:
    return f'{{"pin": {rng.randrange(10**6)}}}, '


_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _eth(rng: random.Random, i: int) -> str:
    """A mixed-case Ethereum address shape (dmg20: each costs a Keccak-256 in Python,
    up to ``_identifiers.ETH_BUDGET`` of a text; its checksum fails but 1 time in 2**15)."""
    return "0x" + "".join(rng.choices("0123456789abcdefABCDEF", k=40)) + " "


def _ids(rng: random.Random, i: int) -> str:
    """Shapes of public identifiers (dmg20): Base58Check and CID shapes, a publishable
    key, a Google document's URL, each random, so each is checked."""
    kind = i % 5
    if kind == 0:
        return "1" + "".join(rng.choices(_B58, k=33)) + " "
    if kind == 1:
        return "Qm" + "".join(rng.choices(_B58, k=44)) + " "
    if kind == 2:
        return "bafy" + "".join(rng.choices("abcdefghijklmnopqrstuvwxyz234567", k=55)) + " "
    if kind == 3:
        return "pk_test_" + "".join(rng.choices(_ALNUM, k=24)) + " "
    return "https://docs.google.com/document/d/" + "".join(rng.choices(_ALNUM, k=44)) + "/edit "


DISTINCT = {
    "k_i=v_i": _lines_kv,
    "tokens": _tokens,
    "labelled": _labelled,
    "YAML |, i": _yaml,
    "log": _log,
    "JSON pins": _pins,  # speed19b: distinct numbers under a secret's key, as a JSON result
    "0x mixed": _eth,
    "ids": _ids,
}
"""Shapes made of distinct values (unit ``i`` from a seeded generator): nothing repeats,
so no once-per-text shortcut applies."""


def text(name: str, size: int) -> str:
    """The shape ``name`` (a repeated unit or distinct values), cut to ``size``
    characters."""
    if name in DISTINCT:
        rng, parts, length, i = random.Random(12), [], 0, 0
        while length < size:
            parts.append(DISTINCT[name](rng, i))
            length += len(parts[-1])
            i += 1
        return "".join(parts)[:size]
    if name in FLOODS:
        label, unit = FLOODS[name]
        return (label + unit * (size // len(unit) + 1))[:size]
    unit = SHAPES[name]
    return (unit * (size // len(unit) + 1))[:size]


NAMES = [*SHAPES, *FLOODS, *DISTINCT]


def per_call(fn: object, number: int = 3) -> float:
    timer = timeit.Timer(fn, timer=time.process_time)  # type: ignore[arg-type]
    return min(timer.repeat(number=number, repeat=5)) / number


def main() -> int:
    print(
        f"python {sys.version.split()[0]}; process time, best of 5; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'shape':<12} {'16 KB':>9} {'64 KB':>9} {'ratio':>6} {'lower() ratio':>14} "
        f"{'64 KB / json.dumps':>19}"
    )
    worst, met = 0.0, 0
    for name in sys.argv[1:] or NAMES:  # (the shapes named on the command line, if any)
        small, large = text(name, 16_384), text(name, 65_536)
        t_small = per_call(lambda s=small: th.redact(s))
        t_large = per_call(lambda s=large: th.redact(s))
        base = per_call(large.lower, 50) / per_call(small.lower, 50)
        dumps = per_call(lambda s=large: json.dumps(s), 20)
        worst = max(worst, t_large)
        met += t_large <= 0.020
        print(
            f"{name:<12} {t_small * 1e3:>7.2f}ms {t_large * 1e3:>7.2f}ms "
            f"{t_large / t_small:>5.1f}x {base:>13.1f}x {t_large / dumps:>18.0f}x"
        )
    count = len(sys.argv[1:] or NAMES)
    print(
        f"slowest shape at 64 KB: {worst * 1e3:.1f} ms; {met} of {count} shapes "
        f"<= 20 ms (target: all: {'met' if met == count else 'MISSED'})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
