"""Independent reference implementations, written from RULES.md alone, for cross-checks."""
