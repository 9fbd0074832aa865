#!/usr/bin/env bash
# Lint and type checks for CI: ruff over the whole tree, mypy over the files set in pyproject.toml.
set -euo pipefail
cd "$(dirname "$0")/.."
ruff check . && mypy
