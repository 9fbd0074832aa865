"""The C reference of the kernel bench (scripts/bench_kernel_ref.c), seeded per game by SeedSequence
as the kernel is, plays the kernel's games: its checksum (every seat's points over the rounds, N13)
equals the kernel's. So its figure in scripts/bench_kernel.py is the same work, not a look-alike."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from simkit.engine.spec import RunSpec  # noqa: E402
from simkit.games.sixnimmt.kernel import play_range_kernel  # noqa: E402

SOURCE = Path(__file__).resolve().parents[2] / "scripts" / "bench_kernel_ref.c"
COMPILER = shutil.which("cc") or shutil.which("gcc")


@pytest.mark.skipif(COMPILER is None, reason="no C compiler")
@pytest.mark.parametrize("seed", [1, 987654321])
def test_the_seeded_c_reference_plays_the_kernels_single_rounds(tmp_path, seed):
    program = tmp_path / "ref"
    subprocess.run([COMPILER, "-O2", "-o", str(program), str(SOURCE)], check=True, capture_output=True)
    games = 3000
    done = subprocess.run([str(program), str(games), str(seed)], capture_output=True, text=True, check=True)
    checksum = int(done.stdout.split()[1])
    spec = RunSpec.create("sixnimmt", 4, ["random"], games, seed=seed, overrides={"max_rounds": "1"})
    scores = np.asarray(play_range_kernel(spec, 0, games).seats["score"])
    assert checksum == int(scores.sum())
    unseeded = subprocess.run([str(program), str(games)], capture_output=True, text=True, check=True)
    assert int(unseeded.stdout.split()[1]) != checksum          # its own seeds: other games
