"""Leak and over-redaction families left open on issue 12 after session 8 (leak12c):
arrows glued to their label, XML and config files whose label is an attribute, a label
with a qualifier before its separator, a user and a password after a credentials label,
tables with a secret column, PIN forms, octal escapes, look-alike letters and more
languages in labels; and the over-redaction of a pagination cursor named in prose. Each
family in every carrier, through ``th.redact``, ``Session.call`` and ``Session.handle``."""

from __future__ import annotations

import json
import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from corpus import every_door as _every_door
from helpers import examples, issued_tokens, passwords, secrets

_ALNUM = string.ascii_letters + string.digits
HEADS = passwords()
TOKENS = issued_tokens()
SECRETS = secrets()


def _cased(word: str, how: int) -> str:
    return (word, word.upper(), word.capitalize(), word.lower())[how % 4]


# -- 1. arrows and glued separators ----------------------------------------------------

LABELS = ["password", "passwd", "secret", "token", "api_key", "db_password", "auth_token", "pwd"]
ARROWS = ["->", "-->", "--->", "=>", "==>", ":=", "<-", "<--", "\u2192", "\u21d2"]
GAPS = ["", " ", "  ", "\t"]


@settings(max_examples=examples(400), deadline=None)
@given(
    st.sampled_from(LABELS),
    st.integers(0, 3),
    st.sampled_from(ARROWS),
    st.sampled_from(GAPS),
    st.sampled_from(GAPS),
    SECRETS,
)
def test_an_arrow_glued_or_spaced_between_label_and_value_is_a_separator(
    label: str, how: int, arrow: str, before: str, after: str, value: str
) -> None:
    text = f"config: {_cased(label, how)}{before}{arrow}{after}{value} (from vault)"
    assert value not in th.redact(text), text


@pytest.mark.parametrize(
    "line",
    ["password->Qx7pLm2Rk", "password=>Qx7pLm2Rk", "password-->Qx7pLm2Rk", "secret:=Qx7pLm2Rk",
     "token<-Qx7pLm2Rk"],
)
def test_a_glued_arrow_goes_through_every_door(line: str) -> None:
    _every_door(line, "Qx7pLm2Rk")


@pytest.mark.parametrize(
    "line",
    [
        "token->expired",
        "password -> must be at least 12 characters",
        "ctx->token->len = 0",
        "$user->password->hash",
        "if (x<-1) return token",
        "token_count->5",
        "next_page_token->eyJvZmZzZXQiOjEwMH0",
    ],
)
def test_what_an_arrow_does_not_make_a_secret_stays(line: str) -> None:
    assert th.redact(line) == line


# -- 3. a qualifier between the label and its separator --------------------------------

QUALIFIED = [
    "API key for prod: {v}",
    "api key for the staging env = {v}",
    "the password to the db is {v}",
    "The password for the admin account was {v}",
    "token for staging = {v}",
    "secret for billing-service: {v}",
    "password (prod): {v}",
    "Password (staging) = '{v}'",
    "db password (read-only replica): {v}",
    "access token for https://api.acme.io: {v}",
    "SECRET (old) => {v}",
]


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(QUALIFIED), SECRETS)
def test_a_label_with_a_qualifier_before_its_separator_is_read(shape: str, value: str) -> None:
    text = "deploy notes: " + shape.format(v=value)
    assert value not in th.redact(text), text


@pytest.mark.parametrize("shape", ["API key for prod: {v}", "the password to the db is {v}",
                                   "password (prod): {v}", "token for staging = {v}"])
def test_a_qualified_label_goes_through_every_door(shape: str) -> None:
    _every_door(shape.format(v="Qx7pLm2Rk"), "Qx7pLm2Rk", ends_line=True)


@pytest.mark.parametrize(
    "line",
    [
        "the password for this account must be at least 12 characters",
        "password for this account: must be at least 12 characters",
        "password (required): must be at least 12 characters",
        "the token in the header is malformed",
        "Failed to refresh token for user bob: connection refused",
        "the password for bob is wrong",
        "key (optional): string",
        "Authorization failed for user bob",
        "token for user bob expired at 2026-11-30T12:00:00Z",
    ],
)
def test_prose_about_a_qualified_label_stays(line: str) -> None:
    assert th.redact(line) == line


_LABEL_WORDS = ["password", "credentials", "token", "API key", "auth", "secret", "access token"]
_PLACES = st.sampled_from(["https://", "http://", "ssh://git@", "sftp://", "wss://", "git@"])
_HOST_WORDS = st.sampled_from(["sso", "acme", "vault", "api", "billing", "github", "eu", "auth"])


@settings(max_examples=examples(300), deadline=None)
@given(
    st.sampled_from(_LABEL_WORDS),
    st.sampled_from(["for", "to", "at", "on", "in", "of"]),
    _PLACES,
    st.lists(_HOST_WORDS, min_size=2, max_size=3),
    st.sampled_from(["", ":8443", ":22", ":acme/api.git", "/v1/reset", ":5432/app"]),
    st.sampled_from(["", " failed", " is down", ".", " expired at noon"]),
)
def test_a_place_after_a_qualified_label_is_no_separator(
    label: str, word: str, scheme: str, host: list[str], rest: str, after: str
) -> None:
    # A colon inside the words after "for", "at", ... (a URL's scheme, a port, git's
    # ``host:org``) is theirs: only one before a blank is a separator (recheck-n, on
    # leak12c's qualifier: "reset your password at https://sso.acme.com" lost its URL).
    if scheme == "git@":  # (without git's ``:org/repo`` it is an e-mail address)
        rest = ":acme/api.git"
    place = scheme + ".".join(host) + ".com" + rest
    line = f"reset your {label} {word} {place}{after}"
    assert th.redact(line) == line


@pytest.mark.parametrize(
    ("line", "secret"),
    [("db.password:1234", "1234"), ("app.secret:98765", "98765"), ("cfg.api_key:31337", "31337")],
)
def test_a_dotted_label_whose_last_part_names_a_secret_is_no_host(line: str, secret: str) -> None:
    # ``auth.acme.com:8443`` is a host and its port; ``db.password:1234`` is a password.
    assert secret not in th.redact(line)


# -- 6. PIN forms ------------------------------------------------------------------------

PIN_FORMS = [
    "PIN number: {v}",
    "PIN #: {v}",
    "PIN # {v}",
    "pin no. {v}",
    "pin no: {v}",
    "PIN nr. {v}",
    "PIN num = {v}",
    "PIN code {v}",
    "your PIN is {v}",
    "your PIN number is {v}",
    "card PIN: {v}",
    "the PIN for card ending 1234 is {v}",
    "PIN (card): {v}",
    "PIN number {v}",
]
PINS = st.text("0123456789", min_size=4, max_size=8).filter(lambda v: v != "1234")


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(PIN_FORMS), st.integers(0, 3), PINS)
def test_a_pin_in_any_of_its_forms_goes(shape: str, how: int, pin: str) -> None:
    text = shape.replace("PIN", _cased("pin", how)).replace("pin", _cased("pin", how))
    text = "verification: " + text.format(v=pin) + " (do not share)"
    assert pin not in th.redact(text), text


@pytest.mark.parametrize("shape", ["PIN number: {v}", "PIN #: {v}", "pin no. {v}", "your PIN is {v}"])
def test_a_pin_goes_through_every_door(shape: str) -> None:
    _every_door(shape.format(v="48213"), "48213", ends_line=True)


@pytest.mark.parametrize(
    "line",
    [
        "connect the LED to pin number 13",
        "GPIO pin no. 7 is high",
        "set pin # 2 low",
        "session number: 42",
        "token number: 3 of 5",
        "PIN must be at least 4 digits",
        "Invalid PIN: try again",
    ],
)
def test_a_board_pin_or_a_count_stays(line: str) -> None:
    assert th.redact(line) == line


# -- 2. XML and config files whose label is an attribute -------------------------------

XML_FORMS = [
    '<entry key="{k}">{v}</entry>',
    "<entry key='{k}'>{v}</entry>",
    '<add key="{k}" value="{v}"/>',
    '<add value="{v}" key="{k}" />',
    '<setting name="{k}" serializeAs="String"><value>{v}</value></setting>',
    '<setting name="{k}" serializeAs="String">{nl}  <value>{v}</value>{nl}</setting>',
    '<property name="{k}" value="{v}"/>',
    '<property name="{k}">{nl}    <value>{v}</value>{nl}</property>',
    '<param name="{k}">{v}</param>',
    '<param value="{v}" type="string" name="{k}"/>',
    '<item key="{k}"><![CDATA[{v}]]></item>',
    '<Parameter Name="{k}" Value="{v}" />',
    '<string name="{k}">{v}</string>',
]
XML_KEYS = ["password", "Password", "db.password", "ApiKey", "api_key", "secret", "ClientSecret",
            "jdbc.password", "SmtpPassword", "auth.token", "connectionPassword"]


@settings(max_examples=examples(400), deadline=None)
@given(st.sampled_from(XML_FORMS), st.sampled_from(XML_KEYS), st.sampled_from(["\n", "\r\n"]),
       SECRETS)
def test_a_secret_named_by_an_xml_attribute_goes(form: str, key: str, nl: str, value: str) -> None:
    text = "<configuration>" + nl + form.format(k=key, v=value, nl=nl) + nl + "</configuration>"
    assert value not in th.redact(text), text


@pytest.mark.parametrize(
    "line",
    [
        '<entry key="password">Qx7pLm2Rk</entry>',
        '<add key="ApiKey" value="Qx7pLm2Rk"/>',
        '<setting name="Password" serializeAs="String">\n<value>Qx7pLm2Rk</value>\n</setting>',
        '<property name="db.password" value="Qx7pLm2Rk"/>',
        '<param name="secret">Qx7pLm2Rk</param>',
        '<add value="Qx7pLm2Rk" key="ApiKey"/>',
    ],
)
def test_an_xml_attribute_label_goes_through_every_door(line: str) -> None:
    _every_door(line, "Qx7pLm2Rk")


@pytest.mark.parametrize(
    "line",
    [
        '<entry key="timeout">30</entry>',
        '<entry key="password.policy">at least 12 characters</entry>',
        '<setting name="Theme" serializeAs="String"><value>dark</value></setting>',
        '<add value="v2.4.1" key="AppVersion"/>',
        '<entry key="password">${DB_PASSWORD}</entry>',
        '<property name="password" value=""/>',
        '<string name="app_name">Billing</string>',
    ],
)
def test_an_xml_attribute_that_names_no_secret_keeps_its_value(line: str) -> None:
    assert th.redact(line) == line


# -- 4. a user and a password after a credentials label -------------------------------

PAIR_FORMS = [
    "credentials: {u} / {v}",
    "credentials: {u}/{v}",
    "Credentials = {u}:{v}",
    "creds {u}:{v}",
    "creds: {u}, {v}",
    "CREDENTIALS ({u}, {v})",
    "credential is {u} / {v}",
    "login: {u} pass {v}",
    "login: {u}/{v}",
    "login {u}:{v}",
    "username/password: {u} / {v}",
    "user/pass = {u}/{v}",
    "user:pass {u}:{v}",
    "creds = (\"{u}\", \"{v}\")",
]
USERS = st.sampled_from(["bob", "admin", "svc-billing", "deploy_bot", "ann.lee", "root"])


@settings(max_examples=examples(400), deadline=None)
@given(st.sampled_from(PAIR_FORMS), USERS, SECRETS)
def test_a_password_paired_with_its_user_after_a_credentials_label_goes(
    shape: str, user: str, value: str
) -> None:
    text = "staging " + shape.format(u=user, v=value) + " (rotate monthly)"
    assert value not in th.redact(text), text


@pytest.mark.parametrize(
    "shape", ["credentials: bob / {v}", "creds bob:{v}", "login: bob pass {v}", "creds: bob, {v}"]
)
def test_a_paired_password_goes_through_every_door(shape: str) -> None:
    _every_door(shape.format(v="Qx7pLm2Rk"), "Qx7pLm2Rk")


@pytest.mark.parametrize(
    "line",
    [
        "Invalid credentials for bob",
        "credentials expired for bob / retry",
        "login failed: read/write access denied",
        "Login: 2026-12-01/2026-12-31",
        "login failed, retrying",
        "login: ${USER}/${PASSWORD}",
    ],
)
def test_prose_after_a_credentials_label_stays(line: str) -> None:
    assert th.redact(line) == line


# -- 5. tables with a secret column ----------------------------------------------------

SECRET_COLUMNS = ["password", "Password", "PASSWORD", "api_key", "secret", "token", "passwd",
                  "client secret", "db_password", "access_token", "pwd"]
# What other columns hold and must keep: names, roles, dates, versions, files, ids.
PLAIN_CELLS = st.sampled_from(
    ["bob", "ann", "admin", "viewer", "2026-11-30", "2026-12-01T09:30:00Z", "v2.4.1", "1.0.3",
     "settings.local.py", "report.csv", "550e8400-e29b-41d4-a716-446655440000", "ORD-1042",
     "eu-west-1", "42"]
)
OTHER_COLUMNS = ["user", "name", "role", "created", "version", "file", "id", "region", "email_ok"]


def _no_label_in(value: str) -> bool:
    """A secret that is no label itself: ``AAA0Pin`` before a cell is a PIN's label for
    every layer (main too), and the cell after it goes with it."""
    lowered = value.lower()
    return not any(word in lowered for word in ("pin", "key", "pass", "pw", "token", "sid",
                                                 "secret", "auth", "sig", "otp", "cred"))


def _table(kind: str, header: list[str], rows: list[list[str]]) -> str:
    if kind == "md":
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
    elif kind == "fixed":
        widths = [max(len(c) for c in column) + 3 for column in zip(header, *rows, strict=True)]
        lines = ["".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip()
                 for line in [header, *rows]]
    else:
        lines = [kind.join(line) for line in [header, *rows]]
    return "\n".join(lines)


@settings(max_examples=examples(400), deadline=None)
@given(
    st.sampled_from([",", "\t", ";", "md", "fixed"]),
    st.lists(st.sampled_from(OTHER_COLUMNS), min_size=1, max_size=4, unique=True),
    st.sampled_from(SECRET_COLUMNS),
    st.integers(0, 4),
    st.lists(st.tuples(SECRETS.filter(_no_label_in), st.lists(PLAIN_CELLS, min_size=4, max_size=4)),
             min_size=1, max_size=6),
)
def test_every_value_of_a_secret_column_goes_and_the_rest_stays(
    kind: str, others: list[str], column: str, where: int,
    rows: list[tuple[str, list[str]]],
) -> None:
    if kind == "fixed":
        column = column.replace(" ", "_")
    at = where % (len(others) + 1)
    header = [*others[:at], column, *others[at:]]
    table_rows = [[*cells[:at], secret, *cells[at:len(others)]] for secret, cells in rows]
    text = _table(kind, header, table_rows)
    out = th.redact(text)
    for secret, _ in rows:
        assert secret not in out, (text, out)
    for row in table_rows:
        for index, cell in enumerate(row):
            if index != at:
                assert cell in out, (cell, text, out)


@pytest.mark.parametrize(
    "table",
    [
        "user,password\nbob,Qx7pLm2Rk\nann,Zz8kLm3Rq",
        "user\tpassword\nbob\tQx7pLm2Rk\nann\tZz8kLm3Rq",
        "| user | password |\n|---|---|\n| bob | Qx7pLm2Rk |\n| ann | Zz8kLm3Rq |",
        "USER      PASSWORD      ROLE\nbob       Qx7pLm2Rk     admin\nann       Zz8kLm3Rq     viewer",
        " usename | passwd\n---------+-----------\n bob     | Qx7pLm2Rk\n ann     | Zz8kLm3Rq\n(2 rows)",
    ],
)
def test_a_secret_column_goes_through_every_door(table: str) -> None:
    _every_door("export failed:\n" + table, "Qx7pLm2Rk", "Zz8kLm3Rq")


@pytest.mark.parametrize(
    "text",
    [
        "id,token_count,model\n1,512,gpt\n2,1024,claude",
        "name,key,value\nretries,max_retries,3\nregion,aws_region,eu-west-1",
        "Invalid token, please retry\nnext line, with commas",
        "file,version,updated\nauth.py,1.2.3,2026-11-30",
        "| setting | password policy |\n|---|---|\n| min | 12 characters |",
        "| field | token |\n|---|---|\n| status | expired |",
    ],
)
def test_a_table_without_secret_values_stays(text: str) -> None:
    assert th.redact(text) == text


# -- 8. a pagination cursor named in prose stays --------------------------------------

CURSOR_KEYS = ["page_token", "next_page_token", "nextPageToken", "NextToken", "pageToken",
               "continuation_token", "sync token", "resume token", "cursor", "next_cursor",
               "endCursor", "scroll_id", "next page token", "page token"]
CURSOR_GAPS = [" ", " is ", " was ", "=", ": ", "  "]
CURSORS = st.builds(
    lambda seed, size: "".join(random.Random(seed).choices(_ALNUM + "-_", k=size)) + "Q9",
    st.integers(0, 2**32),
    st.integers(20, 60),
)


@settings(max_examples=examples(400), deadline=None)
@given(st.sampled_from(CURSOR_KEYS), st.sampled_from(CURSOR_GAPS), CURSORS,
       st.sampled_from(["", "use ", "call list_items again with ", "more results: "]))
def test_a_cursor_named_by_its_key_in_prose_stays(
    key: str, gap: str, cursor: str, before: str
) -> None:
    text = f"{before}{key}{gap}{cursor}"
    assert cursor in th.redact(text), text


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(["access token", "auth token", "session token", "login ok, token",
                        "Authorization failed; token", "api token", "refresh token"]),
       st.sampled_from([" ", " is ", ": ", "="]), CURSORS)
def test_a_token_after_an_auth_word_still_goes(words: str, gap: str, value: str) -> None:
    text = f"{words}{gap}{value}"
    assert value not in th.redact(text), text


@pytest.mark.parametrize(
    "line",
    ["page_token CiAKGjBpNDd2Nmp2Zml2cXRsNGcxOTJ2ZnF6ZRIDEgE",
     "next_page_token is CiAKGjBpNDd2Nmp2Zml2cXRsNGcxOTJ2ZnF6ZRIDEgE",
     "use cursor CiAKGjBpNDd2Nmp2Zml2cXRsNGcxOTJ2ZnF6ZRIDEgE",
     "scroll_id DXF1ZXJ5QW5kRmV0Y2gBAAAAAAAAAD4WYm9laVYtZndUQlNsdDcwakFMNjU1QQ"],
)
def test_a_cursor_in_prose_reaches_the_model(line: str) -> None:
    @th.tool(name="listing")
    def listing(order_id: str) -> str:
        return line

    session = th.Session([listing])
    assert line in session.call("listing", {"order_id": "A"}).content
    assert th.redact(line) == line


def test_a_provider_key_under_a_cursor_in_prose_still_goes() -> None:
    key = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"
    assert key not in th.redact(f"next_page_token is {key}")
    assert key not in th.redact(f"page_token {key}")


# -- 7. octal escapes, look-alike letters, labels in more languages --------------------


def _octal(text: str) -> str:
    return "".join(f"\\{b:03o}" for b in text.encode())


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(LABELS), st.sampled_from([": ", "=", " = "]), SECRETS,
       st.sampled_from(["label", "value", "both", "all"]))
def test_octal_escapes_spelling_a_label_or_its_value_are_read(
    label: str, sep: str, value: str, which: str
) -> None:
    shown_label = _octal(label) if which in ("label", "both") else label
    shown_value = _octal(value) if which in ("value", "both") else value
    text = f"printf '{shown_label}{sep}{shown_value}'"
    if which == "all":
        text = f"printf '{_octal(label + sep + value)}'"
    out = th.redact(text)
    assert value not in out and _octal(value) not in out, (text, out)


def test_an_octal_label_goes_through_every_door() -> None:
    _every_door(_octal("password") + ": Qx7pLm2Rk", "Qx7pLm2Rk")


@pytest.mark.parametrize(
    "line", ["C:\\temp\\100files\\report.csv", "value \\101\\102\\103 ok", "mode \\755 on /srv"]
)
def test_octal_escapes_of_no_secret_stay(line: str) -> None:
    assert th.redact(line) == line


# Latin letters and a Cyrillic or Greek letter drawn like each (Unicode's confusables).
LOOK_ALIKES = {"a": "\u0430\u03b1", "c": "\u0441\u03f2", "e": "\u0435", "i": "\u0456\u03b9",
               "o": "\u043e\u03bf", "p": "\u0440\u03c1", "s": "\u0455", "x": "\u0445",
               "y": "\u0443", "A": "\u0410\u0391", "E": "\u0415\u0395", "K": "\u041a\u039a",
               "P": "\u0420\u03a1", "T": "\u0422\u03a4", "O": "\u041e\u039f", "S": "\u0405"}


@settings(max_examples=examples(400), deadline=None)
@given(st.sampled_from(LABELS), st.integers(0, 3), st.data(), SECRETS,
       st.sampled_from([": ", "=", " = "]))
def test_a_label_spelled_with_look_alike_letters_is_read(
    label: str, how: int, data: st.DataObject, value: str, sep: str
) -> None:
    cased = _cased(label, how)
    spots = [i for i, c in enumerate(cased) if c in LOOK_ALIKES]
    if not spots:
        return
    chosen = data.draw(st.lists(st.sampled_from(spots), min_size=1, unique=True))
    spoofed = "".join(
        data.draw(st.sampled_from(LOOK_ALIKES[c])) if i in chosen else c
        for i, c in enumerate(cased)
    )
    text = f"config {spoofed}{sep}{value}"
    out = th.redact(text)
    assert value not in out, (text, out)
    assert spoofed in out  # the label is shown as it was written


def test_a_look_alike_label_goes_through_every_door() -> None:
    _every_door("p\u0430ssword: Qx7pLm2Rk", "Qx7pLm2Rk")


@pytest.mark.parametrize(
    "line",
    ["\u043f\u0430\u0440\u043e\u043b\u044c \u0434\u043e\u043b\u0436\u0435\u043d \u0431\u044b\u0442\u044c "
     "\u0434\u043b\u0438\u043d\u043d\u0435\u0435",  # "пароль должен быть длиннее"
     "p\u0430ssword must be at least 12 characters",
     "\u0391\u0398\u0397\u039d\u0391 2026-11-30 v2.4.1"],
)
def test_look_alike_letters_in_prose_stay(line: str) -> None:
    assert th.redact(line) == line


FOREIGN = ["كلمة المرور", "كلمة السر", "mật khẩu", "Mật khẩu", "mat khau", "kata sandi",
           "kata laluan", "رمز عبور", "κωδικός πρόσβασης", "heslo", "jelszó", "salasana",
           "passord", "adgangskode", "parolă", "lozinka", "סיסמה", "पासवर्ड", "รหัสผ่าน",
           "Passwort", "contraseña", "пароль", "密码", "パスワード", "비밀번호"]


@settings(max_examples=examples(400), deadline=None)
@given(st.sampled_from(FOREIGN), st.sampled_from([": ", ":", "=", " = ", "\uff1a"]), SECRETS)
def test_a_label_in_another_language_is_read(label: str, sep: str, value: str) -> None:
    for text in (f"{label}{sep}{value}", json.dumps({label: value}, ensure_ascii=False),
                 repr({label: value})):
        assert value not in th.redact(text), text


@pytest.mark.parametrize("line", ["كلمة المرور: Qx7pLm2Rk", "mật khẩu: Qx7pLm2Rk",
                                  "Mật khẩu là Qx7pLm2Rk", "kata sandi adalah Qx7pLm2Rk"])
def test_a_label_in_arabic_or_vietnamese_goes_through_every_door(line: str) -> None:
    _every_door(line, "Qx7pLm2Rk")


@pytest.mark.parametrize(
    "line",
    ["mật khẩu phải có ít nhất 12 ký tự", "كلمة المرور غير صحيحة", "xuất khẩu: 2026-11-30",
     "nhập khẩu: v2.4.1", "kata sandi salah"],
)
def test_prose_in_another_language_stays(line: str) -> None:
    assert th.redact(line) == line
