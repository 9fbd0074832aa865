from simkit.core.registry import register_game

register_game("highcard", "tests.highcard")
register_game("unlisted", "tests.search.unlisted")
register_game("candidates", "tests.search.candidates")
