"""Integration tests: toolhygiene inside other frameworks (nox -s integrations)."""
