"""What a secret's label may be followed by that is no secret: a quoted sentence about
the field, and a template's or a format string's reference to the value.

A quoted value after a label is read as a secret (a passphrase of several words,
``"correct horse battery staple"``, is one), unless it is a sentence about the field:
every word one a service writes about a password or token (``prose_run``) and at least
one word saying what is wrong with it or that it is missing (``not``, ``must``,
``required``, ``invalid``, ``expired``, ``too``, ``short``, ``found``: ``"not found"``,
``"must be at least 12 characters"``, ``"This field is required."``), or one such
status word alone (``"invalid"``, ``"expired"``).

A template or a format string names the value it will hold; it does not hold it: a
Helm, Jinja or Liquid pipeline's filter (``{{ .Values.pw | b64enc }}``: ``b64enc`` is a
function, not the value of ``pw``), a Python format field (``%(password)s``,
``{password}``, ``{0}``, ``{}``) and a printf conversion (``%s``). A format field's
name must name a secret itself (``{password}``, ``{db_pw}``) or be a position: a word
in braces that names nothing (``{hunter2}``) is judged as any value is.
"""

from __future__ import annotations

import re

from toolhygiene._labels import (
    STATUS_WORDS,
    TRAILING,
    is_secret_label,
    names_a_vault,
    prose_run,
    reference_name,
)

__all__ = ["format_reference", "format_value", "quoted_prose", "template_filter"]

# One word alone in quotes that says what state the value is in, not what it is.
_STATUS = STATUS_WORDS | frozenset(
    [
        "weak",
        "disabled",
        "locked",
        "unchanged",
    ]
)
# The words that make a run of prose words a sentence about the field (what is wrong
# with it, what it must be, that it is missing): "it is a secret" has none and goes.
_MARKS = _STATUS | frozenset(
    [
        "not",
        "must",
        "cannot",
        "can't",
        "too",
        "short",
        "long",
        "characters",
        "match",
        "matches",
        "found",
        "configured",
        "provided",
        "supplied",
        "allowed",
        "needed",
        "expires",
        "contain",
        "least",
        # (a framework's validation message: "This password is entirely numeric.",
        # "Token is blacklisted", "Please enter your password", "reset link sent")
        "numeric",
        "common",
        "blacklisted",
        "enter",
        "ensure",
        "minimum",
        "maximum",
        "changed",
        "sent",
        "didn't",
        "doesn't",
        "don't",
        "isn't",
    ]
)
_WORDS = 16
# A password-strength meter's verdict, the whole value ("weak" is a status word): no word
# of it marks a message, as "very strong password" is a passphrase.
_VERDICTS = frozenset(["strong", "medium", "moderate", "very weak", "very strong", "too weak"])


# The words of a validation or error message that ``prose_run`` does not know: the field
# it names ("Passwords do not match", "Invalid API key provided", "Signature has
# expired.") and the rest of a framework's sentence ("Ensure this field has at least 8
# characters.", "String should have at least 12 characters", "is too short (minimum is 8
# characters)"). Only in a message with a word of ``_MARKS``, each word in lowercase but
# a sentence's first letter: "Must Be Strong" and "correct horse battery staple" go.
_MESSAGE = frozenset(
    [
        "password",
        "passwords",
        "passphrase",
        "token",
        "tokens",
        "key",
        "keys",
        "api",
        "signature",
        "session",
        "secret",
        "credentials",
        "field",
        "fields",
        "string",
        "link",
        "ensure",
        "entirely",
        "numeric",
        "blacklisted",
        "minimum",
        "maximum",
        "successfully",
        "didn't",
        "doesn't",
        "don't",
        "isn't",
        "wasn't",
        "won't",
        "again",
        "it",
        "enter",
        "sent",
        "been",
        "unchanged",
        # (a pointer to where the value is kept: "See the vault", "see 1Password")
        "see",
        "ask",
        "stored",
        "kept",
    ]
)
# A word in capitals that names the field ("Invalid API key provided", "JWT expired").
_ACRONYMS = frozenset(["API", "JWT", "ID", "PIN", "OTP", "MFA", "2FA"])
_ENDS = ".!?"


def _message_word(word: str, opens: bool) -> bool:
    """Whether ``word`` (its stops and brackets kept) is a word of a validation message;
    ``opens`` when it begins a sentence (its first letter may be a capital)."""
    bare = word.strip(TRAILING).lstrip("(").replace("\u2019", "'")
    if not bare or bare in _ACRONYMS:
        return True
    if opens:
        bare = bare[:1].lower() + bare[1:]
    if bare != bare.lower():
        return False  # (``prose_run`` reads a word alone as a sentence's first)
    return bare in _MESSAGE or prose_run(bare)


def _message(words: list[str]) -> bool:
    """Whether ``words`` are a sentence of a validation message: each word one of
    ``_message_word``'s, a capital only where a sentence opens."""
    opens = True
    for word in words:
        if not _message_word(word, opens):
            return False
        opens = word.rstrip(")\"'").endswith(tuple(_ENDS))
    return True


def quoted_prose(value: str) -> bool:
    """Whether a quoted value after a secret's label (``"not found"``, quotes and their
    escapes included) is a sentence about the field rather than a passphrase."""
    bare = value.strip().lstrip("\\").strip("\"'").rstrip("\\").strip()
    words = bare.split()
    if not words or len(words) > _WORDS:
        return False
    if bare.rstrip(TRAILING).lower() in _VERDICTS:
        return True
    if len(words) == 1:
        return words[0].strip(TRAILING + "(").lower() in _STATUS
    if _pointer(words) or _foreign_message(words):
        return True
    marked = any(
        w.strip(TRAILING).lstrip("(").replace("\u2019", "'").lower() in _MARKS for w in words
    )
    return marked and (prose_run(bare) or _message(words))


# A sentence that says where the value is kept instead of giving it: "See the vault",
# "see 1Password", "Ask the admin", "stored in Vault": a pointing word first, then only
# determiners, "in", and a secret manager's or a person's word.
_POINTING = frozenset(["see", "ask", "stored", "kept", "check"])
_LINKS = frozenset(["the", "in", "our", "your"])
_KEEPERS = frozenset(["team", "admin", "administrator", "ops"])


def _pointer(words: list[str]) -> bool:
    """Whether ``words`` point to where the value is kept (``See the vault``)."""
    if words[0].lower() not in _POINTING or len(words) > 5:
        return False
    rest = [w.strip(TRAILING).lower() for w in words[1:]]
    named = [w for w in rest if w not in _LINKS]
    return bool(named) and all(w in _KEEPERS or names_a_vault(w) for w in named)


# Validation messages in French, German, Spanish, Portuguese and Italian ("doit contenir
# au moins 8 caractères", "muss mindestens 8 Zeichen lang sein", "debe tener al menos 8
# caracteres"): each word as written (German nouns keep their capital), a number of at
# most three digits, at least three words and one that says what is wrong (``_FOREIGN_MARKS``).
# A passphrase of these words alone is not told apart; it is judged a message.
_FOREIGN_MARKS = frozenset(
    [
        "doit",
        "moins",
        "trop",
        "obligatoire",
        "requis",
        "requise",
        "invalide",
        "incorrect",
        "incorrecte",
        "vide",
        "expiré",
        "faible",
        "contenir",
        "muss",
        "mindestens",
        "höchstens",
        "zu",
        "kurz",
        "ungültig",
        "erforderlich",
        "nicht",
        "leer",
        "abgelaufen",
        "schwach",
        "enthalten",
        "debe",
        "menos",
        "demasiado",
        "obligatoria",
        "obligatorio",
        "requerida",
        "requerido",
        "inválida",
        "inválido",
        "incorrecta",
        "vacío",
        "vacía",
        "débil",
        "contener",
        "deve",
        "pelo",
        "muito",
        "obrigatória",
        "obrigatório",
        "não",
        "conter",
        "almeno",
        "troppo",
        "obbligatoria",
        "obbligatorio",
        "non",
        "valida",
        "contenere",
    ]
)
_FOREIGN = _FOREIGN_MARKS | frozenset(
    [
        "au",
        "le",
        "la",
        "les",
        "mot",
        "de",
        "passe",
        "est",
        "court",
        "courte",
        "long",
        "longue",
        "ce",
        "champ",
        "ne",
        "pas",
        "correspondent",
        "correspond",
        "un",
        "une",
        "chiffre",
        "lettre",
        "majuscule",
        "minuscule",
        "plus",
        "être",
        "et",
        "des",
        "du",
        "caractère",
        "caractères",
        "votre",
        "lang",
        "sein",
        "das",
        "der",
        "die",
        "Passwort",
        "Kennwort",
        "ist",
        "eine",
        "einen",
        "Ziffer",
        "Zeichen",
        "Großbuchstaben",
        "Kleinbuchstaben",
        "Sonderzeichen",
        "Buchstaben",
        "Feld",
        "dieses",
        "darf",
        "stimmen",
        "überein",
        "und",
        "mit",
        "Ihr",
        "tener",
        "al",
        "el",
        "contraseña",
        "es",
        "corta",
        "corto",
        "no",
        "coinciden",
        "coincide",
        "número",
        "letra",
        "mayúscula",
        "minúscula",
        "campo",
        "este",
        "y",
        "más",
        "ser",
        "caracteres",
        "carácter",
        "su",
        "ter",
        "senha",
        "é",
        "curta",
        "campo",
        "este",
        "um",
        "uma",
        "letra",
        "e",
        "contenere",
        "caratteri",
        "è",
        "corta",
    ]
)


def _foreign_message(words: list[str]) -> bool:
    """Whether ``words`` are a validation message in one of ``_FOREIGN``'s languages."""
    if len(words) < 3:
        return False
    marked = False
    for index, word in enumerate(words):
        bare = word.strip(TRAILING).replace("\u2019", "'")
        if bare.isdigit():
            if len(bare) > 3:
                return False
            continue
        if bare not in _FOREIGN and not (index == 0 and bare[:1].lower() + bare[1:] in _FOREIGN):
            return False
        marked = marked or bare in _FOREIGN_MARKS or bare.lower() in _FOREIGN_MARKS
    return marked


# After a label inside a template's expression, a pipeline's next filter: ``{{`` (and a
# trim mark) before the label on its line, the filter a function's name, ``}}`` after it.
_OPENED = re.compile(r"\{\{-?[^{}\n]{0,200}\Z")
# (A function's name: words in lowercase, joined by ``_`` or in camel case, a number of
# at most three digits inside: ``b64enc``, ``sha256sum``, ``toYaml``, ``to_json``; not a
# token such as ``Xy7pQ2mN8rT4``.)
_FILTER = re.compile(
    r"[a-z]{1,20}(?:_[a-z]{1,20}|[A-Z][a-z]{1,20}){0,4}(?:[0-9]{1,3}[a-z]{0,20})?\Z"
)
_CLOSED = re.compile(r"[^{}\n]{0,200}\}\}")


def template_filter(text: str, key_at: int, value: str, end: int) -> bool:
    """Whether ``value`` after ``|`` is a filter of the template expression holding the
    label at ``key_at`` (``{{ .Values.pw | b64enc }}``, ``{{ password | b64encode }}``)."""
    return (
        _FILTER.match(value) is not None
        and _OPENED.search(text, max(0, key_at - 200), key_at) is not None
        and _CLOSED.match(text, end) is not None
    )


# A format string's field for the value: Python's ``%(name)s``, ``str.format``'s
# ``{name}``, ``{name!r}``, ``{name:>10}``, ``{0}``, ``{}``, and a printf conversion.
_PERCENT = re.compile(r"%\((?P<name>[A-Za-z_][\w.]{0,60})\)[-#0 +]{0,4}[0-9]{0,3}[sdrfiuxXq]")
_BRACES = re.compile(
    r"\{(?P<name>[A-Za-z_][\w.]{0,60}(?:\[[\w'\"]{1,40}\])?|[0-9]{0,2})(?:![rsa])?"
    r"(?::[^{}\s]{0,20})?\}"
)
_PRINTF = re.compile(r"%[-#0 +]{0,4}[0-9]{0,3}(?:\.[0-9]{1,3})?[sdrvq]|%[+#]v")


def format_reference(text: str, start: int) -> int:
    """Where a format string's field for a value ends, when one starts at ``start``
    (``%(password)s``, ``{password}``, ``{0}``, ``%s``) and stands alone (a blank, a
    quote, a stop or the end after it); else ``-1``. A named field counts only when its
    name names a secret (``{password}``, ``%(db_pw)s``): ``{hunter2}`` is a value."""
    for pattern in (_PERCENT, _BRACES, _PRINTF):
        m = pattern.match(text, start)
        if m is None:
            continue
        after = text[m.end() : m.end() + 1]
        if after and not (after.isspace() or after in "\"'`,;.)]}&|"):
            return -1
        name = m.group("name").split("[")[0].rpartition(".")[2] if pattern is not _PRINTF else ""
        if pattern is _BRACES:
            if name and not name.isdigit() and is_secret_label(name) is not True:
                return -1
        elif name and not reference_name(name):  # ``%(Tr0ub4dor3)s``: the value in a field
            return -1
        return m.end()
    return -1


def format_value(text: str, start: int, end: int) -> bool:
    """Whether the labelled value ``text[start:end]`` (as the value pattern cut it: at a
    bracket, or with its quotes) is a format string's field, whole: bare
    (``%(password)s``, ``%s``), quoted (``"{password}"``) or in an f-string
    (``f"{password}"``)."""
    at = start
    if text[at : at + 1] in ("f", "F") and text[at + 1 : at + 2] in ("'", '"'):
        at += 1
        end = max(end, text.find(text[at], at + 1) + 1)
    while text[at : at + 1] == "\\":
        at += 1
    quote = text[at : at + 1]
    if quote in ("'", '"'):
        field = format_reference(text, at + 1)
        close = text.find(quote, at + 1)
        return field != -1 and close != -1 and text[field:close].rstrip("\\") == ""
    field = format_reference(text, at)
    return field >= end
