"""``python -m toolhygiene report LOG...``."""

from toolhygiene.cli import main

raise SystemExit(main())
