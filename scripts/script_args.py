"""What the bench scripts that read `sys.argv` by hand share: `-h`/`--help` prints the script's
docstring (its usage), and a word that should be a number stops the script with a message that
says which argument and what it expected, not a traceback."""

from __future__ import annotations

import sys
from typing import NoReturn


def args_or_help(doc: str | None) -> list[str]:
    """The script's arguments; on -h or --help, its usage (the docstring) and exit 0."""
    args = sys.argv[1:]
    if "-h" in args or "--help" in args:
        print((doc or "").strip())
        sys.exit(0)
    return args


def fail(message: str) -> NoReturn:
    """Stop the script on bad input: the message on stderr, exit status 2."""
    print(f"{message} (see --help)", file=sys.stderr)
    sys.exit(2)


def number(text: str, what: str, kind: type = float):
    """`text` as a `kind` (float or int); else `fail` naming the argument."""
    try:
        return kind(text)
    except ValueError:
        fail(f"{what}: expected {'a whole number' if kind is int else 'a number'}, got {text!r}")
