"""Independent reference implementations, written from RULES.md alone, and `figures`,
which compares samples of their games with the engines' figure by figure."""
