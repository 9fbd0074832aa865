"""Shipside strategies: name -> "module:Class"."""

BUILTIN = {
    "random": "strategies.shipside.baseline:RandomStrategy",
    "greedy": "strategies.shipside.heuristic:GreedyStrategy",
    "octopus": "strategies.shipside.heuristic:OctopusStrategy",
}
