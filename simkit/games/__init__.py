"""One package per game; each exposes a `GAME` registry entry (see simkit.engine.registry)."""
