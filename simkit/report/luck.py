"""The luck study's words and pages: terminal text, `luck.md` and `luck.html` (chart embedded).

Everything reads the study's `luck.json` (written by `simkit.studies.luck`), so `simkit report`
on a luck folder rebuilds the same pages without playing anything.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from simkit.engine.records import read_manifest, write_text_file
from simkit.report.charts import CHART_WIDTH, DPI, color, min_font_pt, save_figure, styled
from simkit.report.page import chart_img, esc, glossary_html, html_table, md_table, page_html

#: part -> (its name in a table, what it means in one line)
PARTS = {
    "deal": ("the deal", "how much the cards a seat is dealt decide its result, whoever plays them"),
    "skill": ("skill", "how much who plays decides: the agents' own strength, whatever the cards"),
    "seat": ("the seat", "how much the seat's position (first, second, ...) decides, over all deals"),
    "deal_x_agent": ("deal × agent", "deals that suit one agent more than another (the deal decides "
                     "which skill matters)"),
    "seat_x_agent": ("seat × agent", "seats that suit one agent more than another"),
    "rest": ("the rest", "chance after the deal (later draws, a random bot's choices) and everything "
             "particular to one game"),
}
CHAIN_MEANING = ("skill chain", "from a ladder of the game: the longest chain of agents each beating the one "
                 "before it significantly; the longer, the more levels of skill the game rewards")
OUTCOMES = {"win": "who wins", "score_margin": "the score margin (score minus the game's mean)"}


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %".replace("-0.0", "0.0")


def _interval(share: dict) -> str:
    return f"{_pct(share['low'])} to {_pct(share['high'])}"


def headline(data: dict, title: str) -> str:
    """One sentence: how much of who wins is the deal, how much is skill."""
    win = data["win"]["shares"]
    players, deals = data["win"]["players"], data["win"]["deals"]
    return (f"Of who wins a game of {title} ({players} players, {deals} deals), "
            f"{_pct(win['deal']['value'])} [{_interval(win['deal'])}] is decided by the deal and "
            f"{_pct(win['skill']['value'])} [{_interval(win['skill'])}] by skill (who plays), between "
            f"{', '.join(data['agents'])}.")


def spread_sentence(data: dict) -> str:
    s = data["spread"]
    players, replays = data["win"]["players"], data.get("replays", 1)
    seatings = players * replays
    plays = (f"{seatings} seatings (every agent tried it)" if replays == 1 else
             f"{seatings} plays ({players} seatings, each {replays} times; every agent tried it)")
    text = (f"On {_pct(s['lopsided_share'])} [{_pct(s['lopsided_low'])} to {_pct(s['lopsided_high'])}] of "
            f"the deals some hand wins at most {_pct(s['lopsided_at'])} of its {plays}, and on "
            f"{_pct(s['decided_share'])} one hand won in every {'seating' if replays == 1 else 'play'}, "
            f"whoever held it.")
    if s["lopsided_at"] * seatings < 1:
        text += (f" With {seatings} plays a hand, \"at most {_pct(s['lopsided_at'])}\" means none, which "
                 f"chance alone often gives: --replays {math.ceil(20 / players)} or more makes the "
                 f"figure finer.")
    return text


def chain_sentence(data: dict) -> str | None:
    """The skill chain of the ladder given with --ladder, or None."""
    c = data.get("skill_chain")
    if c is None:
        return None
    other = [what for what, same in (("players", c["same_players"]), ("rules", c["same_rules"])) if not same]
    setting = f"{c['players']} players" + (f"; other {' and '.join(other)} than this study" if other else "")
    if c["length"] < 2:
        found = f"no agent of its {c['agents']} beats another significantly ({c['correction']})"
    else:
        found = (f"the longest chain of agents each beating the one before significantly ({c['correction']}) "
                 f"is {' < '.join(c['chain'])}")
    return f"Skill chain {c['length']} (the ladder in {c['folder']}, {setting}): {found}."


def part_rows(data: dict) -> list[tuple[str, str, str, str, str]]:
    rows = []
    for key, (name, _) in PARTS.items():
        win, score = data["win"]["shares"][key], data["score_margin"]["shares"][key]
        rows.append((name, _pct(win["value"]), _interval(win), _pct(score["value"]), _interval(score)))
    return rows


PART_HEADER = ("part of the outcome", "share of who wins", "95 % interval", "share of the score margin",
               "95 % interval")


def lopsided_rows(data: dict, folder: str) -> list[tuple[str, str, str]]:
    return [(str(row["deal"]), "  ".join(_pct(w) for w in row["hand_win_shares"]),
             f"simkit replay {folder} --game {row['first_game']}")
            for row in data["spread"]["most_lopsided"]]


LOPSIDED_HEADER = ("deal", "win share of each seat's hand (seat 0, 1, ...)", "to see it")


def glossary(data: dict | None = None) -> list[tuple[str, str]]:
    chain = [CHAIN_MEANING] if data is not None and "skill_chain" in data else []
    return [(name, meaning) for name, meaning in PARTS.values()] + chain


def luck_text(data: dict, title: str, folder: str) -> str:
    """The terminal summary."""
    chain = chain_sentence(data)
    lines = [headline(data, title), *([chain] if chain else []), ""]
    lines.append(f"{'part':<14} {'who wins':>9}  {'95 % interval':<18} {'score margin':>12}  95 % interval")
    for name, w, wi, s, si in part_rows(data):
        lines.append(f"{name:<14} {w:>9}  {wi:<18} {s:>12}  {si}")
    lines += ["", spread_sentence(data), "most lopsided deals:"]
    lines += [f"  deal {d}: hands {w}  ({cmd})" for d, w, cmd in lopsided_rows(data, folder)]
    if data.get("deals_left_out"):
        lines.append(f"{data['deals_left_out']} deal(s) left out: a game of theirs was forfeited or did "
                     f"not finish")
    return "\n".join(lines)


@styled
def shares_chart(data: dict) -> Figure:
    """Each part's share of who wins and of the score margin, with 95 % intervals."""
    fig = Figure(figsize=(CHART_WIDTH, 3.8), dpi=DPI, layout="constrained")
    ax = fig.add_subplot()
    names = [name for name, _ in PARTS.values()]
    y = np.arange(len(names))
    for k, outcome in enumerate(OUTCOMES):
        shares = data[outcome]["shares"]
        v = np.array([100 * shares[p]["value"] for p in PARTS])
        lo = v - np.array([100 * shares[p]["low"] for p in PARTS])
        hi = np.array([100 * shares[p]["high"] for p in PARTS]) - v
        ax.barh(y + (k - 0.5) * 0.38, v, height=0.36, xerr=[lo, hi], capsize=3, color=color(k),
                label=OUTCOMES[outcome])
    ax.set_yticks(y, names)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of the outcome's variance (%)")
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(loc="lower right")
    return fig


def read_luck(folder: Path | str) -> dict:
    from simkit.studies.luck import LUCK_FILE

    return json.loads((Path(folder) / LUCK_FILE).read_text())


def write_luck_report(folder: Path | str, title: str | None = None,
                      out_dir: Path | str | None = None) -> Path:
    """Write luck.md, luck.html and luck.png/svg into the study folder (or `out_dir`); return the
    page."""
    source = Path(folder)
    data = read_luck(source)
    folder = Path(out_dir) if out_dir is not None else source
    folder.mkdir(parents=True, exist_ok=True)
    if title is None:
        from simkit.engine.registry import get_game

        title = get_game(read_manifest(source)["game"]).title
    chart = shares_chart(data)
    png, _ = save_figure(chart, folder / "luck")
    heading = f"Luck and skill: {title}, {data['win']['players']} players"
    parts, lopsided = part_rows(data), lopsided_rows(data, str(source))
    chain = chain_sentence(data)
    md = [f"# {heading}", "", f"**{headline(data, title)}**", "", *([chain, ""] if chain else []),
          "![shares of the outcome](luck.png)", "",
          "## The parts of the outcome", "", *md_table(PART_HEADER, parts), "",
          "## Deals", "", spread_sentence(data), "", *md_table(LOPSIDED_HEADER, lopsided), "",
          "## What the figures mean", "", *(f"- **{n}**: {m}" for n, m in glossary(data)), ""]
    write_text_file(folder / "luck.md", "\n".join(md))
    body = [f"<p><strong>{esc(headline(data, title))}</strong></p>",
            *([f"<p>{esc(chain)}</p>"] if chain else []),
            chart_img(png.read_bytes(), "shares of the outcome",
                      "Each part's share of the outcome's variance, with its 95 % interval",
                      min_font_pt(chart)),
            "<h2>The parts of the outcome</h2>", html_table((list(PART_HEADER), [list(r) for r in parts])),
            f"<h2>Deals</h2><p>{esc(spread_sentence(data))}</p>",
            html_table((list(LOPSIDED_HEADER), [list(r) for r in lopsided])),
            glossary_html(glossary(data), "What the figures mean")]
    path = folder / "luck.html"
    write_text_file(path, page_html(heading, body))
    return path
