"""The game-independent heart of simkit: protocol, seeding, strategies, runner, records."""
