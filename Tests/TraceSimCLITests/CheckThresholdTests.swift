import Foundation
import TestSupport
import Testing

/// `tracesim check` never passes a threshold it did not check: one that applies to no run is
/// an error, an unknown scenario is an error in the file, and a metric with no value fails
/// unless the threshold allows it.
@Suite("tracesim check: thresholds that match nothing, unknown scenarios, missing values")
struct CheckThresholdTests {
    static let bike = Repository.trace("gpsbabel/bike.tcx")

    private func file(_ text: String, _ suffix: String = "json") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-\(UUID().uuidString).\(suffix)")
        try Data(text.utf8).write(to: url)
        return url
    }

    private func firstLine(_ text: String) -> String { String(text.split(separator: "\n").first ?? "") }

    @Test("a threshold whose trace filter matches no trace is an error at the threshold, not '0 checks'")
    func traceFilterMatchesNothing() throws {
        let expect = try file(
            """
            {"thresholds": [
              {"scenario": "denied", "metric": "timeCoverage", "max": 1},
              {"scenario": "denied", "trace": "walk.gpx", "metric": "timeCoverage", "max": 1}]}
            """)
        defer { try? FileManager.default.removeItem(at: expect) }
        let result = runCommand(["check", Self.bike, "--expect", expect.path])
        #expect(result.exitCode == 65)
        #expect(
            firstLine(result.error)
                == "error: \(expect.path):3:3: $.thresholds[1]: the threshold on 'timeCoverage' applies to no run: "
                + "no trace given ends with 'walk.gpx' (1 trace given)")
        #expect(!result.output.contains("checks"), "nothing is judged before the file is right")
    }

    @Test("an unknown scenario is a content error at its line and column, with a suggestion")
    func unknownScenario() throws {
        let expect = try file("{\"thresholds\": [\n  {\"scenario\": \"denyed\", \"metric\": \"timeCoverage\", \"max\": 1}]}")
        defer { try? FileManager.default.removeItem(at: expect) }
        let result = runCommand(["check", Self.bike, "--expect", expect.path])
        #expect(result.exitCode == 65)
        #expect(
            firstLine(result.error)
                == "error: \(expect.path):2:16: $.thresholds[0].scenario: unknown scenario 'denyed' (did you mean 'denied'? "
                + "see 'tracesim scenarios', or name a .json file)")
    }

    @Test("a metric with no value fails as 'no value' in the log, JUnit and Markdown; allowMissing accepts it")
    func missingValue() throws {
        // A denied run keeps no fix, so its position error against the trace has no value.
        let strict = try file(#"{"thresholds": [{"scenario": "denied", "metric": "positionErrorMedianMeters", "max": 10}]}"#)
        let lenient = try file(
            #"{"thresholds": [{"scenario": "denied", "metric": "positionErrorMedianMeters", "max": 10, "allowMissing": true}]}"#
        )
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-\(UUID().uuidString).xml")
        let markdown = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-\(UUID().uuidString).md")
        defer { for url in [strict, lenient, junit, markdown] { try? FileManager.default.removeItem(at: url) } }
        let failed = runCommand([
            "check", Self.bike, "--expect", strict.path, "--junit", junit.path, "--markdown", markdown.path,
        ])
        #expect(failed.exitCode == 1)
        #expect(
            failed.output
                == "FAIL \(Self.bike) · denied · positionErrorMedianMeters = no value, expected ≤ 10\n1 check, 1 failed\n")
        #expect(try String(contentsOf: junit, encoding: .utf8).contains("positionErrorMedianMeters = no value"))
        #expect(try String(contentsOf: markdown, encoding: .utf8).contains("| ❌ |"))
        let passed = runCommand(["check", Self.bike, "--expect", lenient.path])
        #expect(passed.exitCode == 0)
        #expect(passed.output == "1 check, 0 failed\n")
    }

    @Test("allowMissing must be true or false")
    func allowMissingType() throws {
        let expect = try file(
            #"{"thresholds": [{"scenario": "denied", "metric": "timeCoverage", "max": 1, "allowMissing": "yes"}]}"#)
        defer { try? FileManager.default.removeItem(at: expect) }
        let result = runCommand(["check", Self.bike, "--expect", expect.path])
        #expect(result.exitCode == 65)
        #expect(firstLine(result.error).hasSuffix("$.thresholds[0].allowMissing: expected true or false"), "\(result.error)")
    }
}
