@testable import EngineProtocol
import Foundation
import TestSupport
import Testing

/// The protocol's differential check in runs (issue 32): the built-in engine behind
/// `serve-engine`, declaring runs and not, prints exactly what it prints in-process, over every
/// bundled trace and preset; and when declared, runs were really sent.
@Suite("Runs differential", .enabled(if: TestTier.isSlow, "every bundled trace and preset through serve-engine: slow tier"))
struct LocationRunDifferentialTests {
    @Test("serve-engine with runs and without prints what the built-in engine prints in-process")
    func servedInRunsMatchesInProcess() async throws {
        let arguments = ["matrix", "--date", "2020-02-07"] + Repository.bundledTracePaths + ["--format", "json"]
        let direct = try await offPool { runCommand(arguments) }
        #expect(direct.exitCode == 0, "\(direct.error)")
        #expect(direct.output.contains(#""recordedFixes""#))
        for (option, declaresRuns) in [("", true), (" --no-runs", false)] {
            let pool = EngineProcessPool(command: Paths.serveEngine + option, timeoutSeconds: 30)
            let served = try await offPool { runCommand(arguments, engine: .subprocess(pool: pool)) }
            #expect(served.exitCode == 0, "serve-engine\(option): \(served.error)")
            #expect(served.output == direct.output, "serve-engine\(option) prints other bytes")
            let used = pool.runMessages
            if declaresRuns {
                #expect(used.messages > 0 && used.locations >= used.messages, "runs declared but not used")
            } else {
                #expect(used.messages == 0)
            }
        }
    }
}
