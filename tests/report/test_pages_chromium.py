"""Every study's page in a real browser, at a phone's 400 px and a laptop's 1280 px: the run,
compare, sweep, tournament and ladder reports of tiny studies.

One headless Chromium call per width loads all the pages side by side, each in an iframe exactly
that wide (headless Chromium keeps its window at 500 px or more; an iframe can be narrower). A
script measures each page and writes the figures into the DOM, which `--dump-dom` hands back:
the page's scroll width (nothing may widen it: no sideways scrolling of the whole page), every
table's box, every chart as drawn (decoded, inside the page, not blank: its pixels read back
through a canvas) and the chart's smallest text in CSS px, from the PNG's pixel size against its
displayed width. A control page that is too wide and holds a blank image proves the measurement
can fail. Skipped, with the reason, where Chromium is not installed (`apt-get install chromium`).
"""

import html
import json
import re
import shutil
import subprocess

import pytest

from simkit.report import build_report
from simkit.report.charts import DPI, MIN_FONT_PT
from simkit.report.ladder import write_ladder_report, write_tournament_report
from simkit.stats.synthetic import synth
from tests.report.study_folders import pairing_folder
from tests.report.test_report import _write_run

CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                 if shutil.which(n)), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="Chromium is not installed (apt-get install chromium): the "
                                       "pages cannot be measured in a browser")

#: the smallest chart text a reader gets, in CSS px, at either width
MIN_TEXT_PX = 10.0
#: least chart images of each page: a run has its five charts, a tournament its ratings chart,
#: this ladder (two search budgets) its ratings and budget charts
LEAST_CHARTS = {"run": 5, "compare": 5, "sweep": 11, "tournament": 1, "ladder": 2}

#: a 700 px wide block and a blank (all white) chart: what the measurement must catch
CONTROL = ("<!DOCTYPE html><html><body><div style='width:700px'>wide</div>"
           "<figure><img data-min-font-pt='9' src='data:image/png;base64,{png}'></figure></body></html>")

MEASURE = """
function measure(frame) {
  var win = frame.contentWindow, doc = win.document, root = doc.documentElement;
  var out = {viewport: root.clientWidth, page_width: Math.max(root.scrollWidth, doc.body.scrollWidth),
             tables: [], images: []};
  doc.querySelectorAll('.tablewrap').forEach(function (w) {
    var s = w.querySelector('.scroll'), t = w.querySelector('table'), h = w.querySelector('.hint');
    var ox = win.getComputedStyle(s).overflowX;
    out.tables.push({first: t.querySelector('th').textContent, table_width: t.scrollWidth,
      box_width: s.clientWidth, box_right: s.getBoundingClientRect().right,
      scrolls: ox === 'auto' || ox === 'scroll',
      hint_shown: h.offsetHeight > 0 && win.getComputedStyle(h).display !== 'none'});
  });
  doc.querySelectorAll('img').forEach(function (im) {
    var r = im.getBoundingClientRect(), c = doc.createElement('canvas');
    c.width = im.naturalWidth; c.height = im.naturalHeight;
    var inked = 0, colours = {}, n = 0;
    if (im.complete && im.naturalWidth > 0) {
      var ctx = c.getContext('2d'); ctx.drawImage(im, 0, 0);
      var d = ctx.getImageData(0, 0, c.width, c.height).data;
      for (var i = 0; i < d.length; i += 4 * 7) {   // every 7th pixel is plenty
        n++; if (d[i] < 235 || d[i + 1] < 235 || d[i + 2] < 235) inked++;
        colours[d[i] + ',' + d[i + 1] + ',' + d[i + 2]] = 1;
      }
    }
    out.images.push({alt: im.alt, shown: r.width, left: r.left, right: r.right,
      natural: im.naturalWidth, font_pt: parseFloat(im.dataset.minFontPt),
      inked: n ? inked / n : 0, colours: Object.keys(colours).length});
  });
  return out;
}
window.addEventListener('load', function () { setTimeout(function () {
  var found = {};
  document.querySelectorAll('iframe').forEach(function (f) { found[f.id] = measure(f); });
  var pre = document.createElement('pre'); pre.id = 'measure';
  pre.textContent = JSON.stringify(found); document.body.appendChild(pre);
}, 200); });
"""


def _white_png() -> str:
    import base64
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (660, 300), "white").save(buf, format="PNG")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _wrapper(pages: dict[str, str], width: int) -> str:
    frames = "".join(f'<iframe id="{name}" style="display:block;width:{width}px;height:900px;border:0" '
                     f'srcdoc="{html.escape(text, quote=True)}"></iframe>' for name, text in pages.items())
    return (f'<!DOCTYPE html><html><body style="margin:0">{frames}<script>{MEASURE}</script>'
            f"</body></html>")


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The HTML of each study's report, of tiny synthetic studies, and the control page."""
    root = tmp_path_factory.mktemp("pages")
    g4, s4 = synth(200, strengths=(0.9, 0.3, 0.3, 0.3), n_players=4, seed=5,
                   labels=["heuristic:depth=2,margin=3", "random", "random", "random"])
    one = _write_run(root / "p4-rows=3", g4, s4, n_players=4, game="sixnimmt", higher_is_better=False,
                     config={"rows": 3})
    g3, s3 = synth(200, strengths=(0.9, 0.3, 0.3), n_players=3, seed=6,
                   labels=["heuristic:depth=2,margin=3", "random", "random"])
    three = _write_run(root / "p3-rows=3", g3, s3, n_players=3, config={"rows": 3})
    gd, sd = synth(200, strengths=(0.8, 0.2), seed=2, labels=["a", "b"], duplicate=True)
    cmp = _write_run(root / "cmp", gd, sd, duplicate=True)
    (cmp / "compare.json").write_text(json.dumps(
        {"a": "a", "b": "b", "a_slots": [0], "b_slots": [1],
         "sprt": {"elo0": 0, "elo1": 10, "alpha": 0.05, "beta": 0.05, "model": "logistic"}}))
    tournament = pairing_folder(root / "tournament", {"heuristic": 0.7, "lowest": 0.3, "random": 0.2,
                                                      "highest": 0.4})
    built = {"run": build_report([one], root / "r-run"),
             "compare": build_report([cmp], root / "r-cmp"),
             "sweep": build_report([three, one], root / "r-sweep"),
             "tournament": write_tournament_report(tournament),
             "ladder": write_ladder_report(pairing_folder(root / "ladder"))}
    found = {name: path.read_text() for name, path in built.items()}
    found["control"] = CONTROL.replace("{png}", _white_png())
    return found


@pytest.fixture(scope="module", params=[400, 1280], ids=["400px", "1280px"])
def measured(request, pages, tmp_path_factory):
    width = request.param
    page = tmp_path_factory.mktemp("chromium") / f"pages-{width}.html"
    page.write_text(_wrapper(pages, width))
    dom = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                          f"--window-size={max(width, 500) + 40},1000", "--virtual-time-budget=8000",
                          "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120).stdout
    found = re.search(r'<pre id="measure">(.*?)</pre>', dom, re.S)
    assert found, f"the measuring script did not run at {width} px"
    return width, json.loads(html.unescape(found.group(1)))


def _chart_text_px(im: dict) -> float:
    """The chart's smallest text as displayed: its size in the PNG's pixels (DPI), scaled by the
    displayed width over the PNG's pixel width."""
    return im["font_pt"] / 72 * DPI * im["shown"] / im["natural"]


@pytest.mark.parametrize("kind", list(LEAST_CHARTS))
def test_the_page_fits_its_width_and_its_charts_are_drawn_and_legible(measured, kind):
    width, found = measured
    m = found[kind]
    assert m["viewport"] == width
    # nothing widens the page: a reader never scrolls the whole page sideways
    assert m["page_width"] <= m["viewport"], f"{kind} at {width} px is {m['page_width']} px wide"
    assert m["tables"], f"{kind}: no table measured"
    for t in m["tables"]:
        assert t["box_right"] <= m["viewport"] + 0.5, t
        if t["table_width"] > t["box_width"] + 1:     # wider than its box: scrolls in it, says so
            assert t["scrolls"] and t["hint_shown"], t
    assert len(m["images"]) >= LEAST_CHARTS[kind], [im["alt"] for im in m["images"]]
    for im in m["images"]:
        assert im["natural"] > 0, f"{kind}: {im['alt']} was not decoded"
        assert 0 <= im["left"] and im["right"] <= m["viewport"] + 0.5, im
        assert 0.01 < im["inked"] < 0.9 and im["colours"] >= 3, f"{kind}: {im['alt']} looks blank: {im}"
        assert im["font_pt"] >= MIN_FONT_PT, im
        px = _chart_text_px(im)
        assert px >= MIN_TEXT_PX, f"{kind}: {im['alt']} smallest text {px:.1f} px at {width} px"


def test_the_measurement_catches_a_wide_page_and_a_blank_chart(measured):
    width, found = measured
    m = found["control"]
    assert m["page_width"] > m["viewport"] == width or width >= 700 + 16
    (im,) = m["images"]
    assert im["natural"] == 660 and im["inked"] == 0 and im["colours"] == 1
