import Fleet
import Foundation
import Reports
import Scenarios
import SimulationCore
import Testing
import Traces

/// Long runs are drawn at what the screen can show: above 20,000 fixes the map keeps one point
/// per pixel cell and a deliveries band merges ticks closer than half a pixel.
@Suite("HTML thinning")
struct HTMLThinningTests {
    /// `loops` times round the same 3,000-fix circle (about 1 km across) at 1 Hz, every 997th
    /// fix with a 500 m accuracy the gate rejects.
    static func loop(fixes count: Int) -> Trace {
        let start = SimInstant(nanosecondsSinceEpoch: 1_650_000_000_000_000_000)
        let fixes = (0..<count).map { index in
            let angle = Double(index % 3000) / 3000 * 2 * Double.pi
            return Fix(
                timestamp: start.advanced(bySeconds: Double(index)), latitude: 37.4 + 0.0045 * sin(angle),
                longitude: -122.1 + 0.0057 * cos(angle), horizontalAccuracy: .meters(index % 997 == 500 ? 500 : 5),
                provider: .gps)
        }
        return Trace(fixes: fixes, provenance: TraceProvenance(format: .canonicalCSV))
    }

    private func page(_ trace: Trace) throws -> (html: String, cell: Matrix.Cell) {
        let matrix = Matrix(
            traces: [Matrix.NamedTrace(name: "loop", trace: trace)], scenarios: [Matrix.Entry(Fixture.preset("ideal"))])
        let cell = try #require(try matrix.run().cells.first)
        let html = HTMLReport.run(
            cell.run, ideal: cell.ideal, metrics: cell.metrics, trace: trace, named: "loop", fences: [])
        return (html, cell)
    }

    private func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    /// The `d` attribute of the path with this class.
    private func path(_ html: String, class name: String) -> String? {
        guard let range = html.range(of: "<path class=\"\(name)\" d=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test("20,000 fixes are drawn one by one; 20,001 are thinned and say so")
    func threshold() throws {
        let (full, fullCell) = try page(Self.loop(fixes: 20_000))
        #expect(count("<circle class=", in: full) == 20_000)
        #expect(count("<rect class=\"delivery\"", in: full) == 2 * fullCell.metrics.deliveredFixes)
        #expect(!full.contains("Thinned"))
        let (thinned, _) = try page(Self.loop(fixes: 20_001))
        #expect(count("<circle class=", in: thinned) == 0)
        #expect(thinned.contains("<p class=\"legend\">Thinned to the screen: 20001 fixes drawn as "))
        #expect(path(thinned, class: "trace") != nil)
    }

    @Test("thinning keeps one dot per pixel cell per kind: going round ten times more adds nothing to the map")
    func repeatsAddNothing() throws {
        let (few, fewCell) = try page(Self.loop(fixes: 30_000))
        let (many, manyCell) = try page(Self.loop(fixes: 120_000))
        #expect(fewCell.metrics.acceptedFixes < manyCell.metrics.acceptedFixes)
        // The same circle: the same line and the same dots.
        #expect(path(few, class: "trace") == path(many, class: "trace"))
        #expect(path(few, class: "dots accepted") == path(many, class: "dots accepted"))
        // Every 997th fix is rejected: 120 of them, at places that drift round the circle. Each
        // gets a dot; two in one cell share it.
        let rejectedDots = try #require(path(many, class: "dots rejected"))
        let rejectedFixes = manyCell.metrics.deliveredFixes - manyCell.metrics.acceptedFixes
        #expect(rejectedFixes == 120)
        #expect(count("M", in: rejectedDots) > 0 && count("M", in: rejectedDots) <= rejectedFixes)
        #expect(count("h0", in: rejectedDots) == count("M", in: rejectedDots))
        #expect(many.utf8.count < 5_000_000)
    }

    @Test("a thinned deliveries band merges ticks into bars that still count every delivery")
    func deliveriesBars() throws {
        let (html, cell) = try page(Self.loop(fixes: 30_000))
        var counted = 0
        var search = html[...]
        while let range = search.range(of: "<rect class=\"delivery\"") {
            let rest = search[range.upperBound...]
            guard let title = rest.range(of: "<title>"), let end = rest.range(of: "</title>") else { break }
            let text = rest[title.upperBound..<end.lowerBound]
            counted += text == "delivery" ? 1 : Int(text.split(separator: " ")[0]) ?? 0
            search = rest[end.upperBound...]
        }
        // The run's band and the ideal run's.
        #expect(counted == 2 * cell.metrics.deliveredFixes)
        #expect(count("<rect class=\"delivery\"", in: html) < 100)
    }
}
