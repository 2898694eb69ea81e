"""The three message formats toolhygiene writes: Anthropic Messages, OpenAI Chat
Completions and OpenAI Responses; each from the SDK's own objects or plain dicts.

``check(messages, fmt)`` is the validator the tests run after every step: it raises
``UsageError`` at the first place the API would reject the list.
"""

from toolhygiene import _surface
from toolhygiene.formats._adapters import adapter, check, detect
from toolhygiene.formats._base import STUB, Adapter, Call, Definition, Format, Round, StrictRules

__all__ = [
    "Adapter",
    "Call",
    "Definition",
    "Format",
    "Round",
    "STUB",
    "StrictRules",
    "adapter",
    "check",
    "detect",
]

__dir__ = _surface.public_dir(__name__)
"""``__all__``, the dunders and no private submodule: the names imported to build this
package are not its surface (``dir()``, completion)."""
del _surface
