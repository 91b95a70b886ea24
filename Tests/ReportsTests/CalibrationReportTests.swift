import Foundation
import Reports
import Scenarios
import Testing

@Suite("Calibration report")
struct CalibrationReportTests {
    static func figure(_ quantity: String, _ simulated: Double, published: Double?, tolerance: Double?)
        -> CalibrationFigure
    {
        CalibrationFigure(
            experiment: "significant change", quantity: quantity, unit: "%", simulated: simulated,
            published: published, tolerance: tolerance, source: "a source", note: "a note")
    }

    static let figures = [
        figure("P(trigger) within 750 m", 49.125, published: 50, tolerance: 5),
        figure("P(trigger) within 2500 m", 80, published: 95, tolerance: 5),
        figure("P(trigger) within 250 m", 0, published: nil, tolerance: nil),
        CalibrationFigure(
            experiment: "When-In-Use cutoff", quantity: "fixes stop after the lock", unit: "s", simulated: .infinity,
            published: 13, tolerance: nil, source: "field", note: "not asserted"),
    ]

    @Test("text marks pass, FAIL and printed figures, rounds to a tenth and names the failures")
    func text() {
        let text = CalibrationReport.text(Self.figures, seed: 4)
        #expect(
            text == """
                Calibration against published field measurements (seed 4)

                significant change
                  P(trigger) within 750 m: simulated 49.1 %, published 50 % ± 5 %  [pass]
                    source: a source
                    note: a note
                  P(trigger) within 2500 m: simulated 80 %, published 95 % ± 5 %  [FAIL]
                    source: a source
                    note: a note
                  P(trigger) within 250 m: simulated 0 %, published -  [printed]
                    source: a source
                    note: a note

                When-In-Use cutoff
                  fixes stop after the lock: simulated never, published 13 s  [printed]
                    source: field
                    note: not asserted

                1 of 2 asserted figures within tolerance; failed: P(trigger) within 2500 m

                """)
        #expect(!CalibrationReport.passed(Self.figures))
        #expect(CalibrationReport.passed(Array(Self.figures.prefix(1))))
    }

    @Test("JSON carries each figure typed: null for what is absent or never reached, asserted and withinTolerance")
    func json() throws {
        let json = CalibrationReport.json(Self.figures, seed: 4)
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["passed"] as? Bool == false)
        let figures = try #require(object["figures"] as? [[String: Any]])
        #expect(figures.count == 4)
        #expect(figures[0]["simulated"] as? Double == 49.1)
        #expect(figures[0]["withinTolerance"] as? Bool == true)
        #expect(figures[1]["withinTolerance"] as? Bool == false)
        #expect(figures[2]["asserted"] as? Bool == false)
        #expect(figures[2]["published"] is NSNull)
        #expect(figures[3]["simulated"] is NSNull)
        #expect(json.hasPrefix(#"{"schemaVersion":1,"seed":"4","passed":false,"figures":[{"experiment":"significant change""#))
    }
}
