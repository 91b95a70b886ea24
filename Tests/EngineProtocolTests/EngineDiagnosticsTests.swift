import Engine
@testable import EngineProtocol
import Foundation
import Scenarios
import SimulationCore
import TestSupport
import Testing
import Traces

/// What an engine logs is bounded per run and printed on one line, in every format.
@Suite("Engine diagnostics")
struct EngineDiagnosticsTests {
    static let start = SimInstant(nanosecondsSinceEpoch: 1_000_000_000)

    static func chatty(_ mode: String) -> String { "python3 \(Paths.engines)/chatty.py \(mode)" }

    @Test("a run keeps its first 64 distinct messages; repeats of those still count, the rest are counted")
    func keepsTheFirstMessages() {
        var log = ClientDiagnostics()
        for index in 0..<100 { log.note("message \(index)", at: Self.start.advanced(bySeconds: Double(index))) }
        log.note("message 3", at: Self.start)
        log.note("message 80", at: Self.start)
        #expect(log.kept.count == 64)
        #expect(log.kept.map(\.message) == (0..<64).map { "message \($0)" })
        #expect(log.kept[3].count == 2)
        #expect(log.kept[3].firstTime == Self.start.advanced(bySeconds: 3))
        #expect(log.dropped == DroppedDiagnostics(messages: 36, occurrences: 37))
    }

    @Test("160,000 distinct messages are filed with at most two lookups each, 64 kept (not a search of those before)")
    func manyDistinctMessages() {
        var log = ClientDiagnostics()
        for index in 0..<160_000 { log.note("distinct message \(index)", at: Self.start) }
        #expect(log.kept.count == 64)
        #expect(log.dropped == DroppedDiagnostics(messages: 159_936, occurrences: 159_936))
        // One lookup for a kept message, two for a dropped one: the work grows with the
        // messages, not with their square.
        #expect(log.lookups == 64 + 2 * 159_936)
    }

    @Test("past 262,144 distinct dropped messages the count is a lower bound, and says so")
    func droppedCountIsBounded() {
        var log = ClientDiagnostics()
        let total = ClientDiagnostics.maximumMessages + ClientDiagnostics.maximumCountedDroppedMessages
        for index in 0..<total { log.note("m\(index)", at: Self.start) }
        #expect(log.dropped == DroppedDiagnostics(messages: 262_144, occurrences: 262_144))
        log.note("m70", at: Self.start)
        #expect(log.dropped == DroppedDiagnostics(messages: 262_144, occurrences: 262_145))
        log.note("one more", at: Self.start)
        #expect(log.dropped == DroppedDiagnostics(messages: 262_144, occurrences: 262_146, isLowerBound: true))
        log.note("m71", at: Self.start)
        #expect(log.dropped == DroppedDiagnostics(messages: 262_144, occurrences: 262_147, isLowerBound: true))
    }

    @Test("a message over 1,024 bytes is cut at a character and marked with an ellipsis")
    func longMessageIsCut() {
        var log = ClientDiagnostics()
        log.note(String(repeating: "é", count: 1_500), at: Self.start)
        log.note(String(repeating: "é", count: 1_600), at: Self.start)
        let kept = log.kept.map(\.message)
        // 510 two-byte characters and the three-byte "…": 1,023 bytes, the 512th "é" would not fit.
        #expect(kept == [String(repeating: "é", count: 510) + "…"])
        #expect(log.kept[0].count == 2)
        #expect(ClientDiagnostics.cut(String(repeating: "a", count: 1_024)) == String(repeating: "a", count: 1_024))
        #expect(ClientDiagnostics.cut(String(repeating: "a", count: 1_025)).utf8.count == 1_024)
    }

    @Test(
        "control characters become visible escapes, so a message is one line",
        arguments: [
            ("\u{1B}[2J\u{1B}[Hcleared", #"\u{1B}[2J\u{1B}[Hcleared"#),
            ("ok\nFAIL x", #"ok\nFAIL x"#), ("a\rb\tc", #"a\rb\tc"#), ("bell\u{07}", #"bell\u{7}"#),
            ("del\u{7F}", #"del\u{7F}"#), ("c1\u{85}", #"c1\u{85}"#), ("sep\u{2028}\u{2029}", #"sep\u{2028}\u{2029}"#),
            ("plain é ✓ text", "plain é ✓ text"),
        ])
    func printableText(raw: String, printed: String) {
        #expect(VisibleText.escapingControls(raw) == printed)
    }

    @Test("an engine's failure message is one line, its control characters escaped")
    func failureMessageIsOneLine() {
        #expect(
            EngineFailure("run x: unknown type '\u{1B}]0;title\u{07}'\nFAIL").message == #"run x: unknown type '\u{1B}]0;title\u{7}'\nFAIL"#
        )
    }

    @Test("an engine that logs 200 distinct messages keeps 64 in its run; what it dropped is in every format")
    func droppedDiagnosticsReachEveryFormat() async throws {
        let scenario = try #require(Scenario.preset(named: "always-precise"))
        let pool = EngineProcessPool(command: Self.chatty("distinct"), timeoutSeconds: 30)
        let run = try await offPool {
            try ScenarioRunner.run(
                SubprocessEngineTests.pixel6, scenario, engine: .subprocess(pool: pool), traceName: "pixel6")
        }
        #expect(run.diagnostics.count == 64)
        #expect(run.diagnostics.last?.message == "message 63")
        // 136 of the first burst, and "again" at the other 10 fixes the app gets before it is suspended.
        #expect(run.droppedDiagnostics == DroppedDiagnostics(messages: 137, occurrences: 146))

        let base = [
            "matrix", Paths.pixel6, "--scenarios", "always-precise", "--date", "2020-02-07",
            "--engine-command", Self.chatty("distinct"),
        ]
        let json = try await offPool { runCommand(base + ["--format", "json"]) }
        #expect(json.exitCode == 0, "\(json.error)")
        #expect(json.output.contains(#""droppedDiagnostics":{"messages":137,"occurrences":146}"#))
        let text = try await offPool { runCommand(base) }
        #expect(
            text.output.contains(
                "engine diagnostics not kept: 137 distinct messages (146 times) in 1 run, beyond each run's first 64"),
            "\(text.output)")
        // The saved runs print the same tables: the dropped counts are read back.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("dropped-\(getpid()).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        let lines = try await offPool { runCommand(base + ["--format", "jsonl"]) }
        try lines.output.write(to: file, atomically: true, encoding: .utf8)
        let summary = try await offPool { runCommand(["summarize", file.path]) }
        #expect(summary.exitCode == 0, "\(summary.error)")
        #expect(summary.output == text.output)
    }

    @Test(
        "control characters an engine logs are escaped in every format, one line per diagnostic",
        arguments: ["text", "markdown", "html", "json", "jsonl", "csv"])
    func controlCharactersAreEscaped(format: String) async throws {
        let result = try await offPool {
            runCommand([
                "matrix", Paths.pixel6, "--scenarios", "always-precise", "--date", "2020-02-07", "--format", format,
                "--engine-command", Self.chatty("control"),
            ])
        }
        #expect(result.exitCode == 0, "\(result.error)")
        let raw = result.output.unicodeScalars.filter { $0 != "\n" && VisibleText.needsEscape($0) }
        #expect(raw.isEmpty, "\(raw.map { String($0.value, radix: 16) })")
        #expect(!result.output.contains("\nFAIL"))
        switch format {
        case "json", "jsonl":
            // JSON escapes them its own way, and reads back the engine's very text.
            #expect(result.output.contains(#"ok\nFAIL always-precise collectionRatio"#))
            #expect(result.output.contains(#"next line\u0085here"#))
            #expect(result.output.contains(#"separator\u2028here"#))
        case "csv":
            break
        default:
            #expect(result.output.contains(#"\u{1B}[2J\u{1B}[Hcleared"#))
            #expect(result.output.contains(#"ok\nFAIL always-precise collectionRatio"#))
            #expect(result.output.contains(#"separator\u{2028}here"#))
        }
    }
}
