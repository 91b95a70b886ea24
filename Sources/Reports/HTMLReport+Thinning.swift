import Scenarios
import SimulationCore
import Traces

/// Drawing a long run at what the screen can show. A page draws every fix while it has at most
/// `thinningThreshold` of them (and every delivery while a band has at most that many), so
/// such pages are exactly what they always were. Above it:
///
/// - the map keeps one point per pixel of the drawing (a cell of 1 × 1 units of the
///   900 × 520 viewBox, which the page shows at about one screen pixel): the track line joins
///   the cells in the order the trace visits them and draws each step between two cells once,
///   and each kind of fix (accepted, rejected, never delivered) gets one dot per cell it
///   touches, at the first such fix. Every pixel the full drawing would colour is still
///   coloured, by the same kind; what goes is fixes drawn over each other.
/// - a deliveries band merges ticks less than half a pixel apart into one bar (the ticks are
///   0.8 wide, so they overlapped anyway). Every other timeline mark is an event and is kept.
///
/// A line under the map says it was thinned and how.
extension HTMLReport {
    /// Fixes (or deliveries in one band) above which a drawing is thinned.
    static let thinningThreshold = 20_000

    /// The map's track and fix dots, one point per pixel cell. `point` maps a fix to drawing
    /// units; `kind` names its layer.
    static func thinnedTrack(
        _ fixes: [Fix], point: (Fix) -> (x: Double, y: Double), kind: (Fix) -> String, into svg: inout SVGWriter
    ) -> String {
        struct Cell: Hashable, Comparable {
            var x: Int32
            var y: Int32
            static func < (lhs: Cell, rhs: Cell) -> Bool { (lhs.x, lhs.y) < (rhs.x, rhs.y) }
        }
        struct Step: Hashable {
            var from: Cell
            var to: Cell
        }
        // Each cell is drawn at the first point that entered it, so a revisit reuses the same
        // coordinates and a step drawn twice is recognisably the same step.
        var representative: [Cell: String] = [:]
        var drawnSteps: Set<Step> = []
        var path = ""
        var previous: Cell?
        var isPenDown = false
        var dots: [String: (cells: Set<Cell>, path: String)] = [:]
        for fix in fixes {
            let (x, y) = point(fix)
            let cell = Cell(x: Int32(x.rounded(.down)), y: Int32(y.rounded(.down)))
            let text: String
            if let known = representative[cell] {
                text = known
            } else {
                text = SVGWriter.number(x) + " " + SVGWriter.number(y)
                representative[cell] = text
            }
            let layer = kind(fix)
            if dots[layer, default: ([], "")].cells.insert(cell).inserted { dots[layer]?.path += "M" + text + "h0" }
            guard cell != previous else { continue }
            defer { previous = cell }
            guard let from = previous else {
                path += "M" + text
                isPenDown = true
                continue
            }
            let step = Step(from: min(from, cell), to: max(from, cell))
            if drawnSteps.insert(step).inserted {
                if !isPenDown, let start = representative[from] { path += "M" + start }
                path += "L" + text
                isPenDown = true
            } else {
                isPenDown = false
            }
        }
        svg.add("path", [("class", "trace"), ("d", path)])
        svg.add(
            "style", [],
            content: ".dots{fill:none;stroke-width:4.4;stroke-linecap:round}.dots.accepted{stroke:#2e9e4f}"
                + ".dots.rejected{stroke:#d64545}.dots.missed{stroke:#f0a030}")
        // Missed first, so the fixes the app did get are drawn on top.
        for layer in ["missed", "rejected", "accepted"] {
            guard let drawn = dots[layer] else { continue }
            svg.add("path", [("class", "dots " + layer), ("d", drawn.path)])
        }
        return "<p class=\"legend\">Thinned to the screen: \(fixes.count) fixes drawn as "
            + "\(representative.count) pixel cells (1 × 1 units of the drawing); the line visits the cells in "
            + "trace order and draws each step between two cells once, and each kind of fix keeps one dot per "
            + "cell it touches. Nothing the full drawing colours is left out; fixes drawn over each other are "
            + "drawn once.</p>"
    }

    /// Delivery ticks at `positions` (drawing units, in time order) as bars: ticks less than
    /// half a unit apart merge into one bar from the first to the last.
    static func thinnedDeliveries(_ positions: [Double]) -> [(x: Double, width: Double, count: Int)] {
        var bars: [(x: Double, width: Double, count: Int)] = []
        for position in positions {
            if let last = bars.last, position <= last.x + last.width + 0.5 {
                bars[bars.count - 1].width = max(last.width, position + 0.8 - last.x)
                bars[bars.count - 1].count += 1
            } else {
                bars.append((position, 0.8, 1))
            }
        }
        return bars
    }
}
