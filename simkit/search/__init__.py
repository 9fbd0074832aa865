"""Search strategies generic over the game protocol: information-set MCTS and flat Monte Carlo.

They see a game only through a `Decision` (observation, legal actions, `sample_state()`) and
the `Game` entry, so every registered game can use them. See docs/search.md.
"""
