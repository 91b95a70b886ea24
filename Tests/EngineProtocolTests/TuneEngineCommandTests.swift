import Foundation
import TestSupport
import Testing

/// `tune --engine-command` end to end (issue 30 §7): an engine in Python declares settings in
/// its hello and receives the row's values in every reset. Slow tier: each engine process
/// costs seconds (Scripts/test.sh `slow_suites`).
@Suite("tune --engine-command", .enabled(if: TestTier.isSlow, "starts Python engines: slow tier"))
struct TuneEngineCommandTests {
    @Test("a Python engine's declared setting is swept: each reset carries the row's values, and the rows differ")
    func sweepsAPythonEngine() async throws {
        let notes = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: notes) }
        let result = try await offPool {
            runCommand([
                "tune", Paths.pixel6, "--date", "2020-02-07", "--engine-command",
                "python3 \(Paths.engines)/settings_engine.py \(notes.path)", "--sweep", "keep=3,10", "--sweep",
                "label=a,b", "--jobs", "1", "--format", "csv",
            ])
        }
        #expect(result.exitCode == 0, "\(result.error)")
        #expect(!result.error.contains("unknown option"))
        let received = try String(contentsOf: notes, encoding: .utf8)
        // The reference run gets the defaults, then each row its values, in row order.
        #expect(
            received == """
                {"keep": 5, "label": "a"}
                {"keep": 3, "label": "a"}
                {"keep": 3, "label": "b"}
                {"keep": 10, "label": "a"}
                {"keep": 10, "label": "b"}

                """)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines[1].hasPrefix("1,ideal,3,a,3,3,48,") && lines[3].hasPrefix("3,ideal,10,a,10,10,48,"))
    }

    @Test("the Python example declares its thresholds: its accuracy and distance filters move recordedFixes")
    func pythonExampleIsTunable() async throws {
        let result = try await offPool {
            runCommand([
                "tune", Paths.mtv, "--date", "2020-02-07", "--engine-command", "python3 \(Paths.pythonExample)",
                "--sweep", "distanceFilterMeters=0,50", "--sweep", "maxAccuracyMeters=5,100", "--format", "json",
            ])
        }
        #expect(result.exitCode == 0, "\(result.error)")
        let study = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let rows = try #require(study["rows"] as? [[String: Any]])
        let recorded = rows.compactMap { ($0["metrics"] as? [String: Any])?["recordedFixes"] as? Int }
        // A 5 m threshold rejects every fix of the SPAN log (HDOP × 7.5 m, or the assumed 10 m
        // where an epoch has no HDOP); at 100 m a 50 m filter records 141 of the 1,633 kept.
        #expect(recorded == [0, 1633, 0, 141], "\(recorded)")
    }

    @Test("an engine that breaks its declaration exits 70 naming the setting")
    func malformedDeclarationExits70() async throws {
        let hello =
            #"{"type":"hello","protocolVersion":2,"name":"x","capabilities":["settings"],"#
            + #""settings":[{"name":"a","kind":"number","min":1,"max":5,"default":9}]}"#
        let result = try await offPool {
            runCommand(["tune", Paths.pixel6, "--date", "2020-02-07", "--engine-command", "echo '\(hello)'; cat >/dev/null"])
        }
        #expect(result.exitCode == 70)
        #expect(result.error.contains("setting 'a': the default 9 is wrong: a must be between 1 and 5, not 9"), "\(result.error)")
    }
}
