@testable import Scenarios
import ConfigJSON
import Testing
import Traces

@Suite("Expectations: threshold matching and missing values")
struct ExpectationsTests {
    static func parse(_ text: String) throws -> Expectations {
        try Expectations.parse(Array(text.utf8), file: "expect.json")
    }

    @Test("a threshold no scenario run answers to is an error at its line and column")
    func scenarioMatchesNothing() throws {
        let expectations = try Self.parse(
            "{\"thresholds\": [\n  {\"scenario\": \"denied\", \"metric\": \"timeCoverage\", \"max\": 1}]}")
        let error = #expect(throws: ConfigError.self) {
            try expectations.checkEveryThresholdApplies(
                traces: ["a.gpx"], scenarios: [(name: "allow-once", givenAs: "allow-once")])
        }
        #expect(error?.line == 2 && error?.column == 3)
        #expect(
            error?.description.hasPrefix(
                "expect.json:2:3: $.thresholds[0]: the threshold on 'timeCoverage' applies to no run: no scenario run is 'denied'"
            ) == true, "\(String(describing: error))")
        #expect(throws: Never.self) {
            try expectations.checkEveryThresholdApplies(
                traces: ["a.gpx"], scenarios: [(name: "denied", givenAs: "denied")])
        }
    }

    @Test("\"allowMissing\" decides whether a run with no value passes; it must be true or false")
    func allowMissing() throws {
        let strict = try Self.parse(#"{"thresholds": [{"scenario": "*", "metric": "distanceRatio", "min": 0.5}]}"#)
        let lenient = try Self.parse(
            #"{"thresholds": [{"scenario": "*", "metric": "distanceRatio", "min": 0.5, "allowMissing": true}]}"#)
        #expect(strict.thresholds[0].allowsMissing == false)
        #expect(lenient.thresholds[0].allowsMissing == true)
        let missing = Expectations.Verdict(trace: "a", scenario: "denied", threshold: strict.thresholds[0], value: nil)
        #expect(!missing.passed)
        var allowed = missing
        allowed.threshold = lenient.thresholds[0]
        #expect(allowed.passed)
        allowed.value = 0.4
        #expect(!allowed.passed, "allowMissing relaxes nothing but the missing case")
        #expect(throws: ConfigError.self) {
            try Self.parse(#"{"thresholds": [{"scenario": "*", "metric": "distanceRatio", "min": 0.5, "allowMissing": 1}]}"#)
        }
    }
}
