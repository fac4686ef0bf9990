import TransHostSupport

/// SVG line charts of a view's values over a transition's time: one chart per quantity, time
/// on x from 0 to the last frame, the series' own range on y. Each chart carries a cursor line
/// the page moves to the scrubbed frame's time (data-x0, data-width, data-tmax say where time
/// maps). Coordinates have one decimal, so the same values give the same markup.
enum CurveChart {
    static let width = 300.0, height = 112.0
    static let left = 46.0, right = 8.0, top = 16.0, bottom = 18.0
    static let colours = ["#0a6cd6", "#d6460a", "#2f9a3a"]

    /// The charts of one view: those with a series that changes.
    static func charts(_ c: ViewCurves, times: [Double]) -> [String] {
        ViewCurves.charts.compactMap { chart in
            let varying = chart.series.filter { varies(c.series[$0] ?? []) }
            guard !varying.isEmpty else { return nil }
            // x and y (or scale x and y) belong together; rotation shows only the axes that turn.
            let shown = chart.title.hasPrefix("rotation") ? varying : chart.series.filter { c.series[$0] != nil }
            return svg(title: chart.title, series: shown.map { ($0, c.series[$0] ?? []) }, times: times)
        }
    }

    static func varies(_ values: [Double?]) -> Bool {
        let v = values.compactMap { $0 }
        guard let lo = v.min(), let hi = v.max() else { return false }
        return hi - lo > 1e-6
    }

    static func svg(title: String, series: [(name: String, values: [Double?])], times: [Double]) -> String {
        let all = series.flatMap { $0.values.compactMap { $0 } }
        var lo = all.min() ?? 0, hi = all.max() ?? 1
        if hi - lo < 1e-9 { lo -= 1; hi += 1 }
        let tmax = max(times.last ?? 0, 1e-9)
        let plotW = width - left - right, plotH = height - top - bottom
        func x(_ t: Double) -> Double { left + t / tmax * plotW }
        func y(_ v: Double) -> Double { top + (hi - v) / (hi - lo) * plotH }
        var out = "<svg class=\"curve\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\""
        out += " data-x0=\"\(n(left))\" data-width=\"\(n(plotW))\" data-tmax=\"\(JSONWriter.format(tmax))\" role=\"img\" aria-label=\"\(HTML.escape(title))\">"
        out += "<rect class=\"plot\" x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(plotW))\" height=\"\(n(plotH))\"/>"
        out += "<text class=\"title\" x=\"\(n(left))\" y=\"11\">\(HTML.escape(title))</text>"
        var legendX = width - right
        for (k, s) in series.enumerated().reversed() {
            let label = legendName(s.name)
            legendX -= Double(label.count) * 6.2 + 14
            out += "<text class=\"legend\" x=\"\(n(legendX))\" y=\"11\" fill=\"\(colours[k % colours.count])\">\u{25A0} \(HTML.escape(label))</text>"
        }
        out += "<text class=\"axis\" x=\"\(n(left - 4))\" y=\"\(n(top + 4))\" text-anchor=\"end\">\(value(hi))</text>"
        out += "<text class=\"axis\" x=\"\(n(left - 4))\" y=\"\(n(top + plotH))\" text-anchor=\"end\">\(value(lo))</text>"
        out += "<text class=\"axis\" x=\"\(n(left))\" y=\"\(n(height - 4))\">0 s</text>"
        out += "<text class=\"axis\" x=\"\(n(left + plotW))\" y=\"\(n(height - 4))\" text-anchor=\"end\">\(JSONWriter.format(tmax)) s</text>"
        for (k, s) in series.enumerated() {
            var d = "", pen = false
            for (i, v) in s.values.enumerated() where i < times.count {
                guard let v else { pen = false; continue }
                d += "\(pen ? "L" : "M")\(n(x(times[i]))) \(n(y(v)))"
                pen = true
            }
            guard !d.isEmpty else { continue }
            out += "<path class=\"series\" data-series=\"\(s.name)\" stroke=\"\(colours[k % colours.count])\" d=\"\(d)\"/>"
        }
        out += "<line class=\"cursor\" x1=\"\(n(left))\" x2=\"\(n(left))\" y1=\"\(n(top))\" y2=\"\(n(top + plotH))\"/>"
        return out + "</svg>"
    }

    static func legendName(_ s: String) -> String {
        switch s {
        case "scaleX": return "x"
        case "scaleY": return "y"
        case "rotationZ": return "z"
        case "rotationY": return "y"
        case "rotationX": return "x"
        default: return s
        }
    }

    /// One decimal, no trailing zeros.
    static func n(_ v: Double) -> String { JSONWriter.format((v * 10).rounded() / 10) }
    /// An axis value: three significant decimals at most.
    static func value(_ v: Double) -> String { JSONWriter.format((v * 1000).rounded() / 1000) }
}
