import Device
import Engine
import Foundation
import Scenarios
import SimulationCore
import Synchronization
import TestSupport
import Testing

/// `tune` on a team's own Swift engine (issue 30 §7): the engine declares its settings, tune
/// sweeps them, and every run's client is built with the row's values. Fast tier.
@Suite("tune on an engine of one's own")
struct TuneOwnEngineTests {
    static let bike = Repository.trace("gpsbabel/bike.tcx")
    static let drive = Repository.trace("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")

    static let settings = [
        EngineSetting(
            name: "keepEvery", kind: .integer(1...100), defaultValue: .number(1), summary: "record every n-th fix"),
        EngineSetting(name: "mode", kind: .choice(["all", "none"]), defaultValue: .token("all")),
    ]

    /// An engine made for the test that notes the `keepEvery` each run was built with.
    static func keeper(_ seen: SeenValues, settings: [EngineSetting] = settings) -> EngineUnderTest {
        .custom(named: "keeper", settings: settings) { context in
            let keepEvery = context.settings.number("keepEvery") ?? -1
            seen.values.withLock { $0.append(keepEvery) }
            return KeepingClient(
                context.settings.choice("mode") == "none" ? .nothing : .recordingEvery(Int(keepEvery)))
        }
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    private func metric(_ rows: [[String: Any]], _ name: String) -> [Int] {
        rows.compactMap { ($0["metrics"] as? [String: Any])?[name] as? Int }
    }

    @Test("a Swift engine's declared setting is swept: each run is built with its row's value, and the rows differ")
    func sweepsADeclaredSetting() throws {
        let seen = SeenValues()
        let result = runCommand(
            ["tune", Self.bike, "--sweep", "keepEvery=1,2,5", "--jobs", "1", "--format", "json"], engine: Self.keeper(seen))
        #expect(result.exitCode == 0, "\(result.error)")
        // The reference run has the default (1), then one run per row.
        #expect(seen.values.withLock { $0 } == [1, 1, 2, 5])
        let study = try json(result.output)
        let rows = try #require(study["rows"] as? [[String: Any]])
        let delivered = try #require(metric(rows, "deliveredFixes").first)
        #expect(metric(rows, "deliveredFixes") == [delivered, delivered, delivered])
        // Every n-th delivered fix is recorded: 1, 2, 5 give exactly these counts.
        #expect(metric(rows, "recordedFixes") == [delivered, (delivered + 1) / 2, (delivered + 4) / 5])
        #expect(rows.map { ($0["values"] as? [String: Any])?["keepEvery"] as? Int } == [1, 2, 5])
        #expect((study["inertParameters"] as? [String])?.isEmpty == true)
    }

    @Test("--sweep names only what the engine declares; a choice setting is swept by its words")
    func sweepNamesTheEngineSettings() {
        let unknown = runCommand(["tune", Self.bike, "--sweep", "distanceFilter=10,20"], engine: Self.keeper(SeenValues()))
        #expect(unknown.exitCode == 64)
        #expect(
            unknown.error.hasPrefix("error: --sweep: unknown parameter 'distanceFilter' (one of: keepEvery, mode)\n"),
            "\(unknown.error)")
        let outOfRange = runCommand(["tune", Self.bike, "--sweep", "keepEvery=0,2"], engine: Self.keeper(SeenValues()))
        #expect(outOfRange.exitCode == 64)
        #expect(outOfRange.error.contains("keepEvery must be between 1 and 100, not 0"), "\(outOfRange.error)")
        let fraction = runCommand(["tune", Self.bike, "--sweep", "keepEvery=1.5"], engine: Self.keeper(SeenValues()))
        #expect(fraction.error.contains("keepEvery takes whole numbers, not 1.5"), "\(fraction.error)")
        let choice = runCommand(
            ["tune", Self.bike, "--sweep", "mode=all,none", "--format", "csv"], engine: Self.keeper(SeenValues()))
        #expect(choice.exitCode == 0, "\(choice.error)")
        let lines = choice.output.split(separator: "\n")
        #expect(lines.count == 3 && lines[1].hasPrefix("1,ideal,all,") && lines[2].hasPrefix("2,ideal,none,0,"))
        let none = EngineUnderTest.custom(named: "plain") { _ in KeepingClient(.recordingEvery(1)) }
        let undeclared = runCommand(["tune", Self.bike, "--sweep", "keepEvery=1"], engine: none)
        #expect(undeclared.exitCode == 64)
        #expect(
            undeclared.error.hasPrefix(
                "error: --sweep: unknown parameter 'keepEvery': the engine under test declares no settings"),
            "\(undeclared.error)")
    }

    @Test(
        "a malformed declaration fails with 70, naming the setting and what is wrong",
        arguments: [
            (
                [
                    EngineSetting(name: "a", kind: .bool, defaultValue: .bool(true)),
                    EngineSetting(name: "a", kind: .bool, defaultValue: .bool(false)),
                ],
                "setting 'a' is declared twice"
            ),
            (
                [EngineSetting(name: "speed", kind: .number(1...5), defaultValue: .number(9))],
                "setting 'speed': the default 9 is wrong: speed must be between 1 and 5, not 9"
            ),
            (
                [EngineSetting(name: "1st", kind: .bool, defaultValue: .bool(true))],
                "setting name '1st' is not 1 to 64 ASCII letters"
            ),
            (
                [EngineSetting(name: "mode", kind: .choice([]), defaultValue: .token("x"))],
                "setting 'mode' has no choices"
            ),
            (
                [EngineSetting(name: "level", kind: .number(-Double.infinity...1), defaultValue: .number(0))],
                "setting 'level': the range must be finite numbers"
            ),
        ])
    func malformedDeclarations(settings: [EngineSetting], message: String) {
        let result = runCommand(["tune", Self.bike], engine: Self.keeper(SeenValues(), settings: settings))
        #expect(result.exitCode == 70)
        #expect(
            result.error.hasPrefix("error: engine keeper: its hello or declaration has a malformed setting: " + message),
            "\(result.error)")
    }

    @Test("an engine honouring the built-in settings may not declare one of their names")
    func builtInNameReserved() {
        var engine = EngineUnderTest.custom(named: "adapter", honoursEngineSettings: true) { _ in
            KeepingClient(.recordingEvery(1))
        }
        // Honouring and declaring at once: an adapter of the built-in engine with one setting more.
        engine = engine.asking { [EngineSetting(name: "distanceFilter", kind: .bool, defaultValue: .bool(true))] }
        let result = runCommand(["tune", Self.bike, "--sweep", "distanceFilter=10"], engine: engine)
        #expect(result.exitCode == 70)
        #expect(result.error.contains("setting 'distanceFilter' is the name of a built-in engine setting"))
    }

    @Test("the written scenario carries the engine's own setting, and re-running it gives the row's metrics")
    func writtenScenarioKeepsEngineSettings() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tune-own-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tuned.json").path
        let tuned = runCommand(
            [
                "tune", Self.bike, "--scenario", "wheninuse-locked", "--sweep", "keepEvery=3,7", "--objective",
                "recordedFixes:min", "--write-scenario", file, "--format", "json",
            ], engine: Self.keeper(SeenValues()))
        #expect(tuned.exitCode == 0, "\(tuned.error)")
        let chosen = try #require(try json(tuned.output)["chosen"] as? [String: Any])
        #expect(chosen["row"] as? Int == 2)
        let scenario = try #require(chosen["scenario"] as? [String: Any])
        #expect((scenario["engineSettings"] as? [String: Any])?["keepEvery"] as? Int == 7)
        let seen = SeenValues()
        let again = runCommand(["tune", Self.bike, "--scenario", file, "--format", "json"], engine: Self.keeper(seen))
        #expect(again.exitCode == 0, "\(again.error)")
        #expect(seen.values.withLock { $0 } == [1, 7])
        let rows = try #require(try json(tuned.output)["rows"] as? [[String: Any]])
        let rerun = try #require(try json(again.output)["rows"] as? [[String: Any]])
        #expect(
            NSDictionary(dictionary: try #require(rerun[0]["metrics"] as? [String: Any]))
                == NSDictionary(dictionary: try #require(rows[1]["metrics"] as? [String: Any])))
        // The built-in engine declares no settings of its own: the file is refused with 70.
        let builtIn = runCommand(["replay", Self.bike, "--scenario", file])
        #expect(builtIn.exitCode == 70)
        #expect(builtIn.error.contains("engineSettings names 'keepEvery', but the built-in engine declares no settings"))
    }
}

extension TuneOwnEngineTests {
    @Test("a row whose kept path runs beyond the trace's is warned about, in text and JSON, so maximising it is seen")
    func rowBeyondTheTraceIsWarned() throws {
        let engine = Self.keeper(SeenValues())
        let arguments = [
            "tune", Self.bike, "--scenario", "always-approximate", "--sweep", "keepEvery=1",
            "--objective", "tracePathRatio",
        ]
        let text = runCommand(arguments, engine: engine)
        #expect(text.exitCode == 0, "\(text.error)")
        #expect(text.output.contains("1 row over 1 trace;"), "\(text.output)")
        #expect(
            text.output.contains("WARNING: row 1 (always-approximate): kept path is "), "\(text.output)")
        #expect(text.output.contains("bound it with --require \"tracePathRatio<=1.05\"."))
        let json = runCommand(arguments + ["--format", "json"], engine: engine)
        let study = try self.json(json.output)
        #expect(study["schemaVersion"] as? Int == 2)
        let warnings = try #require(study["warnings"] as? [[String: Any]])
        #expect(warnings.count == 1)
        #expect(warnings.first?["code"] as? String == "pathBeyondTrace")
        #expect(warnings.first?["row"] as? Int == 1)
        #expect(try #require(warnings.first?["value"] as? Double) > 1.05)
        // The built-in engine drops reduced-accuracy fixes at its gate: no warning.
        let builtIn = runCommand(["tune", Self.bike, "--scenario", "always-approximate", "--sweep", "distanceFilter=0"])
        #expect(!builtIn.output.contains("WARNING:"), "\(builtIn.output)")
    }
}

/// The `keepEvery` values the test engine was built with, across runs and threads.
final class SeenValues: Sendable {
    let values = Mutex<[Double]>([])
}
