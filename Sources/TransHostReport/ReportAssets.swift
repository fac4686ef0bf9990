/// The page's inline style sheet and script. The script only moves what the page already
/// holds (pictures beside it, charts drawn here); it fetches nothing.
enum ReportAssets {
    static let css = """
    body { font: 14px/1.4 "DejaVu Sans", system-ui, sans-serif; margin: 0 24px 48px; color: #1d1d1f; background: #fafafa; }
    h1 { margin: 16px 0 4px; font-size: 22px; }
    h2 { margin: 32px 0 4px; border-bottom: 1px solid #ccc; font-size: 18px; }
    h3 { margin: 0 0 6px; font-size: 15px; }
    h4 { margin: 8px 0 2px; font-size: 13px; }
    a { color: #0a5fc0; }
    table.index { border-collapse: collapse; background: #fff; }
    table.index th, table.index td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
    table.index th { background: #eee; }
    .verdict { font-size: 12px; padding: 1px 6px; border-radius: 8px; background: #2f9a3a; color: #fff; white-space: nowrap; }
    .verdict.mismatch { background: #c0392b; } .verdict.contract-breach { background: #b3261e; }
    .verdict.plugin-failed { background: #8e44ad; } .verdict.input-error { background: #555; }
    .outcome.cancelled { color: #c46200; font-weight: bold; } td.breached { color: #b3261e; font-weight: bold; }
    .badge { font-size: 12px; padding: 1px 6px; color: #fff; } .badge.cancelled { background: #e67300; } .badge.breach { background: #cc1a1a; }
    article.transition { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 10px 14px; margin: 12px 0; }
    dl.facts { display: grid; grid-template-columns: max-content auto; gap: 0 12px; margin: 0 0 6px; }
    dl.facts dt { color: #666; } dl.facts dd { margin: 0; }
    .failure, ul.breaches, .differs { color: #b3261e; }
    details.route pre { font-size: 12px; background: #f3f3f3; padding: 6px; overflow-x: auto; }
    .media { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
    figure { margin: 0; } figcaption { font-size: 12px; color: #555; }
    .frame { border: 1px solid #999; background-repeat: no-repeat; background-color: #fff; }
    input.scrub { width: 200px; display: block; margin: 6px 0 2px; }
    .scrubber p.hint { width: 200px; font-size: 11px; color: #777; margin: 2px 0; }
    .curves { display: flex; flex-wrap: wrap; gap: 8px 20px; margin-top: 8px; }
    .curves .view h4 .id { color: #888; font-weight: normal; }
    svg.curve { display: block; font: 10px "DejaVu Sans", sans-serif; }
    svg.curve rect.plot { fill: #fcfcfc; stroke: #ccc; } svg.curve text { fill: #444; } svg.curve text.title { font-weight: bold; }
    svg.curve path.series { fill: none; stroke-width: 1.5; } svg.curve line.cursor { stroke: #e0245e; stroke-width: 1; }
    .diffviewer { margin-top: 10px; } .diffviewer .modes button { margin-right: 4px; }
    .diffviewer .stage { position: relative; width: 320px; margin-top: 6px; border: 1px solid #999; }
    .diffviewer .stage img { width: 320px; display: block; }
    .diffviewer .stage .actual-clip, .diffviewer .stage img.diff { position: absolute; left: 0; top: 0; }
    .diffviewer .stage .actual-clip { clip-path: inset(0 0 0 50%); border-left: 0; }
    .diffviewer[data-mode="slider"] img.diff, .diffviewer[data-mode="expected"] .actual-clip, .diffviewer[data-mode="expected"] img.diff,
    .diffviewer[data-mode="actual"] img.diff, .diffviewer[data-mode="diff"] .actual-clip { display: none; }
    .diffviewer[data-mode="actual"] .actual-clip { clip-path: none; }
    .diffviewer:not([data-mode="slider"]) input.diff-slider { visibility: hidden; }
    input.diff-slider { width: 320px; display: block; }
    #selftest-result { background: #ffe; border: 1px solid #cc9; padding: 6px; }

    """

    /// Scrubbers show the chosen picture and move their transition's chart cursors to its time;
    /// diff viewers switch modes and move the expected | actual line. Opened as report.html#selftest,
    /// the page also checks itself as a person would (moves the first scrubber to its end, looks
    /// at the shown frame and the drawn curves; moves the first diff viewer's slider and presses
    /// its diff button) and writes what it saw into #selftest-result.
    static let script = #"""
    (function () {
      "use strict";
      var W = 200;
      function px(v) { return (Math.round(v * 100) / 100) + "px"; }
      function show(fig, k) {
        var pics = JSON.parse(fig.getAttribute("data-pictures"));
        var p = pics[Math.max(0, Math.min(pics.length - 1, k))];
        var frame = fig.querySelector(".frame"), c = p.crop, s = W / Math.max(c[2], 1);
        frame.style.height = px(c[3] * s);
        frame.style.backgroundImage = "url('" + p.src + "')";
        frame.style.backgroundSize = px(p.size[0] * s) + " " + px(p.size[1] * s);
        frame.style.backgroundPosition = px(-c[0] * s) + " " + px(-c[1] * s);
        frame.setAttribute("data-frame", String(p.f));
        fig.querySelector(".frame-label").textContent = "frame " + p.f + " \u00b7 " + p.t + " s";
        var article = fig.closest("article");
        if (article) article.querySelectorAll("svg.curve").forEach(function (svg) {
          var x0 = +svg.getAttribute("data-x0"), w = +svg.getAttribute("data-width"), tmax = +svg.getAttribute("data-tmax");
          var x = x0 + Math.min(1, p.t / tmax) * w;
          var line = svg.querySelector("line.cursor");
          line.setAttribute("x1", x); line.setAttribute("x2", x);
        });
      }
      document.querySelectorAll("figure.scrubber").forEach(function (fig) {
        var input = fig.querySelector("input.scrub");
        input.addEventListener("input", function () { show(fig, +input.value); });
      });
      document.querySelectorAll(".diffviewer").forEach(function (v) {
        v.querySelectorAll(".modes button").forEach(function (b) {
          b.addEventListener("click", function () { v.setAttribute("data-mode", b.getAttribute("data-mode")); });
        });
        var slider = v.querySelector("input.diff-slider"), clip = v.querySelector(".actual-clip");
        if (slider && clip) slider.addEventListener("input", function () { clip.style.clipPath = "inset(0 0 0 " + slider.value + "%)"; });
      });
      if (location.hash !== "#selftest") return;
      var out = [], fig = document.querySelector("figure.scrubber");
      function state() {
        var f = fig.querySelector(".frame");
        return "frame=" + f.getAttribute("data-frame") + " position=" + f.style.backgroundPosition + " image=" + f.style.backgroundImage +
          " label=" + fig.querySelector(".frame-label").textContent;
      }
      if (fig) {
        var input = fig.querySelector("input.scrub");
        out.push("before: " + state());
        input.value = input.max;
        input.dispatchEvent(new Event("input", { bubbles: true }));
        out.push("after: " + state());
        var cursor = fig.closest("article").querySelector("line.cursor");
        out.push("cursor: x=" + (cursor ? cursor.getAttribute("x1") : "none"));
      } else out.push("no scrubber");
      var drawn = 0, paths = document.querySelectorAll("svg.curve path.series");
      paths.forEach(function (p) { var b = p.getBBox(); if (b.width > 0 && p.getTotalLength() > 0) drawn++; });
      out.push("curves: " + paths.length + " series, " + drawn + " drawn, " + document.querySelectorAll("svg.curve").length + " charts");
      var viewer = document.querySelector(".diffviewer[data-mode]"), slider = viewer && viewer.querySelector("input.diff-slider");
      if (slider) {
        var clip = viewer.querySelector(".actual-clip"), before = getComputedStyle(clip).clipPath;
        slider.value = 20;
        slider.dispatchEvent(new Event("input", { bubbles: true }));
        var moved = getComputedStyle(clip).clipPath;
        viewer.querySelector("button[data-mode=diff]").click();
        out.push("diff: slider " + before + " to " + moved + "; diff button shows diff=" + getComputedStyle(viewer.querySelector("img.diff")).display +
          " actual=" + getComputedStyle(clip).display + " mode=" + viewer.getAttribute("data-mode"));
        viewer.querySelector("button[data-mode=slider]").click();
      }
      var box = document.getElementById("selftest-result");
      box.textContent = out.join("\n");
      box.hidden = false;
    })();

    """#
}
