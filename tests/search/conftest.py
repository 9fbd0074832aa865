import pytest

from simkit.engine import registry
from simkit.engine.registry import register_game
from tests.search import candidates, unlisted

register_game("highcard", "tests.highcard")


@pytest.fixture
def unlisted_games(monkeypatch):
    """The toy games whose moves cannot be listed, known to get_game for one test only: not
    registered for the session, since tests/test_games.py runs over every registered game."""
    for module in (unlisted, candidates):
        monkeypatch.setitem(registry._LOADED, module.GAME.name, module.GAME)
