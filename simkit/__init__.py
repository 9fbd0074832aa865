"""simkit: Monte Carlo balance studies of card games."""

__version__ = "0.1.0"
