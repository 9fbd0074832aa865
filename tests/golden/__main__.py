"""`python -m tests.golden [GAME ...]`: rewrite the golden transcripts (all games by default)."""

import sys

from tests.golden import CASES, regenerate

names = sys.argv[1:] or sorted(CASES)
unknown = [g for g in names if g not in CASES]
if unknown:
    sys.exit(f"no golden cases for {', '.join(unknown)}: known are {', '.join(sorted(CASES))}")
for path in regenerate(names):
    print(f"wrote {path}")
