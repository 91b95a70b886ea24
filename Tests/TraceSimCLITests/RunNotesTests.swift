import Foundation
import TestSupport
import Testing

/// TraceSim's notes on a run are its own channel: a `note:` line in text, Markdown, HTML and
/// `check`, `"notes"` in the run JSON, never under "engine diagnostics". `track` starts its
/// `--device` phone from the ideal one, as a scenario's device block without a flow does, and
/// notes a run whose authorization never settles.
@Suite("Run notes, and track's --device over the ideal phone")
struct RunNotesTests {
    static let trace = Repository.trace("mapbox-navigation-ios/tunnel.json")
    static let unsettled = "note: location authorization never settled: it stayed notDetermined and nothing asked"
    static let unaskedScenario =
        #"{"name": "unasked", "device": {"authorization": {"location": "notDetermined"}}}"#

    private func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    private func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("track --device {} keeps the ideal phone: the same report as no --device, fixes delivered, no note")
    func trackEmptyDeviceIsTheIdealPhone() throws {
        let folder = try MergeIdentityTests.Folder()
        let empty = try folder.write("{}", "device.json")
        let oneParameter = try folder.write(#"{"parameters": {"lowPowerMode": false}}"#, "one.json")
        let ideal = runCommand(["track", Self.trace])
        #expect(ideal.exitCode == 0, "\(ideal.error)")
        #expect(!ideal.output.contains("delivered 0 "))
        for device in [empty, oneParameter] {
            let run = runCommand(["track", Self.trace, "--device", device])
            #expect(run.exitCode == 0, "\(run.error)")
            #expect(run.output == ideal.output)
        }
        let json = try object(runCommand(["track", Self.trace, "--device", empty, "--format", "json"]).output)
        #expect(json["notes"] == nil)
        #expect(((json["fixes"] as? [String: Any])?["delivered"] as? Int ?? 0) > 0)
    }

    @Test("track with a phone left notDetermined delivers nothing and says why, in text and JSON")
    func trackUnsettledIsNoted() throws {
        let folder = try MergeIdentityTests.Folder()
        let fresh = try folder.write(#"{"authorization": {"location": "notDetermined"}}"#, "fresh.json")
        let text = runCommand(["track", Self.trace, "--device", fresh])
        #expect(text.exitCode == 0, "\(text.error)")
        #expect(text.output.contains("delivered 0 "))
        #expect(lines(text.output).last?.hasPrefix(Self.unsettled) == true, "\(text.output)")
        #expect(lines(text.output).last?.hasSuffix("(from +0.0 s)") == true, "\(text.output)")
        let json = try object(runCommand(["track", Self.trace, "--device", fresh, "--format", "json"]).output)
        let notes = try #require(json["notes"] as? [[String: Any]])
        #expect(notes.count == 1)
        #expect((notes.first?["message"] as? String)?.hasPrefix("location authorization never settled") == true)
        #expect(notes.first?["atSeconds"] as? Double == 0)
    }

    @Test("replay prints the note as a note, never under engine diagnostics, and JSON has notes, not diagnostics")
    func replayNoteIsNotADiagnostic() throws {
        let folder = try MergeIdentityTests.Folder()
        let scenario = try folder.write(Self.unaskedScenario, "unasked.json")
        let text = runCommand(["replay", Self.trace, "--scenario", scenario])
        #expect(text.exitCode == 0, "\(text.error)")
        #expect(text.output.contains("\n\n" + Self.unsettled), "\(text.output)")
        #expect(!text.output.contains("engine diagnostics"))
        let json = try object(runCommand(["replay", Self.trace, "--scenario", scenario, "--format", "json"]).output)
        #expect(json["diagnostics"] == nil)
        let notes = try #require(json["notes"] as? [[String: Any]])
        #expect((notes.first?["message"] as? String)?.hasPrefix("location authorization never settled") == true)
        #expect(notes.first?["t"] as? Double == 0)
        let html = runCommand(["replay", Self.trace, "--scenario", scenario, "--format", "html"])
        #expect(html.output.contains("<h2>Notes</h2><ul class=\"formulas\"><li>note: location authorization"))
        #expect(!html.output.contains("Engine diagnostics"))
        // A run with nothing to note keeps its bytes: no key, no line.
        let ideal = runCommand(["replay", Self.trace, "--scenario", "ideal", "--format", "json"])
        #expect(!ideal.output.contains("\"notes\""))
        #expect(!runCommand(["replay", Self.trace, "--scenario", "ideal"]).output.contains("note:"))
    }

    @Test("matrix tables count each note's runs, and summarize of its JSON Lines prints exactly the same")
    func matrixNotesSurviveSummarize() throws {
        let folder = try MergeIdentityTests.Folder()
        let scenario = try folder.write(Self.unaskedScenario, "unasked.json")
        let base = ["matrix", Self.trace, "--scenarios", "denied," + scenario]
        let jsonl = runCommand(base + ["--format", "jsonl"])
        #expect(jsonl.exitCode == 0, "\(jsonl.error)")
        #expect(jsonl.output.contains(#""notes":[{"message":"location authorization never settled"#))
        #expect(!jsonl.output.contains(#""diagnostics""#))
        let runs = try folder.write(jsonl.output, "runs.jsonl")
        for format in ["text", "markdown", "html"] {
            let matrix = runCommand(base + ["--format", format])
            #expect(matrix.exitCode == 0, "\(matrix.error)")
            #expect(matrix.output.contains(String(Self.unsettled.dropFirst(6))), "\(format): \(matrix.output)")
            // Markdown sets the note in a code span, as it does an engine's message.
            let close = format == "markdown" ? " `, in 1 run" : ", in 1 run"
            #expect(
                matrix.output.contains(
                    "so no location reached the app; start the phone authorized or run a "
                        + "permission flow" + close), "\(format)")
            #expect(!matrix.output.contains("engine diagnostic"), "\(format)")
            let summary = runCommand(["summarize", runs, "--format", format])
            #expect(summary.exitCode == 0, "\(summary.error)")
            #expect(summary.output == matrix.output, "\(format)")
        }
    }

    @Test("check prints the note under its verdicts, not as an engine diagnostic")
    func checkPrintsTheNote() throws {
        let folder = try MergeIdentityTests.Folder()
        _ = try folder.write(Self.unaskedScenario, "unasked.json")
        let expectations = try folder.write(
            #"{"thresholds": [{"scenario": "unasked.json", "metric": "deliveredFixes", "max": 0}]}"#, "expect.json")
        let check = runCommand(["check", Self.trace, "--expect", expectations])
        #expect(check.exitCode == 0, "\(check.output)\(check.error)")
        let note = lines(check.output).last { $0.hasPrefix("note: ") }
        #expect(note?.hasPrefix(Self.unsettled) == true, "\(check.output)")
        #expect(note?.hasSuffix(", in 1 run") == true, "\(check.output)")
        #expect(!check.output.contains("engine diagnostic"))
    }
}
