"""Built-in Game of Trains strategies."""

BUILTIN = {
    "random": "strategies.trains.baseline:RandomStrategy",
    "greedy": "strategies.trains.heuristic:GreedyStrategy",
    "rival": "strategies.trains.heuristic:RivalStrategy",
}
