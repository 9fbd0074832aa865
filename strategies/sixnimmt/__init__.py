"""6 nimmt! strategies: name -> "module:Class"."""

BUILTIN = {
    "random": "strategies.sixnimmt.baseline:RandomStrategy",
    "lowest": "strategies.sixnimmt.baseline:LowestStrategy",
    "highest": "strategies.sixnimmt.baseline:HighestStrategy",
    "heuristic": "strategies.sixnimmt.heuristic:HeuristicStrategy",
}
