"""Built-in Rummikub strategies."""

BUILTIN = {
    "random": "strategies.rummikub.baseline:RandomStrategy",
    "simple": "strategies.rummikub.baseline:SimpleStrategy",
    "greedy_tiles": "strategies.rummikub.greedy:GreedyTiles",
    "greedy_value": "strategies.rummikub.greedy:GreedyValue",
    "patient": "strategies.rummikub.planner:PatientStrategy",
}
