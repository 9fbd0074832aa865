"""The designer's study commands: `simkit luck` (how much of the outcome is luck). Thin Click
wrappers over simkit.studies.luck and simkit.report.luck."""

from __future__ import annotations

import json
from pathlib import Path

import click

from simkit import cli_options as options
from simkit.cli_study import study_start
from simkit.engine.config import parse_set_options
from simkit.engine.guard import DEFAULT_DECISION_TIMEOUT


@click.command("luck")
@options.game
@options.strategies("An agent of the study (repeat; 2 up to the player count), cycled over the seats. "
                    "Default: random, the game's strongest bot and ismcts (two players: the first two).")
@options.players
@click.option("-n", "--deals", "deals", type=int, default=100, show_default=True, callback=options.positive,
              help="Deals to play; each is played once per seat rotation (players x deals games).")
@click.option("--replays", type=options.WHOLE, default=1, show_default=True, callback=options.positive,
              help="Plays of each deal per seat rotation, with other strategy streams (players x deals x "
                   "replays games): a hand's win share over its seatings then moves in steps of "
                   "1/(players x replays), not 1/players. The split does not need it.")
@click.option("--ladder", "ladder", type=click.Path(path_type=Path), default=None, metavar="FOLDER",
              help="A `simkit ladder` folder of the same game: its skill chain (the longest chain of agents "
                   "each beating the one before) is reported beside the split.")
@options.seed
@options.jobs
@options.overrides
@options.run_out
@options.decision_timeout(DEFAULT_DECISION_TIMEOUT)
@options.resume
@options.progress
@options.quiet
@options.as_json
def luck_command(game, strategy_names, players, deals, replays, ladder, seed, jobs, set_items, out,
                 decision_timeout, resume, progress, quiet, as_json):
    """How much of the outcome the deal decides, and how much skill (who plays).

    Plays every deal once in each seat rotation of a lineup of agents of different strength (the
    cards stay with the seat, the agents move), then splits the variance of who wins (and of the
    score margin) into the deal, skill, the seat, their interactions and the rest, with 95 %
    bootstrap intervals over deals. Also: the share of deals on which some hand (nearly) never
    wins whoever holds it, and the most lopsided deals with the command that replays them.
    Writes luck.json, luck.md and luck.html into the run folder.

    \b
    Examples:
      simkit luck sixnimmt -p 4 --set max_rounds=1
      simkit luck shipside -s random -s octopus -n 400
      simkit luck sixnimmt -p 4 -s random -s heuristic -n 200 --replays 10
      simkit luck sixnimmt -p 4 --ladder results/ladder-sixnimmt-20261130-101500-s7
      simkit luck trains -p 3 -s random -s greedy -s rival --seed 7
    """
    from simkit.engine.lineup import default_players
    from simkit.engine.registry import get_game
    from simkit.engine.runner import default_out_dir
    from simkit.report.luck import luck_text, write_luck_report
    from simkit.studies.luck import plan_luck, run_luck

    entry = get_game(game)
    n = default_players(entry) if players is None else players
    start = study_start("luck study", out, resume, seed, quiet=quiet)
    plan = plan_luck(game, n, list(strategy_names) or None, deals, seed=start.seed,
                     overrides=parse_set_options(set_items), command=options.command_line(),
                     decision_timeout=decision_timeout, replays=replays, ladder=ladder)
    out_dir = out if out is not None else default_out_dir(plan.spec)

    def header() -> None:
        times = "" if plan.replays == 1 else f" x {plan.replays} replays"
        start.say(f"{entry.title}: luck study of {', '.join(plan.agents)}, {n} players, {plan.deals} deals "
                  f"x {n} seatings{times} = {plan.spec.n_games} games, {start.seed_words(plan.spec.seed)} "
                  f"-> {out_dir}")

    with start.on_interrupt(f"the finished games are saved in {out_dir}", out_dir, plan.spec.seed):
        _, luck = run_luck(plan, out_dir, jobs=jobs, resume=resume, on_start=header,
                           progress=False if quiet and progress is None else progress)
    page = write_luck_report(out_dir, entry.title)
    if as_json:
        click.echo(json.dumps(luck.to_dict(), indent=2, allow_nan=False))
        return
    from simkit.report.luck import read_luck
    click.echo(luck_text(read_luck(out_dir), entry.title, str(out_dir)))
    click.echo(f"report: {page}")


@click.command("tune")
@options.game
@options.strategies("Strategy per seat (repeat; the last fills the remaining seats). Default: random.")
@options.players
@click.option("--vary", "vary_items", multiple=True, metavar="FIELD=VALUES",
              help="A rule field and its values to try: a list (rows=3,4,5) or a range of whole numbers "
                   "(rows=3..6). Repeat for more fields; the grid is every combination.")
@click.option("--target", "target_items", multiple=True, metavar="TARGET",
              help="What to aim at (repeat): NAME to make small, or NAME=VALUE±TOL (also +-). Figures: "
                   "seat_fairness, length, rounds, draws, score, win:STRATEGY.")
@click.option("--budget", type=int, default=20000, show_default=True, callback=options.positive,
              help="Games the search may spend over the whole grid (successive halving).")
@click.option("--confirm", "confirm_games", type=int, default=2000, show_default=True,
              callback=options.positive,
              help="Games of the confirmation run of the recommendation, and of each one-step neighbour.")
@options.seed
@options.jobs
@options.overrides
@options.out("Tune folder (default: a new folder under results/).")
@options.decision_timeout(DEFAULT_DECISION_TIMEOUT)
@options.resume
@options.progress
@options.quiet
@options.as_json
def tune_command(game, strategy_names, players, vary_items, target_items, budget, confirm_games, seed, jobs,
                 set_items, out, decision_timeout, resume, progress, quiet, as_json):
    """Find the rule values that hit your targets, spending games where the answer is uncertain.

    Successive halving over the grid of --vary values: each round the settings still in play
    share the round's games, the better half (by loss, with a 95 % bootstrap interval) goes on,
    and any setting clearly worse than the best drops at once. The winner is confirmed at full
    size (--confirm games) and each field is moved one step from it to show how sensitive each
    target is. Writes tune.json, tune.md and tune.html; --resume finishes an interrupted tune.

    \b
    Examples:
      simkit tune sixnimmt -p 4 --vary row_capacity=3..7 --vary rows=3..6 --target seat_fairness \\
          --target "length=40±5"
      simkit tune trains -p 3 -s rival --vary max_turns=20,30,40 --target draws=0.05±0.02
    """
    from simkit.engine.lineup import default_players
    from simkit.engine.registry import get_game
    from simkit.engine.runner import stamped_dir
    from simkit.report.tune import read_tune, round_line, tune_text, write_tune_report
    from simkit.studies.tune import TUNE_MANIFEST, plan_tune, run_tune
    from simkit.studies.tune_targets import parse_target

    entry = get_game(game)
    n = default_players(entry) if players is None else players
    start = study_start("tune", out, resume, seed, quiet=quiet, listing=TUNE_MANIFEST)
    plan = plan_tune(game, n, list(strategy_names) or ["random"], list(vary_items),
                     [parse_target(t) for t in target_items], budget=budget, confirm_games=confirm_games,
                     seed=start.seed, overrides=parse_set_options(set_items), command=options.command_line(),
                     decision_timeout=decision_timeout)
    out_dir = out if out is not None else stamped_dir(f"tune-{game}", plan.seed)
    say = start.say

    def header() -> None:
        say(f"{entry.title}: tuning {len(plan.settings)} settings of {', '.join(plan.axes)} for "
            f"{', '.join(t.text for t in plan.targets)}; budget {plan.budget} games, {n} players, "
            f"{start.seed_words(plan.seed)} -> {out_dir}")

    with start.on_interrupt(f"finished runs are saved in {out_dir}", out_dir, plan.seed):
        run_tune(plan, out_dir, jobs=jobs, progress=False if quiet and progress is None else progress,
                 resume=resume, on_start=header, on_round=lambda r: say(round_line(r)), say=say)
    page = write_tune_report(out_dir)
    data = read_tune(out_dir)
    if as_json:
        click.echo(json.dumps(data, indent=2, allow_nan=False))
        return
    click.echo(tune_text(data))
    click.echo(f"report: {page}")
