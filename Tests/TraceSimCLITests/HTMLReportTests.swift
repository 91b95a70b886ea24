import Foundation
import Testing

/// The HTML reports are one self-contained file each; these count the SVG elements they must hold.
@Suite("HTML reports")
struct HTMLReportTests {
    static let drive = repositoryRoot.appendingPathComponent(
        "Traces/gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea"
    ).path
    static let fences = repositoryRoot.appendingPathComponent("Documentation/Examples/fences.geojson").path

    private func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test("replay --format html: one circle per trace fix coloured by fate, the fences, seven bands, the 70 s cutoff")
    func runPage() throws {
        let html = runCommand(["replay", Self.drive, "--scenario", "wheninuse-locked", "--fences", Self.fences, "--format", "html"])
        #expect(html.exitCode == 0)
        let json = runCommand(["replay", Self.drive, "--scenario", "wheninuse-locked", "--format", "json"])
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let metrics = try #require(object["metrics"] as? [String: Any])
        let page = html.output
        #expect(page.hasPrefix("<!DOCTYPE html>") && !page.contains("<script") && !page.contains("http://www.w3.org/1999"))
        let accepted = count("<circle class=\"accepted\"", in: page)
        let rejected = count("<circle class=\"rejected\"", in: page)
        let missed = count("<circle class=\"missed\"", in: page)
        #expect(accepted == metrics["acceptedFixes"] as? Int)
        #expect(accepted + rejected == metrics["deliveredFixes"] as? Int)
        #expect(accepted + rejected + missed == 1654)
        #expect(count("class=\"fence\"", in: page) == 2)
        #expect(count("<text class=\"label\"", in: page) == 7)
        #expect(count("<line class=\"cutoff\"", in: page) == 1)
        #expect(count("<svg ", in: page) == 2)
    }

    @Test("matrix --format html: a heatmap cell per scenario and metric")
    func matrixPage() {
        let result = runCommand(["matrix", Self.drive, "--format", "html"])
        #expect(result.exitCode == 0)
        #expect(count("<rect class=\"cell\"", in: result.output) == 14 * 4)
        #expect(count("<text class=\"label\"", in: result.output) == 14)
        #expect(result.output.contains(">wheninuse-locked</text>"))
    }
}

@Suite("Wizard storyboard and lifecycle time")
struct StoryboardTests {
    static let bike = repositoryRoot.appendingPathComponent("Traces/gpsbabel/bike.tcx").path

    @Test("a scenario running the wizard gets a storyboard frame per page and one for the close; phase seconds add up")
    func storyboard() throws {
        let scenario = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-\(UUID().uuidString).json")
        try Data(
            #"""
            {"name": "wizard-onboarding", "device": {"authorization": {"location": "notDetermined", "motion": "notDetermined"}},
             "authorization": {"flow": "wizard", "user": {"answers": [{"prompt": "location", "answer": "allowWhileUsing", "afterSeconds": 3},
               {"prompt": "upgrade", "answer": "changeToAlwaysAllow", "afterSeconds": 2}, {"prompt": "motion", "answer": "allow"}]}},
             "timeline": [{"at": 120, "event": "lock"}]}
            """#.utf8
        ).write(to: scenario)
        defer { try? FileManager.default.removeItem(at: scenario) }
        let html = runCommand(["replay", Self.bike, "--scenario", scenario.path, "--format", "html"])
        #expect(html.exitCode == 0, "\(html.error)")
        #expect(html.output.components(separatedBy: "<rect class=\"frame").count - 1 == 4)
        #expect(html.output.contains("<rect class=\"frame granted\""))
        let preset = runCommand(["replay", Self.bike, "--scenario", "always-precise", "--format", "html"])
        #expect(!preset.output.contains("class=\"storyboard\""))
        let json = runCommand(["replay", Self.bike, "--scenario", scenario.path, "--format", "json"])
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let phases = try #require(object["lifecycleSeconds"] as? [String: Double])
        // Tracking starts when the flow returns; the rest of the 1814 s ride is split between phases.
        let flow = try #require(object["flowSeconds"] as? Double)
        #expect(flow > 5 && flow < 30)
        #expect(abs(phases.values.reduce(0, +) - (1814 - flow)) < 0.01, "\(phases)")
        #expect((phases["background"] ?? 0) > 1500)
    }
}
