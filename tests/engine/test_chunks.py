"""How a run is cut into worker tasks."""

import os

import pytest

from simkit.engine.chunks import chunk_ranges, default_chunk_size, resolve_jobs, whole_deal_chunk_size
from simkit.engine.errors import ConfigError


def test_jobs_minus_one_means_every_core_and_zero_is_refused():
    assert resolve_jobs(-1) == (os.cpu_count() or 1)
    assert resolve_jobs(3) == 3
    with pytest.raises(ConfigError, match="--jobs 0 is not allowed"):
        resolve_jobs(0)


def test_default_chunk_gives_each_worker_several_tasks_of_at_most_5000_games():
    assert default_chunk_size(1000, 4) == 32             # ceil(1000 / 32 tasks)
    assert default_chunk_size(10_000_000, 4) == 5000
    assert default_chunk_size(10_000_000, 4, "batch") == 16_384    # the batch engine's block
    assert default_chunk_size(1000, 4, "batch") == 32
    assert default_chunk_size(3, 8) == 1


@pytest.mark.parametrize("batch, deal, expected", [(None, 2, 100), (None, 3, 102), (48, 4, 48),
                                                   (1, 4, 4), (101, 2, 102)])
def test_whole_deal_chunk_rounds_the_batch_up_to_whole_deals(batch, deal, expected):
    assert whole_deal_chunk_size(batch, deal) == expected


def test_chunk_ranges_cover_every_game_once_in_order():
    ranges = chunk_ranges(23, 5)
    assert ranges == [(0, 5), (5, 10), (10, 15), (15, 20), (20, 23)]
    assert chunk_ranges(10, 10) == [(0, 10)]
    with pytest.raises(ConfigError, match="--chunk-size 0 is not allowed: at least 1"):
        chunk_ranges(10, 0)
