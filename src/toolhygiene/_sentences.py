"""(fix21a) The words of other languages' sentences between a secret's label and its
value: "Das Passwort ist v", "Dein Kennwort lautet: v", "Tu contraseña temporal es v",
"Le mot de passe est v", "A senha é v", "Lösenordet är v", "Heslo je v", "Hasło to v",
"Salasana on v". The value after them is judged as after English "is" (``_spaced``: a
token, not a word), so prose stays ("das Passwort ist zu kurz", "la contraseña es
incorrecta")."""

from __future__ import annotations

# Each language's "is" (and "was", "will be", "reads"), in the languages whose labels
# are read (``_labels.FOREIGN_LABELS``): German, Spanish, French, Portuguese, Italian,
# Dutch, Polish, Swedish, Norwegian and Danish, Czech and Slovak, Croatian, Serbian and
# Slovenian, Finnish, Romanian, Lithuanian, Russian, Hebrew. (Hungarian and Turkish write
# none; Dutch's "is" and "was" are English's.)
_VERBS = (
    "ist",
    "lautet",
    "lautete",
    "war",
    "es",
    "era",
    "será",
    "est",
    "était",
    "sera",
    "é",
    "è",
    "luidt",
    "jest",
    "brzmi",
    "är",
    "var",
    "blir",
    "er",
    "bliver",
    "je",
    "bylo",
    "bolo",
    "zní",
    "glasi",
    "on",
    "oli",
    "este",
    "yra",
    "это",
    "הוא",
    "היא",
)
# Words that follow the label in the Romance languages (adjectives after their noun):
# "contraseña temporal", "mot de passe provisoire", "senha provisória", "password nuova".
_AFTER_LABEL = (
    "temporal",
    "temporaria",
    "temporária",
    "temporário",
    "temporanea",
    "temporaire",
    "provisional",
    "provisoria",
    "provisória",
    "provisorio",
    "provisório",
    "provvisoria",
    "provisoire",
    "nueva",
    "nuevo",
    "nouveau",
    "nova",
    "novo",
    "nuova",
    "actual",
    "actuel",
    "atual",
    "attuale",
    "inicial",
    "initial",
    "iniziale",
)


def _by_first(words: tuple[str, ...]) -> str:
    """An alternation of ``words`` grouped by their first character (one test of it per
    group, not per word), each group's rests longest first."""
    groups: dict[str, list[str]] = {}
    for word in words:
        groups.setdefault(word[0], []).append(word[1:])
    return "|".join(
        first + "(?:" + "|".join(sorted(rests, key=lambda rest: -len(rest))) + ")"
        for first, rests in sorted(groups.items())
    )


FOREIGN_CONNECTORS = _by_first(_VERBS + _AFTER_LABEL)
"""The alternation of these words, for ``_detectors._CONNECTORS``."""
