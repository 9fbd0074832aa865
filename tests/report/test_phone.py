"""The report at phone width, measured in a real browser: no table cut off, chart text >= 10 px.

Headless Chromium loads a copy of report.html with a measuring script added; the script writes
what it measured into the page, and `--dump-dom` hands the page back. Skipped (with the reason)
when Chromium is not installed: `apt-get install chromium`.
"""

import html
import io
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest
from PIL import Image

from simkit.report import build_report
from simkit.report.charts import MIN_FONT_PT
from simkit.stats.synthetic import synth
from tests.report.test_report import _write_run

CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                 if shutil.which(n)), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="Chromium is not installed (apt-get install chromium): "
                                       "the phone-width layout cannot be measured")

#: CSS px of a phone's first screen (a 400 x 800 screen less the browser's bars); a 1280 px
#: laptop shows at least as much
FIRST_SCREEN = 700

#: the report is shown in an iframe exactly `width` px wide: headless Chromium does not make its
#: window narrower than 500 px, an iframe can be
WRAPPER = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" style="width:{width}px;height:{height}px;border:0" srcdoc="{report}"></iframe>
<script>
window.addEventListener('load', function () { setTimeout(function () {
  var win = document.getElementById('f').contentWindow, doc = win.document;
  var vw = doc.documentElement.clientWidth, out = {viewport: vw,
      page_width: doc.documentElement.scrollWidth, tables: [], images: []};
  doc.querySelectorAll('.tablewrap').forEach(function (w) {
    var s = w.querySelector('.scroll'), t = w.querySelector('table'), h = w.querySelector('.hint');
    var ox = win.getComputedStyle(s).overflowX;
    out.tables.push({first: t.querySelector('th').textContent,
      table_width: t.scrollWidth, box_width: s.clientWidth,
      box_right: s.getBoundingClientRect().right, scrolls: ox === 'auto' || ox === 'scroll',
      hint_shown: h.offsetHeight > 0 && win.getComputedStyle(h).display !== 'none'});
  });
  var hl = doc.querySelector('.headline');
  if (hl) { var hr = hl.getBoundingClientRect();
    out.headline = {top: hr.top, bottom: hr.bottom, text: hl.textContent}; }
  doc.querySelectorAll('img').forEach(function (im) {
    var r = im.getBoundingClientRect();
    out.images.push({alt: im.alt, shown: r.width, right: r.right,
      width_in: parseFloat(im.dataset.figWidthIn), font_pt: parseFloat(im.dataset.minFontPt)});
  });
  var pre = document.createElement('pre'); pre.id = 'measure';
  pre.textContent = JSON.stringify(out); document.body.appendChild(pre);
}, 100); });
</script></body></html>"""


def phone_page(report, width: int, height: int = 2000) -> str:
    """A page showing `report` (a report.html path) exactly `width` CSS px wide."""
    return (WRAPPER.replace("{width}", str(width)).replace("{height}", str(height))
            .replace("{report}", html.escape(report.read_text(), quote=True)))


def _measure(report, width, tmp_path):
    page = tmp_path / f"measure-{width}.html"
    page.write_text(phone_page(report, width))
    dom = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                          "--hide-scrollbars", f"--window-size={max(width, 500) + 40},2100",
                          "--virtual-time-budget=5000", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=120).stdout
    found = re.search(r'<pre id="measure">(.*?)</pre>', dom, re.S)
    assert found, f"the measuring script did not run at {width} px"
    return json.loads(html.unescape(found.group(1)))


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    root = tmp_path_factory.mktemp("phone")
    games, seats = synth(300, strengths=(0.9, 0.3, 0.3, 0.3), n_players=4, seed=5,
                         labels=["heuristic:depth=2,margin=3", "random", "random", "random"])
    one = _write_run(root / "p4-rows=3", games, seats, n_players=4,
                     config={"advanced": False, "max_rounds": None, "rows": 3})
    g3, s3 = synth(300, strengths=(0.9, 0.3, 0.3), n_players=3, seed=6,
                   labels=["heuristic:depth=2,margin=3", "random", "random"])
    three = _write_run(root / "p3-rows=3", g3, s3, n_players=3,
                       config={"advanced": False, "max_rounds": None, "rows": 3})
    return (build_report([one], root / "single"), build_report([three, one], root / "sweep"))


@pytest.fixture(scope="module")
def measured(reports, tmp_path_factory):
    """`measured(which, width)`: the browser's figures of `reports[which]` at `width`, measured once
    for the module (a Chromium launch each; two tests read the single run at 400 px)."""
    done: dict = {}

    def measure(which, width):
        if (which, width) not in done:
            done[which, width] = _measure(reports[which], width, tmp_path_factory.mktemp("measure"))
        return done[which, width]

    return measure


def _screenshot(report, width: int, tmp_path, folder) -> bytes:
    """A PNG (in `folder`) of the first screen (FIRST_SCREEN px high) of `report` at `width`."""
    page = tmp_path / f"shot-{width}.html"
    page.write_text(phone_page(report, width, FIRST_SCREEN))
    png = folder / f"first-screen-{width}.png"
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--window-size={width},{FIRST_SCREEN}", "--virtual-time-budget=5000",
                    f"--screenshot={png}", page.as_uri()], capture_output=True, timeout=120)
    assert png.exists(), f"no screenshot at {width} px"
    return png.read_bytes()


def _check_layout(m, width):
    """Nothing widens the page; a table wider than its box scrolls in it with the hint shown;
    every chart fits and keeps its smallest text at 10 px or more."""
    assert m["viewport"] == width
    # nothing widens the page itself: a reader never has to scroll the whole page sideways
    assert m["page_width"] <= m["viewport"], m["page_width"]
    assert len(m["tables"]) >= 8
    for t in m["tables"]:
        assert t["box_right"] <= m["viewport"] + 0.5, t
        if t["table_width"] > t["box_width"] + 1:
            # wider than its box: it must scroll inside it and say so above the table
            assert t["scrolls"] and t["hint_shown"], t
        else:
            assert not t["hint_shown"], t
    assert m["images"], "no chart measured"
    for im in m["images"]:
        assert im["right"] <= m["viewport"] + 0.5, im
        px = im["font_pt"] / 72 * im["shown"] / im["width_in"]
        assert px >= 10, f"{im['alt']}: smallest chart text {px:.1f} px at {width} px"
        assert im["font_pt"] >= MIN_FONT_PT


@pytest.mark.slow
@pytest.mark.parametrize("width", [400, 1280])
@pytest.mark.parametrize("which", [0, 1], ids=["single-run", "sweep"])
def test_no_table_is_cut_off_and_chart_text_is_legible(measured, which, width):
    _check_layout(measured(which, width), width)


@pytest.fixture(scope="module")
def real_report(tmp_path_factory):
    """The report of a new user's first study: 2,000 games of 6 nimmt!, heuristic against
    three random seats (`simkit run sixnimmt -p 4 -s heuristic -s random -n 2000`)."""
    from simkit.engine.runner import RunSpec, run

    root = tmp_path_factory.mktemp("real")
    spec = RunSpec.create(game="sixnimmt", n_players=4,
                          strategies=["heuristic", "random", "random", "random"], n_games=2000,
                          seed=1)
    run(spec, root / "run", jobs=1, progress=False)   # the same tables as on all cores
    return build_report([root / "run"], root / "report")


@pytest.mark.slow
@pytest.mark.parametrize("width", [400, 1280])
def test_a_real_report_answers_the_questions_in_its_first_screen(real_report, width, tmp_path):
    """Who is stronger, by how much, is the game fair to seats: all above the fold, measured
    in the browser; the screenshot of that first screen is kept in SIMKIT_SCREENSHOTS (a
    folder outside the repository) when set, else in pytest's temporary folder."""
    m = _measure(real_report, width, tmp_path)
    _check_layout(m, width)
    head = m["headline"]
    assert 0 <= head["top"] and head["bottom"] <= FIRST_SCREEN, head
    summary = pd.read_csv(real_report.parent / "tables" / "run" / "summary.csv")
    best = summary.loc[(summary["win_share"] / summary["fair_share"]).idxmax()]
    text = " ".join(head["text"].split())
    for said in ("Who is stronger?", f"{best['strategy']} wins {100 * best['win_share']:.1f}% of "
                 "games", "By how much?", "pairwise Elo", "Fair to seats?"):
        assert said in text, said
    folder = Path(os.environ.get("SIMKIT_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    with Image.open(io.BytesIO(_screenshot(real_report, width, tmp_path, folder))) as shot:
        assert shot.size == (width, FIRST_SCREEN)
        # the page was drawn: text and the headline's colours, not a blank or error screen
        assert len(shot.convert("RGB").getcolors(maxcolors=1 << 16) or range(1 << 16)) > 50


def test_phone_width_needs_the_scroll_hint_somewhere(measured):
    """The measurement can fail: at 400 px the wide tables (seats, scores) do overflow their
    box, and it is the hint, not luck, that keeps them readable."""
    m = measured(0, 400)
    assert any(t["table_width"] > t["box_width"] + 1 and t["hint_shown"] for t in m["tables"])
