import Foundation
import Scenarios
import TestSupport
import Testing
import Traces

/// The library's `Comparison` and `tracesim replay` pair a run with the same reference, so an
/// embedder gets the numbers the command line prints.
@Suite("Comparison: the library and replay agree")
struct ReplayComparisonTests {
    @Test(
        "always-automatic-pause: the library's comparison gives what replay prints, not the plain ideal preset's numbers"
    )
    func automaticPause() throws {
        let path = Repository.trace("gpsbabel/google_ext.kml")
        let scenario = try #require(Scenario.preset(named: "always-automatic-pause"))
        let trace = try TraceImporter.load(path: path)
        let comparison = try Comparison(trace: trace, scenario: scenario, traceName: path)

        let result = runCommand(["replay", path, "--scenario", "always-automatic-pause", "--format", "json"])
        #expect(result.exitCode == 0, "\(result.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let printed = try #require(json["metrics"] as? [String: Any])
        let metrics = comparison.metrics
        #expect(printed["idealAcceptedFixes"] as? Int == metrics.idealAcceptedFixes)
        #expect(printed["acceptedFixes"] as? Int == metrics.acceptedFixes)
        #expect(printed["recordedFixes"] as? Int == metrics.recordedFixes)
        #expect(printed["deliveredFixes"] as? Int == metrics.deliveredFixes)

        // Pairing with the plain ideal preset by hand, as the library example once did, gives
        // another reference on this trace: the agreement above is the pairing rule's.
        let plain = try ScenarioRunner.run(trace, try #require(Scenario.preset(named: "ideal")))
        #expect(plain.recorder.acceptedFixCount != metrics.idealAcceptedFixes)
    }
}
