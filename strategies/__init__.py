"""Built-in strategies, one package per game (see simkit.engine.strategy)."""
