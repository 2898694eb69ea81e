"""Whether a key names a secret, and whether a value is a real one: the judgement behind
the labelled-values layer of redaction (``_detectors``) and behind ``redact_data`` and the
model's own arguments (``redact``).

A key is read by its parts (``SECRET_KEY`` -> secret, key; ``apiKey`` -> api, key): a strong
part names a secret wherever it stands; ``key`` does so after a qualifier (``api_key``,
``signing_key``) and otherwise only with a credential-looking value (``primary_key``); a
key ending in a word about the secret rather than the secret (``token_count``,
``KeyError``, ``password_policy``) is not a label; an application id (``appid``) is one
only with a credential-looking value. A value is real unless it is a placeholder
(``null``, ``${VAR}``, ``***``) or, after a colon, prose ("Invalid token: expired"), and
prose is only words a service writes about a secret (``prose_run``).
"""

from __future__ import annotations

import functools
import re

__all__ = [
    "PREFERENCE_NAME",
    "PREFERENCE_VALUE",
    "cookie_values",
    "literal_before_reference",
    "AUTH_SCHEMES",
    "BRACKETED",
    "DATA_KEY_QUALIFIERS",
    "FLAG_ENDS",
    "SNMP_DEFAULTS",
    "FOREIGN_LABELS",
    "GLUED_LABELS",
    "PERCENT_FIELD",
    "PHRASE_HEADS",
    "PHRASE_LABELS",
    "STATUS_JOINED",
    "STATUS_WORDS",
    "TRAILING",
    "bracketed_verdict",
    "code_label",
    "after_secret_flag",
    "code_value",
    "credential_shaped",
    "is_secret_label",
    "line_rest",
    "marks_only",
    "never_rest",
    "paging_prose",
    "plain_run",
    "plausible_value",
    "prose_run",
    "status_word",
    "qualified_key",
    "reference_name",
    "speaks_of_paging",
]

_STRONG = frozenset(
    [
        "secret",
        "secrets",
        "token",
        "password",
        "passwd",
        "passphrase",
        "pwd",
        "pw",
        "psw",
        "pswd",
        "passw",
        "pass",
        "credential",
        "credentials",
        "creds",
        "signature",
        "sig",
        "cookie",
        "cookies",
        "auth",
        "apikey",
        "appkey",
        "privatekey",
        "privkey",  # ``wg_privkey``, ``PRIVKEY``: a private key abbreviated
        "seckey",
        "secretkey",
        "accesskey",
        "sessionid",
        "sessid",
        "session",
        "sid",
        "jsessionid",
        "phpsessid",
        # a session in a cookie's name (``_gh_sess``, ``koa.sess``, ``express:sess``) and
        # Google's session cookies (``__Secure-3PSID``, ``SAPISID``; not ``SSID``, a
        # wireless network's name)
        "sess",
        "psid",
        "psidts",
        "psidcc",
        "apisid",
        "sapisid",
        "otp",
        "totp",
        "dsn",
        # codes that open an account or pay with a card: a passcode, a PIN written
        # glued, a card's verification value
        "passcode",
        "passcodes",
        "pincode",
        "pincodes",
        "cvv",
        "cvv2",
        "cvc",
        "cvc2",
        # Redis's password settings, a Wi-Fi network's pre-shared key
        "requirepass",
        "masterauth",
        "psk",
        # (fix21a) net-snmp's community strings (``rocommunity v default``)
        "rocommunity",
        "rwcommunity",
        "rocommunity6",
        "rwcommunity6",
    ]
)
# What a ``code`` opens when a word before it says so (``recovery_codes``, "access
# code", "one-time code"); a bare ``code`` is an error's or a status's (``code: 500``,
# AWS ``AccessDenied``) and ``promo_code``, ``zip_code``, ``user_code`` are no secrets.
_CODE_QUALIFIERS = frozenset(
    [
        "recovery",
        "backup",
        "access",
        "verification",
        "verify",
        "security",
        "mfa",
        "2fa",
        "fa",
        "otp",
        "totp",
        "sms",
        "onetime",
        "unlock",
        "scratch",
        "emergency",
        "auth",
        "authorization",
        "authentication",
        "pin",
        "reset",
        "activation",
        "login",
        "signin",
        "device",
        "secret",
        "pairing",
    ]
)
# The answer to a security question, and the words of a wallet's seed or recovery
# phrase: credentials in words.
_ANSWER_QUALIFIERS = frozenset(["security", "secret", "challenge", "recovery", "memorable"])
_PHRASE_QUALIFIERS = frozenset(["seed", "recovery", "mnemonic", "secret", "backup", "wallet"])
_CODE_HEADS = frozenset(
    ["code", "codes", "answer", "answers", "phrase", "key", "keys", "pin", "community"]
)
# (fix20b) The qualifiers whose key's id names the key and grants nothing: a GPG key's id
# (``signing.keyId=24875D73``, ``gpg_key_id``), an SSH key's, a KMS key's. (An access
# key's id, ``access_key_id``, ``api_key_id``, is half a credential: it goes.)
_NAMED_KEY_QUALIFIERS = frozenset(
    ["signing", "gpg", "pgp", "ssh", "encryption", "decryption", "kms"]
)
_KEY_QUALIFIERS = frozenset(
    [
        "api",
        "access",
        "secret",
        "private",
        "priv",
        "signing",
        "encryption",
        "decryption",
        "master",
        "app",
        "client",
        "account",
        "shared",
        "license",
        "auth",
        "session",
        "service",
        "sas",
        "storage",
        "subscription",
        "consumer",
        "deploy",
        "webhook",
        "ssh",
        "gpg",
        "pgp",
        "hmac",
        "jwt",
        "aes",
        "rsa",
        "admin",
        "root",
        "bot",
        "integration",
        "server",
        "write",
        "developer",
        "project",
        "org",
        "partner",
        "merchant",
        "live",
        "prod",
        "production",
        "sandbox",
        "x",
        "instrumentation",
        "ingest",
        "personal",
        "user",
        "sdk",
        "management",
        "mgmt",
        "license",
        "publishable",
        "restricted",
        "recovery",
        "backup",
        "unlock",
        "preshared",  # WireGuard's ``PresharedKey``
    ]
)
# A key that is public by name (``public_key``, WireGuard's ``PublicKey``, "public key
# \"Alice <…>\" imported"): no label; a random value still goes as layer 4 finds it,
# unless ``_public`` knows its format.
_PUBLIC_KEY_QUALIFIERS = frozenset(["public", "pub"])
# What a key is for when it names a record, not a lock: a cache entry, a retried
# request's idempotency key, a table's partition, sort, primary or foreign key, a queue's
# routing key, a stored object's name. Such a value opens nothing: ``cache_key``,
# ``Idempotency-Key``, ``partition_key`` are no labels (a provider's format in the value
# still goes, and ``_tokens`` keeps a random one as it keeps an id).
DATA_KEY_QUALIFIERS = frozenset(
    [
        "cache",
        "idempotency",
        "idempotent",
        "partition",
        "sort",
        "primary",
        "foreign",
        "unique",
        "composite",
        "compound",
        "candidate",
        "surrogate",
        "natural",
        "shard",
        "sharding",
        "routing",
        "dedup",
        "dedupe",
        "deduplication",
        "range",
        "row",
        "object",
        "lookup",
        "index",
        "bucket",
        "s3",
        "registry",
        "translation",
        "i18n",
        "sorting",
        "grouping",
        "clustering",
        "distribution",
    ]
)
_META = frozenset(
    [
        "error",
        "errors",
        "exception",
        "count",
        "length",
        "len",
        "size",
        "type",
        "name",
        "names",
        "version",
        "expiry",
        "expires",
        "expiration",
        "expired",
        "expire",
        # when it was changed, not what it is (``password_last_changed: 2026-01-04``)
        "changed",
        "modified",
        "rotated",
        "date",
        "time",
        "timestamp",
        "since",
        "until",
        "issued",
        "ttl",
        # (fix20b) how long, not what: ``session_duration=3600``, ``token_lifetime``
        "duration",
        "lifetime",
        "interval",
        "url",
        "uri",
        "endpoint",
        "path",
        "file",
        "filename",
        "header",
        "field",
        "param",
        "hint",
        "policy",
        "required",
        "missing",
        "invalid",
        "format",
        "enabled",
        "disabled",
        "timeout",
        "provider",
        "algorithm",
        "alg",
        "method",
        # (fix22c) what a server offers, a list of public names: an OpenID discovery
        # document's ``token_endpoint_auth_methods_supported``, ``…_alg_values_supported``
        "supported",
        "scheme",
        "strength",
        "rotation",
        "label",
        "prefix",
        "suffix",
        "manager",
        "store",
        "env",
        "var",
        "min",
        "max",
        "limit",
        "usage",
        "used",
        "left",
        "remaining",
        "budget",
        "mode",
        "kind",
        "status",
        "state",
        "location",
        "source",
        "created",
        "updated",
        "at",
        "ref",
        "reference",
        "id_type",
        "lifetime",
        "age",
        "domain",
        "samesite",
        "secure",
        "httponly",
        "found",
        "notfound",
    ]
)
_PAGING = frozenset(
    [
        "next",
        "prev",
        "previous",
        "page",
        "continuation",
        "pagination",
        "sync",
        "resume",
        "resumption",
        "scroll",
    ]
)
_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


def _parts(key: str) -> list[str]:
    return [p.lower() for p in _PARTS.findall(key)]


# A secret word written glued to what it qualifies (``PGPASSWORD``, ``clientsecret``,
# ``authtoken``, ``awsaccesskey``): a part ending in one of these long words is a label.
# Short words (``pass``, ``sig``, ``sid``, ``auth``) are left out: ``compass``, ``inside``,
# ``oauth`` end in them.
_GLUED = (
    "password",
    "passwd",
    "passphrase",
    "pwd",
    "secret",
    "token",
    "credential",
    "credentials",
    "apikey",
    "accesskey",
    "privatekey",
    "secretkey",
    "authkey",
    "sessionid",
)
# A part glued to a secret word that counts it rather than holding it (``maxtoken``).
_COUNTING = ("max", "min", "num", "total", "prompt", "completion", "input", "output", "count")


def _glued_secret(part: str) -> bool:
    for word in _GLUED:
        if len(part) > len(word) and part.endswith(word):
            return not part.startswith(_COUNTING)
    return False


_SEED_QUALIFIERS = frozenset(["otp", "totp", "hotp", "mfa", "factor", "2fa", "fa", "authenticator"])


_NUMBERS = re.compile(r"(?<![A-Za-z0-9])[0-9]+")  # (not a word's own digits: ``x509``, ``sha256``)


@functools.lru_cache(maxsize=1024)
def is_secret_label(key: str) -> bool | None:
    """Whether a key names a secret: ``True`` (``db_password``, ``X-Api-Key``,
    ``SECRET_KEY``), ``None`` when it may (a bare ``key``: the value decides) or
    ``False`` (``token_count``, ``KeyError``, ``primary_key`` is ``None``)."""
    # A number is a part of its own and no word of the rules is one: ``key_17`` and
    # ``key_0`` get one verdict, judged once for thousands of numbered keys.
    if "_" in key and _HASHED_COOKIE.fullmatch(key):
        return True
    if _named_session_cookie(key):
        return True
    if key.lower() in _FRAMEWORK_COOKIES:
        return None  # a package's name too (``symfony: 6.4``): the value decides
    return _label_verdict(_NUMBERS.sub("0", key))


# A session cookie named by a hash of the site (WordPress's ``wordpress_logged_in_<md5>``,
# ``wordpress_sec_<md5>``, ``wp-postpass_<md5>``; Laravel's ``remember_web_<sha1>``): no
# secret word in it, and the hash makes every site's name another.
_HASHED_COOKIE = re.compile(
    r"(?:[a-z0-9]{1,32}[_-])?(?:logged[_-]in|sec|postpass)_[0-9a-f]{16,64}"
    r"|remember_[a-z]{1,32}_[0-9a-f]{40}",
    re.IGNORECASE,
)


# Frameworks' session and sign-in cookies whose names hold no secret word: ASP.NET's
# forms ticket (``.ASPXAUTH``), ASP.NET Core's (``.AspNetCore.Identity.Application``,
# ``.AspNetCore.Cookies``, an antiforgery token) and Drupal's, named by a hash of the
# site (``SESS<md5>``, ``SSESS<md5>`` over HTTPS). CakePHP's and Symfony's sessions
# (``CAKEPHP``, ``symfony``) are named as the frameworks are: the value decides, as for
# a bare ``key``.
_SESSION_COOKIES = frozenset(
    [
        ".aspxauth",
        "aspxauth",
        ".aspnetcore.identity.application",
        ".aspnetcore.cookies",
        ".aspnetcore.session",
    ]
)
_FRAMEWORK_COOKIES = frozenset(["cakephp", "symfony"])
_DRUPAL_COOKIE = re.compile(r"S?SESS[0-9a-f]{32}", re.IGNORECASE)


def _named_session_cookie(key: str) -> bool:
    lowered = key.lower()
    return (
        lowered in _SESSION_COOKIES
        or lowered.startswith(".aspnetcore.antiforgery.")
        or (lowered[:1] == "s" and _DRUPAL_COOKIE.fullmatch(key) is not None)
    )


# Labels in other languages: a word that names a secret (German, Spanish, French,
# Portuguese, Dutch, Polish, Swedish, Turkish, Russian, and those named below; ``mot de
# passe`` is read at ``passe``; Spanish ``clave`` is a password as often as a key), one
# that names a key (the value decides, as for ``key``), and the words of scripts written
# without spaces, found anywhere in the key (``GLUED_LABELS``).
_FOREIGN_STRONG = frozenset(
    [
        "passwort",
        "kennwort",
        "contraseña",
        "contrasena",
        "clave",
        "passe",
        "senha",
        "jeton",
        "jéton",
        "wachtwoord",
        "hasło",
        "haslo",
        "lösenord",
        "losenord",
        # (fix21a) the definite forms a Scandinavian sentence opens with ("Lösenordet
        # är v", "Passordet er v", "Adgangskoden er v")
        "lösenordet",
        "losenordet",
        "passordet",
        "adgangskoden",
        "şifre",
        "sifre",
        "пароль",
        "токен",
        # Czech and Slovak, Hungarian, Finnish, Norwegian, Danish, Romanian, Croatian and
        # Serbian, Slovenian, Lithuanian, Hebrew
        "heslo",
        "jelszó",
        "jelszo",
        "salasana",
        "passord",
        "adgangskode",
        "parolă",
        "lozinka",
        "geslo",
        "slaptažodis",
        "סיסמה",
        "סיסמא",
    ]
)
_FOREIGN_KEYS = frozenset(["chave", "schlüssel", "schluessel", "ключ"])
FOREIGN_LABELS = tuple(sorted(_FOREIGN_STRONG | _FOREIGN_KEYS))
"""The words of other languages' labels written with spaces (``Passwort``, ``пароль``):
the labelled layer's needles."""
GLUED_LABELS = (
    "密码",
    "密碼",
    "口令",
    "令牌",
    "密钥",
    "密鑰",
    "パスワード",
    "トークン",
    "暗証番号",
    "비밀번호",
    "รหัสผ่าน",
    "पासवर्ड",
)
"""Labels of scripts written without spaces, found anywhere in a key (``用户密码``), and
of scripts whose vowel signs are no word characters (Hindi ``पासवर्ड``)."""
PHRASE_LABELS = (
    "mật khẩu",
    "mat khau",
    "kata sandi",
    "kata laluan",
    "كلمة المرور",
    "كلمة السر",
    "كلمة مرور",
    "رمز عبور",
    "گذرواژه",
    "κωδικός πρόσβασης",
)
"""Labels of two words (Vietnamese, Indonesian, Malay, Arabic, Persian, Greek): read as
one label where both words stand together, found anywhere in a key."""
_WORDS = re.compile(r"[\W\d_]+")


def _foreign_verdict(key: str) -> bool | None:
    lowered = key.lower()
    if any(word in lowered for word in GLUED_LABELS) or any(
        phrase in lowered for phrase in PHRASE_LABELS
    ):
        return True
    words = _WORDS.split(lowered)
    if not _FOREIGN_STRONG.isdisjoint(words):
        return True
    return None if not _FOREIGN_KEYS.isdisjoint(words) else False


# A key written as one run (no separator) longer than names are, or of many pieces, is
# data that an '=' follows (base64's padding), not a name: a run of base64 holds ``PW``
# or ``Token`` by chance (``gPWAgAAAA…``), and the text after it is no value.
_SEPARATED = re.compile(r"[^A-Za-z0-9]")


def _is_data(key: str, parts: list[str]) -> bool:
    if _SEPARATED.search(key) or (parts and parts[-1] in _GLUED_TO_DATA):
        return False  # ``…LwA7password=v``: a label glued to the data before it
    return len(key) > 48 or len(parts) > 10


_WORDPRESS = (
    ["auth"],
    ["secure", "auth"],
    ["logged", "in"],
    ["nonce"],
)
"""What WordPress's eight keys and salts open with (``wp-config.php``'s ``AUTH_KEY`` …
``NONCE_SALT``, also after a prefix: ``WORDPRESS_NONCE_SALT``)."""


def _wordpress(parts: list[str]) -> bool:
    head = parts[:-1]
    return any(head[-len(words) :] == words for words in _WORDPRESS)


SNMP_DEFAULTS = ("public", "private")
"""SNMP's well-known community strings, no secret (what an agent reads in a device's
default configuration)."""

_SNMP_WORDS = frozenset(["snmp", "snmpv2", "snmpv2c", "snmpv1", "server", "ro", "rw"])
"""The words before ``community`` that make it SNMP's (``snmp-server community``)."""


# Secret words long enough that random base64 does not end in them by chance (about one
# run in 30 million for the shortest, in any case).
_GLUED_TO_DATA = frozenset(["password", "passwd", "passphrase", "secret", "token", "apikey"])


@functools.lru_cache(maxsize=1024)
def _label_verdict(key: str) -> bool | None:
    parts = _parts(key)
    if _is_data(key, parts):
        return False
    foreign = _foreign_verdict(key)
    if foreign is not False:
        return foreign
    if not parts:
        return False
    if parts[-1] in _META:
        if parts[-1] in _MEASURES and _measures_a_secret(parts):
            # (fix22) how many or how long of a secret (``token_ttl``, ``token_count``,
            # ``api_key_length``): the value decides, as for a setting's unit (``3600``,
            # ``1h30m`` stay; ``Zx9Qw2Er7Ty4Ui`` goes). A plural's count
            # (``passwords_count``) counts them and names none.
            return None
        return False
    if parts[-1] in _SETTING_KINDS:
        # (fix21b) a setting whose last word says its value is a count, a duration, a
        # choice (``session_timeout_minutes``, ``sig_figs``, ``secrets_backend``,
        # ``session_affinity``): under a secret word, the value decides, as for a bare
        # ``key`` (``30``, ``vault``, ``ClientIP`` stay; ``hunter2pass!`` goes)
        strong = any(p in _STRONG or p in _STRONG_PLURALS or _glued_secret(p) for p in parts)
        return None if strong else False
    if (
        parts[-1] in ("token", "tokens", "cursor")
        and not _PAGING.isdisjoint(parts[:-1])
        and _STRONG.isdisjoint(parts[:-1])
    ):
        # a pagination cursor (``nextPageToken``, ``continuation_token``; not NextAuth's
        # ``next-auth.session-token``, which a session's word names)
        return False
    if parts[-1] in ("key", "salt") and _wordpress(parts):
        return True  # (fix21a) WordPress's keys and salts (``NONCE_SALT``, ``LOGGED_IN_KEY``)
    if "community" in parts:
        # (fix21a) an SNMP community string, a password in all but name: named by SNMP
        # (``snmp_community``, ``snmp-server community v``, ``community_string``); a bare
        # ``community`` is a word of prose as often: the value decides, as for ``key``
        at = parts.index("community")
        if _SNMP_WORDS.isdisjoint(parts[:at]) and parts[at + 1 :] != ["string"]:
            return None if parts[at:] == ["community"] else False
        return True
    if parts[-1] == "sk" and len(parts) > 1:
        return True  # a secret key after its service (``STRIPE_SK``, ``ALIYUN_SK``)
    if parts[-1] == "appid" or parts[-2:] == ["app", "id"]:
        # An application id is an API key at some services (OpenWeather's ``appid``) and
        # a public name or number at others: the value decides, as for a bare ``key``.
        return None
    # a secret named by what it is for (``JWT_SIGNING``, ``WEBHOOK_HMAC``,
    # ``GITHUB_WEBHOOK``, ``ENCRYPTION_SEED``; not a bare word, which prose uses for the
    # thing: "received webhook evt_…", "HMAC mismatch", "seed 42"): the value decides, as
    # for a bare ``key``
    verdict: bool | None = None if len(parts) > 1 and parts[-1] in _PURPOSES else False
    for index, part in enumerate(parts):
        if part in _STRONG or part in _STRONG_PLURALS or _glued_secret(part):
            # ``password_last_set``, ``token_last_used``: when, not what (but
            # ``last_password`` is the one before, ``api_key_last_used_with`` a value)
            return not _when(parts[index + 1 :])
        if part == "seed" and index and parts[index - 1] in _SEED_QUALIFIERS:
            return True  # an OTP seed (``totp_seed``, ``two_factor_seed``, ``mfa seed``)
        before = parts[index - 1] if index else ""
        if part in ("key", "keys"):
            if parts[index + 1 :] in (["id"], ["ids"]) and (
                before not in _KEY_QUALIFIERS or before in _NAMED_KEY_QUALIFIERS
            ):
                return False  # a key's id (``key_id``, ``gpg_key_id``): it names the key
            if before in _KEY_QUALIFIERS:
                return not _when(parts[index + 1 :])  # ``api_key_last_used``: when
            if before in DATA_KEY_QUALIFIERS or before in _PUBLIC_KEY_QUALIFIERS:
                return False  # ``cache_key``, ``idempotency_key``, ``primary_key``
            verdict = None
        elif _named_code(part, before, parts[index - 2 : index]):
            return True
        elif part in ("pin", "pins"):
            verdict = None  # a PIN, or a board's pin number: ``code_value`` decides
    return verdict


_MEASURES = frozenset(
    ["count", "length", "len", "size", "ttl", "duration", "lifetime", "interval", "timeout"]
)
"""The last words of a name that say its value is a number or a duration (fix22)."""


def _measures_a_secret(parts: list[str]) -> bool:
    """Whether a measure's name names a secret before its last word (``token_ttl``,
    ``api_key_length``; not ``passwords_count``, ``cache_key_size``)."""
    for index, part in enumerate(parts[:-1]):
        if part in _STRONG or _glued_secret(part):
            return True
        if part == "key" and index and parts[index - 1] in _KEY_QUALIFIERS:
            return True
    return False


_SETTING_KINDS = frozenset(
    [
        # units of a duration or a size
        *("ms", "millis", "milliseconds", "secs", "seconds", "mins", "minutes", "hrs"),
        *("hours", "days", "weeks", "months", "years", "bytes", "bits", "chars"),
        *("characters", "digits", "figs", "places", "rounds", "attempts", "retries", "tries"),
        # a count, a level, a choice among closed words
        *("threshold", "level", "levels", "backend", "backends", "driver", "engine"),
        *("strategy", "affinity", "consent", "choice", "option", "options", "preference"),
        *("preferences", "enforcement", "complexity", "delay", "window", "quota", "ratio"),
        *("percent", "pct", "lockout", "reuse", "validity", "persistence", "sharing"),
    ]
)
"""The last words of a setting's name that say its value is a number, a duration or a
closed word (fix21b): after a secret word the value decides (``_label_verdict``)."""


_PURPOSES = frozenset(["signing", "hmac", "webhook", "seed"])
"""The last words of a name that say what its value is for: a secret when it reads as a
credential (``JWT_SIGNING=Jtnwmz579-cR5A``; ``SMB_SIGNING=required``,
``SLACK_WEBHOOK=https://…``, ``RANDOM_SEED=42`` stay)."""


# A list of passwords under its plural (``"passwords": "v"``, ``db_passwords=v``): each
# value one. (``tokens`` is a model's count as often: the value decides, ``_listed``.)
_STRONG_PLURALS = frozenset(["passwords", "passphrases", "passwds", "pwds"])


_WHEN_WORDS = frozenset(
    [
        *("last", "used", "set", "changed", "rotated", "updated", "created", "modified"),
        *("reset", "at", "on", "date", "time", "ts", "seen", "expires", "expired", "expiry"),
    ]
)


def data_key(key: str) -> bool:
    """Whether ``key`` names a record (``cache_key``, ``Idempotency-Key``, ``routing_key``:
    ``DATA_KEY_QUALIFIERS``, then ``key``), which ``is_secret_label`` says no label."""
    parts = _parts(key)
    return (
        len(parts) > 1
        and parts[-1] in ("key", "keys")
        and parts[-2] in DATA_KEY_QUALIFIERS
        and is_secret_label(key) is False
    )


# A PagerDuty Events API integration key as the ``routing_key`` carries it: ``R0`` and
# 30 capitals and digits, or an older one's 32 hex digits.
_PAGERDUTY = re.compile(r"R0[0-9A-Z]{30}|[0-9a-f]{32}")
_ROUTING = frozenset(["routing", "integration", "service", "events"])


def routing_credential(key: str, value: str) -> bool:
    """Whether a data key's value (``data_key``) is a PagerDuty integration key under a
    routing key (``"routing_key": "R0…"``): a routing key that opens an inbox."""
    return _PAGERDUTY.fullmatch(value.strip("\"'`")) is not None and _parts(key)[-2] in _ROUTING


def _when(tail: list[str]) -> bool:
    """Whether the words after a secret's name say when it changed, not what it is:
    ``last`` among them, and nothing but words of time (``_last_used``, ``_last_set_at``)."""
    return "last" in tail and _WHEN_WORDS.issuperset(tail)


def code_qualifier(word: str) -> bool:
    """Whether ``word`` before ``codes`` names credentials (``recovery``, ``backup``,
    ``2fa``; ``_CODE_QUALIFIERS``)."""
    return word.lower() in _CODE_QUALIFIERS


def _named_code(part: str, before: str, two_before: list[str]) -> bool:
    """Whether ``part``, after ``before``, names a code, an answer or a phrase that is a
    credential (``recovery_code``, ``one_time_code``, ``security_answer``, ``seed_phrase``)."""
    if part in ("code", "codes"):
        return before in _CODE_QUALIFIERS or two_before == ["one", "time"]
    if part in ("answer", "answers"):
        return before in _ANSWER_QUALIFIERS
    return part in ("phrase", "words") and before in _PHRASE_QUALIFIERS


_QUALIFIER = re.compile(r"([A-Za-z0-9]{2,24})(?:[ \t]{1,3}|-)\Z")
_TIME_BEFORE = re.compile(r"one[ \t-]?\Z", re.IGNORECASE)


def qualified_key(text: str, start: int, key: str) -> str:
    """The key written as two words when ``key`` (at ``start`` in ``text``) is the
    second word of a label whose first word says what it is ("recovery code", "security
    answer", "secret key", "one-time code", "PIN code"): the two words as one key
    (``recovery_code``); ``key`` itself otherwise."""
    if key.lower() not in _CODE_HEADS or not start:
        return key
    found = qualifier_before(text, start)
    if found is None:
        return key
    word, at = found
    if word.lower() == "time" and _TIME_BEFORE.search(text, max(0, at - 4), at):
        word = "onetime"
    return f"{word}_{key}"


_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def qualifier_before(text: str, start: int) -> tuple[str, int] | None:
    """The word right before ``start`` and where it starts: exactly what
    ``_QUALIFIER.search(text, max(0, start - 28), start)`` finds (its group and start),
    read back with ``rstrip`` (that search tries a word at each of 28 characters)."""
    low = max(0, start - 28)
    window = text[low:start]
    if window.endswith("-"):
        cut = len(window) - 1
    else:
        head = window.rstrip(" \t")
        if not 1 <= len(window) - len(head) <= 3:
            return None
        cut = len(head)
    head = window[:cut]
    run = min(len(head) - len(head.rstrip(_ALNUM)), 24)
    if run < 2:
        return None
    return head[cut - run :], low + cut - run


_CODE_VALUE = re.compile(
    r"[0-9]{4,12}|(?=[A-Za-z0-9\-]{4,24}\Z)(?=[^0-9]*[0-9])[A-Za-z0-9]{2,8}(?:-[A-Za-z0-9]{2,8}){0,4}"
)


def code_label(key: str) -> bool:
    """Whether a key names a code that is a credential even when it is a number (a PIN,
    a passcode, recovery codes: ``PIN 4821``, ``passcode 482913``)."""
    parts = _parts(key)
    if not parts:
        return False
    last = parts[-1]
    if last in ("pin", "pins", "passcode", "passcodes", "pincode", "pincodes", "cvv", "cvc"):
        return True
    return last in ("code", "codes") and is_secret_label(key) is True


def code_value(value: str) -> bool:
    """Whether a value is shaped like such a code: 4 to 12 digits, or up to five groups
    of letters and digits joined by ``-`` with a digit among them (``8f3k-29dk-4mdk``)."""
    return _CODE_VALUE.fullmatch(value.rstrip(TRAILING)) is not None


_PLACEHOLDERS = frozenset(
    [
        "true",
        "false",
        "null",
        "none",
        "nil",
        "undefined",
        "yes",
        "no",
        "on",
        "off",
        "empty",
        "redacted",
        "hidden",
        "masked",
        "changeme",
        "required",
        "optional",
        "string",
        "str",
        "bool",
        "int",
        # no value written ("secret: n/a", "token: TBD", a table's "-")
        "n/a",
        "n.a.",
        "na",
        "tbd",
        "tba",
        "todo",
        "notset",
        "not_set",
        "-",
    ]
)
# A word that says what state a secret is in, not what it is ("expired", "invalid"):
# prose after a label (``_PROSE``) and, alone in quotes, no value (``_survivors``).
STATUS_WORDS = frozenset(
    [
        "expired",
        "invalid",
        "missing",
        "required",
        "revoked",
        "incorrect",
        "wrong",
        "denied",
        "rejected",
        "unknown",
        "empty",
        "malformed",
        "unauthorized",
        "forbidden",
        "blank",
        "mismatch",
        "mismatched",
        "unset",
        "not_found",
        "unavailable",
        "absent",
        "expiring",
        "failed",
    ]
)
# What a service or a protocol answers in one word of words joined by ``_`` where the
# value should be (``password=too_short``, ``token=invalid_grant``): OAuth 2.0's and
# OpenID Connect's error codes and validators' results. A closed list: a single word
# under a secret's label is kept only when it is one of these or a status word.
STATUS_JOINED = frozenset(
    [
        "too_short",
        "too_long",
        "too_weak",
        "too_common",
        "too_simple",
        "not_found",
        "not_set",
        "not_provided",
        "not_configured",
        "not_supplied",
        "not_allowed",
        "no_match",
        "invalid_format",
        "invalid_length",
        "invalid_grant",
        "invalid_token",
        "invalid_client",
        "invalid_request",
        "invalid_scope",
        "invalid_signature",
        "unauthorized_client",
        "unsupported_grant_type",
        "unsupported_response_type",
        "access_denied",
        "insufficient_scope",
        "expired_token",
        "token_expired",
        "login_required",
        "consent_required",
        "interaction_required",
        "mfa_required",
        "temporarily_unavailable",
        "server_error",
        "bad_request",
        "bad_credentials",
    ]
)
# The values of a ``status_word`` spelled as a bracketed placeholder (``(missing)``,
# ``<none>``) hold one of these.
_BRACKET_PAIRS = ("()", "<>", "[]")


def status_word(value: str) -> bool:
    """Whether ``value`` (a quote or a sentence's stop around it stripped) is one status
    word (``invalid``, ``too_short``, ``INVALID_GRANT``), a placeholder in brackets
    (``(missing)``, ``<none>``, ``[empty]``) or an empty quoted string (``""``): it says
    what state the value is in, not what it is. Lowercase, capitalised or all capitals."""
    bare = value.strip()
    if bare in _STATUS_FORMS:
        return True
    if bare[:1] not in _STATUS_OPENS and bare[-1:] not in _STATUS_CLOSES:
        return False  # (most values: one lookup and two characters)
    bare = bare.strip("`")
    if bare.replace("\\", "") in ('""', "''"):  # (``\"\"`` inside a JSON string)
        return True
    if len(bare) > 2 and bare[0] + bare[-1] in _BRACKET_PAIRS:
        inner = bare[1:-1].strip()
        return inner.lower() in _PLACEHOLDERS or _status_spelling(inner)
    return _status_spelling(bare.rstrip(TRAILING).strip("\\\"'"))


_STATUS_FORMS = frozenset(
    form
    for word in STATUS_WORDS | STATUS_JOINED
    for spelled in (word, word.replace("_", "-"))
    for form in (spelled, spelled.upper(), spelled.capitalize())
)
"""The spellings ``status_word`` keeps without quotes, brackets or a stop around them."""
_STATUS_OPENS = frozenset("\"'`([<\\")
_STATUS_CLOSES = frozenset("\"'`)]>\\.,;:!?")  # (and ``TRAILING``)


def _status_spelling(word: str) -> bool:
    if not (word.islower() or word.isupper() or (word[:1].isupper() and word[1:].islower())):
        return False
    lowered = word.lower().replace("-", "_")
    return lowered in STATUS_WORDS or lowered in STATUS_JOINED


_PROSE = STATUS_WORDS | frozenset(
    [
        # (fix22) argparse's "argument --password: expected one argument"
        "expected",
        "not",
        "must",
        "should",
        "is",
        "are",
        "was",
        "were",
        "has",
        "have",
        "had",
        "be",
        "been",
        "cannot",
        "can",
        "can't",
        "could",
        "does",
        "did",
        "do",
        "too",
        "changed",
        "reset",
        "updated",
        "set",
        "accepted",
        "verified",
        "ok",
        "failure",
        "error",
        "the",
        "a",
        "an",
        "for",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "with",
        "expires",
        "needed",
        "needs",
        "please",
        "signed",
        "logged",
        "see",
        "use",
        "check",
        "contains",
        "authentication",
        "authorization",
        "validation",
        "length",
        "stored in vault",
        "prompted",
        "ask ops",
        "stored",
        "kept",
        "managed",
        "held",
        "ask",
        "via",
        "from",
        "found",
        "configured",
        "available",
        # (fix20b) what was done to it: "secret: rotated yesterday by the on-call engineer"
        "rotated",
        "renewed",
        "revoked",
        "regenerated",
        "reissued",
    ]
)
# (fix20b) Words a note about a secret goes on with, but never starts with: when and by
# whom, as in "rotated yesterday by the on-call engineer" or "renewed every 90 days".
# Alone, such a word may be the value itself: a password of "admin" goes.
_PROSE_AFTER = frozenset(
    [
        "yesterday",
        "today",
        "tonight",
        "ago",
        "last",
        "next",
        "every",
        "each",
        "day",
        "days",
        "week",
        "weeks",
        "month",
        "months",
        "year",
        "years",
        "hour",
        "hours",
        "minutes",
        "daily",
        "weekly",
        "monthly",
        "nightly",
        "quarterly",
        "recently",
        "automatically",
        "engineer",
        "on-call",
        "oncall",
        "team",
        "admin",
        "administrator",
        "ops",
        "sre",
        "owner",
        "rotation",
        "schedule",
        "policy",
        # (fix22) argparse's own messages after a flag: "argument --password: expected
        # one argument", "expected at most one argument", "not allowed with argument -t"
        "argument",
        "arguments",
    ]
)


# A directory or file path of lowercase segments (``PWD=/srv/app``, ``pwd: ~/src/app``):
# the working directory, not a password; at least two segments, none with capitals.
_PATH = re.compile(r"(?:~|\.{1,2})?(?:/[a-z0-9._@+-]+){2,}/?|~/[a-z0-9._@+-]+/?")


# The words of what a service says about a password or token after its label ("must be
# at least 12 characters", "does not match the previous one"): after a label, a run of
# words is prose only when every word is one of these (or a small number). Any other
# word may be the secret itself ("must be Hunter2xyz", "is dragon"): the run goes.
_POLICY = frozenset(
    [
        "least",
        "most",
        "characters",
        "character",
        "chars",
        "letters",
        "letter",
        "digits",
        "digit",
        "numbers",
        "number",
        "symbols",
        "symbol",
        "special",
        "uppercase",
        "lowercase",
        "upper",
        "lower",
        "case",
        "long",
        "longer",
        "short",
        "shorter",
        "contain",
        "include",
        "includes",
        "one",
        "two",
        "three",
        "four",
        "more",
        "less",
        "than",
        "and",
        "or",
        "but",
        "no",
        "any",
        "every",
        "days",
        "day",
        "hours",
        "minutes",
        "match",
        "matches",
        "different",
        "same",
        "previous",
        "recent",
        "reuse",
        "reused",
        "allowed",
        "weak",
        "strong",
        "common",
        "very",
        "this",
        "that",
        "it",
        "its",
        "your",
        "you",
        "user",
        "account",
        "try",
        "again",
        "enter",
        "provide",
        "provided",
        "value",
        "field",
        "after",
        "before",
        "within",
        "between",
        "only",
        "also",
        "new",
        "old",
        "current",
        "confirm",
        "confirmation",
        "change",
        "rotate",
        "rotated",
        "never",
        "ever",
        "being",
        "will",
        "would",
        "may",
        "might",
        "shall",
        "yet",
        "still",
        "given",
        "supplied",
        "sent",
        "request",
        "requests",
        "from",
        "our",
        "their",
        "once",
        "twice",
        "time",
        "times",
        "ago",
        # what a service says when a session or a token ends ("please sign in again")
        "sign",
        "signed",
        "log",
        "logged",
        "out",
        "back",
        "authenticate",
        "reauthenticate",
        "re-authenticate",
        "later",
        "refresh",
        "continue",
        # the small words of a longer sentence (now read to 16 words, not 8)
        "as",
        "if",
        "so",
        "then",
        "when",
        "into",
        "all",
        "other",
        # what is missing or where the value lives ("not found in environment", "see
        # 1Password vault item", "stored in the team vault", "from AWS Secrets Manager")
        "found",
        "configured",
        "defined",
        "specified",
        "present",
        "applicable",
        "available",
        "below",
        "above",
        "docs",
        "documentation",
        "wiki",
        "environment",
        "env",
        "prompt",
        "prompted",
        "stored",
        "kept",
        "managed",
        "held",
        "via",
        "ask",
        "ops",
        "admin",
        "team",
        "shared",
        "vault",
        "item",
        "entry",
        "manager",
        "keychain",
        "keyring",
        "password",
        "secrets",
        "secret",
        "parameter",
        "store",
        # what a service says when a value is refused ("invalid format, expected 32
        # characters", "failed (bad credentials)", "rejected by browser policy", "wrong
        # code", "none set")
        "format",
        "expected",
        "bad",
        "credentials",
        "credential",
        "code",
        "browser",
        "policy",
        "none",
        "received",
        "got",
    ]
)
# Secret managers and password vaults by name, in any case ("see 1Password", "(see
# Bitwarden)", "from AWS Secrets Manager", "in Azure Key Vault"): where a secret is
# kept, not the secret.
_VAULTS = frozenset(
    [
        "1password",
        "bitwarden",
        "lastpass",
        "keepass",
        "keepassxc",
        "dashlane",
        "keeper",
        "vaultwarden",
        "hashicorp",
        "vault",
        "doppler",
        "infisical",
        "sops",
        "aws",
        "gcp",
        "azure",
        "google",
        "cloud",
        "ssm",
        "key",
        "secrets",
        "secret",
        "manager",
        "parameter",
        "store",
        "keychain",
        "kubernetes",
        "k8s",
    ]
)
# What ends a word of prose but is no part of it (a sentence's stop, a closing bracket).
TRAILING = ".,;:!?)"


_FLAG_NAME = re.compile(r"--?[a-z][a-z0-9]{0,30}(?:-[a-z0-9]{1,30}){0,5}")
"""A command-line flag's name as argparse names it in its messages (``--db-password``)."""


def prose_run(run: str) -> bool:
    """Whether the words after a label, the first of them a word of prose, are all prose
    (``must be at least 12 characters``) rather than prose steering past a secret
    (``must be ThisIsMyRealPass1``): every word known or a number of at most three
    digits, all lowercase but the first letter."""
    before = ""
    for index, word in enumerate(run.split()):
        bare = word.strip(TRAILING).lstrip("(")
        if not bare:
            continue
        after, before = before, bare
        if after in ("argument", "arguments") and _FLAG_NAME.fullmatch(bare):
            continue  # (fix22) argparse: "not allowed with argument --token"
        if bare.isdigit():
            if len(bare) > 3:
                return False
            continue
        if index == 0:
            bare = bare[:1].lower() + bare[1:]
        if (
            bare not in _PROSE
            and bare not in _POLICY
            and bare.lower() not in _VAULTS
            and (index == 0 or bare not in _PROSE_AFTER)
        ):
            return False
    return True


def names_a_vault(word: str) -> bool:
    """Whether ``word`` names a secret manager (``1Password``, ``Keeper``, ``Doppler``)."""
    return word.lower() in _VAULTS


# A record's name as caches, queues and stores key them (``orders:v2:page:3``,
# ``user:42:cart``, ``order-42``, ``order_id_v2``, ``tenant#42``): words, small numbers
# and versions joined by ``: - _ # |``, a word first; no piece mixes letters and digits
# as a random run does (``prod-7f3a9c21``, ``xq7f-9zk2``).
_RECORD_NAME = re.compile(
    r"[A-Za-z][a-z]{1,19}(?:[:\-_#|](?:[A-Za-z][a-z]{1,19}|[0-9]{1,6}|v[0-9]{1,3})){1,8}"
)


def credential_shaped(value: str) -> bool:
    """Whether a value under a key that may name a secret (``key``, ``appid``) looks like
    a credential: one word of 8 characters or more, not a path or a dotted name, with
    letters and digits or both cases (``c9e04727…``, ``Qx7pLm2R``; not ``billing``,
    ``123456789``, ``com.acme.app``)."""
    bare = value.strip("\"'")
    if len(bare) < 8 or "/" in bare or "." in bare or " " in bare or _RECORD_NAME.fullmatch(bare):
        return False
    chars = set(bare)
    if len(bare) >= 32 and chars <= _HEX:  # a key written in hex, even all digits
        return True
    lower = not chars.isdisjoint(_LOWER)
    upper = not chars.isdisjoint(_UPPER)
    return (lower and upper) or ((lower or upper) and not chars.isdisjoint(_DIGITS))


_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")
_UPPER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_DIGITS = frozenset("0123456789")
_HEX = frozenset("0123456789abcdefABCDEF")


_MASK = "*xX•.-_#="
"""What a masked value is made of (``****``, ``xxxx``, ``•••``; ``=``: base64 padding)."""


# A mask that shows a few characters of what it hides (``****1234``, ``sk_live_…abcd``,
# ``sk-...wxyz``): a provider's prefix of lowercase words, the mask, at most four
# characters; what a dashboard shows of a secret, not the secret.
_PARTIAL_MASK = re.compile(
    r"(?:[a-z]{2,8}[_\-]){0,3}(?:[*\u2022\u25cf]{3,64}|\.{3,6}|\u2026)[A-Za-z0-9]{1,4}"
)


# A reference standing for a value, whole: a variable (``$DB_PASSWORD``, ``${db_password}``,
# ``${PW:-x}``, ``%(password)s``, ``#{password}``), a template's field (``{{ db.password }}``,
# ``${{ secrets.GH_TOKEN }}``, ``{{ .Values.pw | b64enc }}``), a command's output (``$(cat
# /run/secrets/pw)``: a blank or a path in it), a placeholder's name (``<your-token>``) or a
# here-document's (``<<EOF``); or what a value cut at a bracket or a blank keeps of one
# (``$``, ``${``, ``$(cat``), or a here-string's ``<<<``. Its name is a variable's (two
# letters or more, then words in one case with at most three digits in a row, camelCase or
# PascalCase): ``$ecr3tP4ss!``,
# ``$uperS3cret2024``, ``$2b$12$…`` (a bcrypt hash) and a Django key opening with ``$``
# are values.
_NAME = (
    r"(?:[A-Z][A-Z_]+(?:[0-9]{1,3}[A-Z_]+)*[0-9]{0,3}|[a-z][a-z_]+(?:[0-9]{1,3}[a-z_]+)*[0-9]{0,3}"
    r"|[a-z]+(?:[A-Z][a-z]+)+[0-9]?|(?:[A-Z][a-z]+)+)"
)
_FIELD = rf"\.?{_NAME}(?:\.{_NAME}|\[[\"']?\w+[\"']?\]){{0,6}}"
# (A default, ``${NAME:-v}`` or ``${NAME=v}``, is a shell's only in braces: ``$NAME=v`` is a
# value, as a Django key opening ``$a_000=…`` is.)
_REFERENCE = re.compile(
    rf"\$\{{{_NAME}(?::?[-=?+][^{{}}\s]{{0,64}})?\}}|\${_NAME}"
    rf"|\$\([^()\n]{{0,200}}[ /][^()\n]{{0,200}}\)"
    rf"|%\({_NAME}\)[sdr]|#\{{{_FIELD}\}}"
    rf"|\$?\{{\{{-?[ \t]*{_FIELD}[ \t]*(?:\|[^{{}}\n]{{0,64}})?-?\}}\}}"
    rf"|<[A-Za-z]+[0-9]{{0,2}}(?:[ _\-.][A-Za-z]+[0-9]{{0,2}}){{0,6}}>"
    rf"|<<-?[ \t]*[\"']?[A-Z_]{{1,20}}[\"']?|<<<"
    rf"|(?:\$\{{?|\$\(|\$?\{{\{{-?[ \t]*\.?|%\(|#\{{|<){_NAME}?"
    # Windows' ``%NAME%``, PowerShell's ``$env:NAME`` and ``${env:NAME}``, a
    # CloudFormation intrinsic function's tag (``!Ref DbPassword``: the name follows)
    rf"|%{_NAME}%|\$(?:[Ee]nv|ENV):{_NAME}|\$\{{(?:[Ee]nv|ENV):{_NAME}\}}"
    r"|!(?:Ref|GetAtt|ImportValue|FindInMap|Select|Join|Sub|Base64|If|Split|GetAZs|Cidr)"
    # and its dynamic reference (``{{resolve:ssm-secure:DbPassword:1}}``)
    r"|\{\{resolve:[\w\-]{1,40}(?::[\w.\-/]{1,256}){1,6}\}\}"
)

_REFERENCE_STARTS = frozenset("$%#{<!")
"""The first characters of ``_REFERENCE``'s matches."""


PERCENT_FIELD = re.compile(r"%\(([A-Za-z_]\w{0,60})\)[sdr]")
"""Python's ``%(name)s`` field (its name: group 1), as a value is written in one."""


# (fix22c) Closed lists of public names: JOSE's algorithms (RFC 7518) and OAuth's client
# authentication methods (RFC 7591, OpenID Connect), the words of an OpenID discovery
# document and a JWK (``"alg": "RS256"``, ``"client_secret_basic"``).
PUBLIC_NAMES = frozenset(
    [
        *(f"{f}{n}" for f in ("HS", "RS", "ES", "PS") for n in ("256", "384", "512")),
        "ES256K",
        "EdDSA",
        "Ed25519",
        "Ed448",
        "RSA1_5",
        "RSA-OAEP",
        "RSA-OAEP-256",
        "RSA-OAEP-384",
        "RSA-OAEP-512",
        "ECDH-ES",
        "ECDH-ES+A128KW",
        "ECDH-ES+A192KW",
        "ECDH-ES+A256KW",
        *(f"A{n}{m}" for n in ("128", "192", "256") for m in ("KW", "GCMKW", "GCM")),
        "A128CBC-HS256",
        "A192CBC-HS384",
        "A256CBC-HS512",
        "PBES2-HS256+A128KW",
        "PBES2-HS384+A192KW",
        "PBES2-HS512+A256KW",
        "client_secret_basic",
        "client_secret_post",
        "client_secret_jwt",
        "private_key_jwt",
        "tls_client_auth",
        "self_signed_tls_client_auth",
    ]
)


def plausible_value(value: str, *, prose_allowed: bool) -> bool:
    """Whether a labelled value is a real value rather than a placeholder or prose."""
    bare = value.strip().strip("\"'`").strip()
    if not bare or bare.lower() in _PLACEHOLDERS or bare in PUBLIC_NAMES:
        return False
    # (each pattern asked only where what it needs is: a partial mask's ``*``, ``.`` or
    # a character beyond ASCII, a reference's first character)
    if (not bare.isascii() or "*" in bare or "." in bare) and _PARTIAL_MASK.fullmatch(bare):
        return False
    if bare[:1] in "{$#":  # quoted: ``"{{ lookup('env', 'DB_PASSWORD') }}"``, ``"${file("pw")}"``
        verdict = bracketed_verdict(bare)  # (``"${swordfish}"``: a value, not a name)
        if verdict is not None:
            return verdict
    field = PERCENT_FIELD.fullmatch(bare) if bare[:1] == "%" else None
    if field is not None and not reference_name(field[1]):  # ``%(Tr0ub4dor3)s``
        return plausible_value(field[1], prose_allowed=prose_allowed)
    if bare[0] in "[(" and bare.startswith(("[redacted:", "(redacted")):
        return False
    if bare[0] in _REFERENCE_STARTS and _REFERENCE.fullmatch(bare):
        return False
    if len(bare) > 1 and not bare.strip(_MASK):  # every character a mask's (``****``)
        return False  # (one character is no mask: ``password=x`` may be the password)
    if "/" in bare and _PATH.fullmatch(bare):
        return False
    if status_word(bare):
        return False  # ``token=invalid``, ``password=too_short``, ``Bearer (missing)``
    word = bare.rstrip(TRAILING)  # "expired." ends a sentence
    return not (prose_allowed and word.isalpha() and word.lower() in _PROSE)


# A value written inside brackets after its label: a variable (``${v}``), a command's
# output (``$(v)``), a template's field (``{{v}}``, ``${{v}}``, ``#{v}``, ``%(v)s``), a
# format field or a set (``{v}``), a list or a placeholder (``[v]``), a guillemet
# placeholder (``<<v>>``). One word in ``{}``/``[]``/``<<>>`` (a JSON object or list, a
# YAML flow sequence of names, is no such value); a command or a template may hold blanks.
BRACKETED = (
    r"\$\{[ \t]{0,3}[^{}\s]{1,256}[ \t]{0,3}\}|\$\(\([^()\r\n]{1,256}\)\)"
    r"|\$\([^()\r\n]{1,256}\)|\$\[[^\[\]\r\n]{1,256}\]|\$?\{\{[^{}\r\n]{1,256}\}\}"
    r"|#\{[^{}\s]{1,256}\}|\{[^{}\s\"',;]{0,256}\}"
    # (a passphrase: words and blanks; a quoted word; a doubled bracket)
    r"|\[[ \t]{0,3}[^\[\]\s\"',;]{1,256}(?:[ \t]{1,3}[^\[\]\s\"',;]{1,64}){0,7}[ \t]{0,3}\]"
    r"|\[[ \t]{0,3}(?:\"[^\"\\\r\n]{1,256}\"|'[^'\\\r\n]{1,256}')[ \t]{0,3}\]"
    r"|\[\[[ \t]{0,3}[^\[\]\s]{1,256}[ \t]{0,3}\]\]|\(\([^()\r\n]{1,256}\)\)"
    r"|<<[^<>\s]{1,256}>>"
)
_BRACKETED = re.compile(BRACKETED)
_OPENERS = ("${", "$(", "$[", "{{", "${{", "#{", "{", "[", "((", "<<")
_COMMAND = re.compile(r"[a-z]+(?:[_\-][a-z]+){0,4}")
_DOTTED = re.compile(rf"{_FIELD}|\$?[A-Za-z_]\w{{0,63}}(?:\.[A-Za-z_$][\w$]{{0,63}}){{1,8}}")
_NAMING = frozenset(["${", "{{", "${{", "#{", "{", "$((", "((", "$["])
_WORD = re.compile(r"\w+")
# A name has no digit inside a word; a word's last three at most, in a name of words
# joined by ``_`` (``DB1_PASSWORD``, ``var_1``): ``{A0000000}``, ``${aA000000}``,
# ``{hunter123}``, ``{AAAAA000}``, ``${AaaAa000}`` are values (so is ``{var1}``: when in
# doubt, it goes; a name naming a secret, ``{apiKey2}``, is a field: ``_names_the_secret``).
_VARIABLE_NAME = re.compile(
    r"_{0,2}[A-Za-z]+_{0,2}"
    r"|_{0,2}[A-Za-z]+[0-9]{0,3}(?:_(?:[A-Za-z]+[0-9]{0,3}|[0-9]{1,3}))+_{0,2}"
    r"|[a-z]+(?:[A-Z][a-z]+)+|(?:[A-Z][a-z]+){2,}|[0-9]{1,3}"
)
_ONE_WORD = re.compile(r"[A-Za-z]+")
_CAMEL = re.compile(r"[a-z]+(?:[A-Z][a-z]+)+|(?:[A-Z][a-z]+){2,}")
_PLACEHOLDER_WORDS = frozenset(
    [
        "value",
        "val",
        "var",
        "variable",
        "name",
        "placeholder",
        "input",
        "arg",
        "argument",
        "param",
        "parameter",
        "env",
        "field",
        "x",
        "v",
        "s",
    ]
)
"""Lowercase words a template or a format string names a field by that name no secret."""


def reference_name(name: str) -> bool:
    """Whether the one word a bracket holds (``${v}``, ``{{v}}``, ``#{v}``, ``%(v)s``) is
    a variable's or a field's name as code writes one, not a value written in its
    place: a name in capitals (``DB_PASSWORD``, ``PW``), of words joined by ``_`` or
    camel-cased (``db_password``, ``dbPassword``), with a number of at most three digits
    at a word's end (``var_1``); a single word of lowercase or title-case letters only
    when it names the secret (``password``, ``pw``) or is a placeholder's word
    (``value``, ``var``). A word of prose (``swordfish``, ``Swordfish``) or letters with
    digits inside (``Tr0ub4dor3``) is the value itself."""
    if _VARIABLE_NAME.fullmatch(name) is None:
        return _names_the_secret(name)
    if _ONE_WORD.fullmatch(name) is None or name.isupper() or _CAMEL.fullmatch(name):
        return True
    return name.lower() in _PLACEHOLDER_WORDS or _names_the_secret(name)


_OWN_PLACEHOLDER = re.compile(r"[\[(]redacted(?::[a-z\-]{1,40})?[\])]", re.IGNORECASE)


def _inner(value: str) -> tuple[str, str]:
    """The opener of a bracketed value (one of ``_OPENERS``) and what it holds."""
    if value.startswith("${{"):
        return "${{", value[3:-2]
    for opener, closer in (
        *(("$((", 2), ("${", 1), ("$(", 1), ("$[", 1), ("{{", 2), ("#{", 1)),
        *(("<<", 2), ("[[", 2), ("((", 2)),
    ):
        if value.startswith(opener):
            return opener, value[len(opener) : -closer]
    return value[0], value[1:-1]


def _names_the_secret(inner: str) -> bool:
    """Whether a bracket's one word names what stands there rather than being it
    (``[PASSWORD]``, ``<<your-api-key>>``, ``{db_password}``, ``[secret token]``)."""
    words = re.split(r"[\s\-_.]+", inner.strip(" *"))
    return (
        bool(inner)
        and not any(c.isdigit() for c in inner)
        and len(words) <= 6
        and all(w.isalpha() for w in words if w)
        and any(is_secret_label(w) is True for w in words if w)
    )


# A template's default written as a literal (Helm's ``| default "v"``, Jinja's
# ``| default('v')``): the value wherever the field is unset.
_TEMPLATE_DEFAULT = re.compile(
    r"(?:\|[ \t]{0,3}|\A)default[ \t]{0,3}\(?[ \t]{0,3}([\"'])([^\"'\r\n]{1,256})\1"
)
# Shell arithmetic (``$((a + 1))``, ``((n++))``, ``$[n*2]``): names and numbers summed.
_ARITHMETIC = frozenset(["$((", "((", "$["])
_SUM = re.compile(r"[\w \t]{1,128}(?:[+\-*/%<>=!&|^]{1,3}[\w \t]{1,128}){1,8}")
_SUMMED = re.compile(rf"{_NAME}|[A-Za-z]|[0-9]{{1,3}}")  # a name as code spells one, a number
# The commands whose output is their arguments (``$(echo v)``, ``$(printf v)``).
_ECHOES = frozenset(["echo", "printf"])
# The last words of a label naming a password, whose value may be a passphrase.
PHRASE_HEADS = ("password", "passwd", "passphrase", "pass", "pwd", "pw")
# Words that say a bracket holds no value but a note about it (``[not set]``, ``[value
# here]``, ``[see vault]``): a passphrase holds none of them.
_NOTE_WORDS = frozenset(
    [
        *("here", "your", "value", "fill", "filled", "enter", "insert", "set", "unset"),
        *("hidden", "masked", "removed", "omitted", "redacted", "placeholder", "example"),
        *("sample", "dummy", "todo", "tbd", "not", "see", "vault", "stored", "env", "from"),
        *("replace", "changeme", "none", "empty", "same", "above", "below", "secret", "secrets"),
        *("environment", "variable", "file", "default", "generated", "random", "elided", "snip"),
    ]
)


# A function called on names and quoted names or paths (Terraform's ``file("pw.txt")``,
# Ansible's ``lookup('env', 'DB_PASSWORD')``), in a template or an interpolation.
_ARG = r"(?:\"[^\"\\\r\n]{0,200}\"|'[^'\\\r\n]{0,200}'|[A-Za-z_][\w.]{0,63})"
_CALL = re.compile(  # (arguments apart by commas: one way to read them)
    rf"[A-Za-z_][\w.]{{0,63}}\([ \t]{{0,3}}(?:{_ARG}(?:[ \t]{{0,3}},[ \t]{{0,3}}{_ARG}){{0,5}})?"
    r"[ \t]{0,3}\)(?:[ \t]{0,3}\|[^{}\r\n]{0,64})?"
)
_QUOTED_ARG = re.compile(r"\"([^\"\\\r\n]{0,200})\"|'([^'\\\r\n]{0,200})'")


def _names_a_source(inner: str) -> bool:
    """Whether a bracket holds a function call whose quoted arguments name where the
    value is (a variable's name, a path, a key), none shaped as a credential."""
    if _CALL.fullmatch(inner) is None:
        return False
    return not any(
        credential_shaped(a or b) and _VARIABLE_NAME.fullmatch(a or b) is None
        for a, b in _QUOTED_ARG.findall(inner)
    )


def _echoed_literal(args: list[str]) -> bool:
    """Whether the arguments of ``echo``/``printf`` in ``$(…)`` are a literal (flags
    aside): the command's output is the value (``$(echo -n 'S3cr3tPass!')``); a
    variable, a command or a file read in them (``$(echo $PW)``, ``$(printf '%s' "$PW")``)
    is a reference."""
    words = [w for w in args if not (w.startswith("-") and w[1:].isalpha())]
    if not words or any(c in w for w in words for c in "$`<|;&"):
        return False
    literal = " ".join(words).strip("\"'")
    return bool(literal.strip()) and plausible_value(literal, prose_allowed=False)


def _passphrase(words: list[str]) -> bool:
    """Whether the words in brackets are a passphrase (``[hunter two words]``, ``[hunter
    2x]``: words of letters, or of letters and digits, one of letters at least; not
    prose, no note: ``[min 8 chars]`` is none)."""
    bare = [w.strip(".,;:!?").lower() for w in words]
    return (
        len(bare) <= 8
        and all(w.isascii() and (w.isalpha() or (w.isalnum() and not w.isdigit())) for w in bare)
        and any(w.isalpha() for w in bare)
        and _NOTE_WORDS.isdisjoint(bare)
        and not prose_run(" ".join(bare))
    )


def literal_before_reference(text: str, start: int, end: int) -> int:
    """(leak21) Where the literal ends in a quoted value ``text[start:end]`` that is a
    literal glued before one reference (``"Tr0ub4dor3${DB_PASSWORD}"``,
    ``'hunter2%(x)s'``, ``"pw{{ .Values.pw }}"``, ``"pw#{db.pw}"``): at the reference's
    sigil, so the literal goes and the reference stays, as the value's end does for an
    unquoted value (``_detectors._reference_at``). Only a reference that
    ``bracketed_verdict`` (or ``reference_name``) reads as one, ending the value, with a
    literal before it; else ``end``."""
    last = text[end - 1]
    if last in "sdr" and text[end - 2 : end - 1] == ")":
        at = text.rfind("%(", start, end)
        if at <= start:
            return end
        field = PERCENT_FIELD.fullmatch(text, at, end)
        return at if field is not None and reference_name(field[1]) else end
    if last != "}":
        return end
    at = max(text.rfind("${", start, end), text.rfind("#{", start, end))
    doubled = text.rfind("{{", start, end)
    if doubled > start and text[doubled - 1] == "$":
        doubled -= 1
    at = max(at, doubled)
    if at <= start or text[at - 1].isspace():
        return end
    if _BRACKETED.fullmatch(text, at, end) is None:
        return end
    return at if bracketed_verdict(text[at:end]) is False else end


# (fix20b) Cookies that set how a page is shown (``theme=dark``, ``lang=en``): a
# preference's name, and its value, a word, a capitalised word or a language's code
# (case matters: not mixed-case random letters).
PREFERENCE_NAME = (
    r"theme|lang|language|locale|tz|timezone|currency|country|region|dark_mode|darkmode|"
    r"color_scheme|font_size|layout|view|sort"
)
PREFERENCE_VALUE = r"(?:[a-z]{1,16}|[A-Z][a-z]{1,15}|[A-Z]{2,4}|[a-z]{2}[-_][A-Za-z]{2})"
_PREFERENCE_PAIR = re.compile(rf"(?i:{PREFERENCE_NAME})={PREFERENCE_VALUE}")
_COOKIE_NAME = r"[!#$%&*+\-.^_|~\w]{1,128}"
_COOKIE_STRING = re.compile(
    rf"{_COOKIE_NAME}=[^;\s\"',]{{0,4096}}"
    rf"(?:;[ \t]{{0,3}}{_COOKIE_NAME}=[^;\s\"',]{{0,4096}}){{1,31}};?"
)
_COOKIE_PAIR = re.compile(rf"[ \t]{{0,3}}{_COOKIE_NAME}=([^;\s\"',]{{0,4096}})")


def cookie_values(
    text: str, start: int, end: int
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]] | None:
    """(leak21) The values to redact in ``text[start:end]`` when it is a cookie string
    (``sid=v; theme=dark``) of two pairs or more, one of them a display preference: each
    other pair's value (``sid=[redacted]; theme=dark``: only the secret goes, the names
    and the preferences stay), and the preferences' spans (kept); ``None`` when it is no
    such string (it goes as found)."""
    if _COOKIE_STRING.fullmatch(text, start, end) is None:
        return None
    values: list[tuple[int, int]] = []
    kept: list[tuple[int, int]] = []
    at = start
    while at < end:
        pair = _COOKIE_PAIR.match(text, at, end)
        if pair is None:
            return None
        begin = pair.start() + len(pair.group()) - len(pair.group().lstrip(" \t"))
        if _PREFERENCE_PAIR.fullmatch(text, begin, pair.end()):
            kept.append((begin, pair.end()))
        elif pair.end(1) > pair.start(1):
            values.append(pair.span(1))
        at = pair.end() + 1  # past its ``;``
    return (values, kept) if kept else None


@functools.lru_cache(maxsize=4096)  # a text repeats its values
def bracketed_verdict(value: str, *, bare_key: bool = False, phrase: bool = False) -> bool | None:
    """Whether a labelled value written inside brackets (``BRACKETED``) is a secret, by
    what the brackets hold; ``None`` when ``value`` is no such value.

    A reference is read, not redacted: a variable or a template's field named as code
    names one (``${DB_PASSWORD}``, ``{{ .Values.password }}``, ``%(password)s``,
    ``#{db.password}``), a command with arguments or a path, or one command's name of
    letters (``$(cat /run/secrets/pw)``, ``$(get_password)``), a format field named as
    code or by a secret's word (``{password}``, ``{db_password}``, ``{0}``), a
    placeholder (``[redacted]``, ``[REDACTED]``, ``<<PASSWORD>>``, ``[****]``). Anything
    else the brackets hold is judged as the value itself (``[hunter2x]``,
    ``{Tr0ub4dor3}``, ``{{Tr0ub4dor3}}``, ``${Tr0ub4dor&3}``, ``$(Tr0ub4dor3)``,
    ``<<Tr0ub4dor3>>``): after a bare ``key`` (``bare_key``) only a credential's shape
    counts. A template holding several words is a secret when one of them reads as a
    token (``{{ "Tr0ub4dor3" }}``); under a label naming a password (``phrase``), words in
    square brackets that are no note are a passphrase (``[hunter two words]``)."""
    if len(value) < 2 or not value.startswith(_OPENERS) or not _BRACKETED.fullmatch(value):
        return None
    opener, inner = _inner(value)
    inner = inner.strip(" \t")
    if opener in ("{{", "${{"):
        inner = inner.strip("-").strip(" \t")  # ``{{- v -}}``
    if opener == "$(" and inner and inner.split(None, 1)[0] in _ECHOES:
        return _echoed_literal(inner.split()[1:])  # ``$(echo v)``: the literal is the value
    if (
        opener in _ARITHMETIC
        and _SUM.fullmatch(inner)
        and all(_SUMMED.fullmatch(w) for w in _WORD.findall(inner))
    ):
        return False  # ``$((RETRIES + 1))``: a sum of names and small numbers
    if opener in _NAMING and _WORD.fullmatch(inner):
        # one word: a variable's or a field's name, or the value written in its place
        # (``${hunter2x}``, ``{{Pa55w0rd}}``: a name has no digit inside a word)
        if reference_name(inner):
            return False
    elif opener in ("{{", "${{") and (literal := _TEMPLATE_DEFAULT.search(inner)) is not None:
        # Helm: ``{{ .Values.pw | default "v" }}``, ``{{ default "v" .Values.pw }}``
        return plausible_value(literal.group(2), prose_allowed=False)
    elif _REFERENCE.fullmatch(value) or _OWN_PLACEHOLDER.fullmatch(value):
        return False
    elif opener in _NAMING and _names_a_source(inner):
        return False  # a function reading it: ``${file("pw.txt")}``, ``{{ lookup('env', 'PW') }}``
    elif opener in _NAMING and _DOTTED.fullmatch(inner):
        return False  # a member read: ``${process.env.API_KEY}``, ``#{db.password}``
    if opener == "$(" and _COMMAND.fullmatch(inner):
        return False  # one command's name (``$(pwgen)``)
    if opener == "{" and (not inner or "." in inner.strip(".")):
        return False  # a format field: ``{}``, ``{cfg.pw}``
    if _names_the_secret(inner) or (opener in ("[", "<<") and not inner.strip(_MASK)):
        return False
    words = inner.split()
    if phrase and len(words) > 1 and opener in ("[", "((") and _passphrase(words):
        return True  # ``[hunter two words]``, ``[ correct horse battery staple ]``
    if len(words) > 1:
        return any(
            credential_shaped(w.strip("\"'`()|,")) and _REFERENCE.fullmatch(w) is None
            for w in words
        )
    bare = inner.strip("\"'`")
    if not bare or _REFERENCE.fullmatch(bare):
        return False
    if bare_key:
        return credential_shaped(bare)
    return plausible_value(bare, prose_allowed=False)


# Authorization schemes (RFC 7235's registry and common vendor ones) after which the
# rest of the line is the credential, as after ``Authorization:``.
AUTH_SCHEMES = frozenset(
    [
        "basic",
        "bearer",
        "digest",
        "dpop",
        "gnap",
        "hoba",
        "mutual",
        "negotiate",
        "ntlm",
        "kerberos",
        "oauth",
        "privatetoken",
        "scram-sha-1",
        "scram-sha-256",
        "vapid",
        "token",
        "bot",
        "ssws",
        "apikey",
        "api-key",
        "key",
        "hmac",
        "signature",
        "aws4-hmac-sha256",
        "goog4-hmac-sha256",
        "sharedkey",
        "sharedkeylite",
    ]
)

_PLAIN = re.compile(
    r"(?:[A-Za-z][a-z]*|[A-Z]+(?:_[A-Z0-9]+)*|[a-z]+(?:[_-](?:[a-z]+[0-9]{0,3}|[0-9]+))*"
    r"|[vV]?[0-9]{1,4}(?:[.:/\-][0-9]+)*|[0-9]+(?:[.:/\-][0-9]+)+"
    r"|[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9:.]{1,20}(?:Z|[+\-][0-9:]{2,5})?)[.,;!?]?"
)


def plain_run(run: str) -> bool:
    """Whether a run of token characters at the start of a line reads as that line's own
    text rather than the rest of a token wrapped over the break: a word (``never``,
    ``Revoked``, ``NOT``), an identifier (``next_row``, ``DB_HOST``; not a run of hex
    groups such as ``afc-5ad2-545cad3a4a68``), a number, a date,
    a time stamp, a version, or a key line (``DB_HOST=localhost``, ``status:``; not
    base64 padding ``Zx8==``)."""
    return _PLAIN.fullmatch(run) is not None or _KEY.match(run) is not None


_KEY = re.compile(r"[A-Za-z_][\w.\-]{0,79}[ \t]{0,5}(?:[:\uff1a]|=(?!=|\Z))")


def line_rest(value: str, run: str) -> bool:
    """Whether ``run``, the whole next line after a labelled ``value`` that ended its
    line, is the rest of that value wrapped over the break: hex after hex, else (after
    any value, a value of hex digits included: ``abc12345`` then ``defgh67890``) a run
    that is not the line's own text (``plain_run``), a URL or a path; after a value under
    8 characters, only a run that looks like a credential itself (``Xy7pQ2`` then
    ``mN8rT4vB9kLw``)."""
    if set(value) <= _HEX and len(value) >= 8 and set(run) <= _HEX:
        return True
    if _own_line(run):
        return False
    long_enough = len(value) >= 8 or credential_shaped(run) or _token_piece(run)
    return long_enough and plausible_value(value, prose_allowed=False)


# What a line of its own is made of when it is no word: a number and its unit (``42ms``,
# ``3.5s``, ``100%``) and a word or number marked up (``[INFO]``, ``(none)``, ``#1234``,
# ``**bold**``, ``OK!!``).
_UNIT = re.compile(r"[0-9]+(?:[.,][0-9]+)?[A-Za-z%\u00b5]{0,4}")


def _token_piece(run: str) -> bool:
    """Whether a short run on the line after a short value is the rest of a token
    (``abc123`` then ``QUJDZA==``, ``Xy7`` then ``pQ!@x``): letters with a digit or a
    symbol of a token (``= + / ! @ # $ % ^ & * ~``), or both cases; not a number and
    its unit or a word or number marked up."""
    core = run.lstrip("([{#").rstrip(")]}.,;:!?")
    emphasis = len(core) - len(core.lstrip("*_~`"))
    if emphasis:  # ``**bold**``: the same marks on both sides
        core = core[emphasis:-emphasis] if core.endswith(core[:emphasis]) else core
    if not core or _UNIT.fullmatch(core) or plain_run(core):
        return False
    chars = set(run)
    letters = not chars.isdisjoint(_LOWER) or not chars.isdisjoint(_UPPER)
    return letters and (
        not chars.isdisjoint(_TOKEN_SYMBOLS)
        or not chars.isdisjoint(_DIGITS)
        or (not chars.isdisjoint(_LOWER) and not chars.isdisjoint(_UPPER))
    )


_TOKEN_SYMBOLS = frozenset("=+/!@#$%^&*~")


def _own_line(run: str) -> bool:
    return (
        plain_run(run)
        or "://" in run
        or run[:1] == "/"
        or marks_only(run)
        or _OWN_START.fullmatch(run) is not None
    )


# A next line's run that is its line's own text whatever token came before the break
# (fix21b): a section or a word in brackets (``[production]``, ``(none)``), a flag of a
# command line (``--region``, ``-v``), a path of lower-case names (``/etc/acme/app.conf``:
# wrapped base64 has no ``.`` and is seldom all lower case over two ``/``).
_OWN_START = re.compile(
    r"\[[\w.\- ]{1,80}\]|\([\w.\- ]{1,80}\)"
    r"|-{1,2}[A-Za-z][a-z]{0,30}(?:-[a-z]{1,30}){0,6}"
    # (each segment read once: its class has no ``/``; a letter is asked apart)
    r"|(?=/[0-9_.\-/]{0,160}[a-z])(?:/[a-z0-9_.\-]{1,160}){2,16}/?"
)
# What follows a next line's run that makes it that line's own text: a key's separator
# after blanks (``oauth2.client.clientId = acme-web``).
_OWN_KEY_AFTER = re.compile(r"[ \t]{1,40}(?:[:\uff1a]|=(?!=))")
# Blanks and more text on the same line, after a run of hex digits (``cafebabe1234 is the
# build id``, a digest then its file name): an id or a digest that starts its own line,
# unless the token before the break is hex too (hex wrapped after hex).
_KEBAB = re.compile(r"[a-z]{1,30}(?:-[a-z]{1,30}){1,8}")
_MORE_ON_LINE = re.compile(r"[ \t]{1,40}[^\s\\]")
_HEX_RUN = re.compile(r"[0-9a-f]{8,4096}|[0-9A-F]{8,4096}")


def own_line(text: str, run: str, end: int, before: str) -> bool:
    """Whether ``run``, a run of token characters that starts the line after a break and
    stops at ``end`` in ``text``, is that line's own text rather than the rest of
    ``before`` (the token that ends the line before) wrapped over the break: a word, a
    key (``name = v`` too), a line of marks, a flag, a section, a path, or a run of hex
    with more text after it on its line; or the run before the break is words itself."""
    if plain_run(run) or marks_only(run) or _OWN_START.fullmatch(run) is not None:
        return True
    if before and _KEBAB.fullmatch(before):
        return True  # words before the break (``auth print-access-token`` then ``ya29.…``)
    if _OWN_KEY_AFTER.match(text, end) is not None:
        return True
    return (
        _HEX_RUN.fullmatch(run) is not None
        and _HEX_RUN.fullmatch(before) is None
        and _MORE_ON_LINE.match(text, end) is not None
    )


_LETTER_OR_DIGIT = re.compile(r"[^\W_]")


def marks_only(run: str) -> bool:
    """Whether ``run`` holds no letter and no digit (``...``, ``---``, ``***``, ``___``):
    a line of marks is a line of its own (an elision, a rule), never a token's rest."""
    return _LETTER_OR_DIGIT.search(run) is None


def never_rest(run: str) -> bool:
    """Whether ``line_rest(value, run)`` is false whatever the value: ``run`` is its
    line's own text, and not all hex (which only a hex value could take)."""
    return _own_line(run) and not set(run) <= _HEX


# A sentence about paging: a cursor named in it ("Use token v for the next page", "pass
# cursor v to continue", "next page: token=v") is the position the model needs to ask for
# more, not a credential.
_PAGING_PROSE = re.compile(
    r"\bnext[ \t](?:page|batch|set|results?)\b|\bmore[ \t](?:results|items|records|rows|"
    r"entries|pages|data)\b|\bto[ \t]continue\b|\bcontinu(?:e|ation|ing)\b|\bpaginat|"
    r"\b(?:page|paging|sync|resume|resumption|scroll)[ \t]token\b|\bcursor\b|"
    r"\b(?:previous|following)[ \t]page\b",
    re.IGNORECASE,
)
_CLAUSE_ENDS = re.compile(r"[;!?\r\n]|\.(?:[ \t]|\Z)|\\[nr]")
_CLAUSE = 120


def paging_prose(text: str, start: int, end: int) -> bool:
    """Whether the clause holding ``text[start:end]`` (a label and its value) speaks of
    paging: it ends at ``; ! ?``, a line break or a full stop, and reads at most 120
    characters either side ("session token v; next page" is two clauses)."""
    if not speaks_of_paging(text):
        return False
    before = text[max(0, start - _CLAUSE) : start]
    ends = [m.end() for m in _CLAUSE_ENDS.finditer(before)]
    head = before[ends[-1] :] if ends else before
    after = text[end : end + _CLAUSE]
    stop = _CLAUSE_ENDS.search(after)
    tail = after[: stop.start()] if stop else after
    return _PAGING_PROSE.search(head) is not None or _PAGING_PROSE.search(tail) is not None


def speaks_of_paging(text: str) -> bool:
    """Whether ``text`` holds any of the words of paging (one scan in C per text: its
    labels and cursors share the answer)."""
    global _PAGING_SEEN
    seen = _PAGING_SEEN
    if seen[0] is not text:
        seen = _PAGING_SEEN = (text, _PAGING_PROSE.search(text) is not None)
    return seen[1]


_PAGING_SEEN: tuple[str, bool] = ("", False)
"""The last text ``speaks_of_paging`` read, and its answer (a tuple: read and replaced
whole, so threads never see half of one)."""


FLAG_ENDS: tuple[str, ...] = ("password", "passwd", "passphrase", "pass", "pwd", "token")
FLAG_ENDS += ("secret", "api-key", "api_key", "apikey", "access-key", "secret-key", "auth")
"""The last words of a flag whose argument is the secret itself (``--password v``,
``--api-key v``; not ``--passphrase-fd 0``, ``--token-file f``)."""

_FLAG_BEFORE = re.compile(r"(?:^|(?<=[\s'\"]))(--?[A-Za-z][\w.\-]{0,60})[ \t]+\Z")


def after_secret_flag(text: str, at: int) -> bool:
    """Whether ``text[at:]`` is the argument of a flag naming a secret (``--password
    A0000aPW=0Aa``): its whole argument is the value, a key's shape inside it too."""
    m = _FLAG_BEFORE.search(text, max(0, at - 72), at)
    if m is None:
        return False
    flag = m.group(1)
    return flag.lower().endswith(FLAG_ENDS) and is_secret_label(flag.lstrip("-")) is True
