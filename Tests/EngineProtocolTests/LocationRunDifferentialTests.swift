import Device
@testable import EngineProtocol
import Foundation
import Scenarios
import SimulationCore
import TestSupport
import Testing
import Traces

/// The protocol's differential check in runs (issue 32): the built-in engine behind
/// `serve-engine`, declaring runs and not, prints exactly what it prints in-process, over every
/// bundled trace and preset; and when declared, runs were really sent.
@Suite("Runs differential", .enabled(if: TestTier.isSlow, "every bundled trace and preset through serve-engine: slow tier"))
struct LocationRunDifferentialTests {
    /// A client that takes runs and counts how many it was handed.
    struct RunProbe: LocationClient {
        var runs = 0
        var takesLocationRuns: Bool { true }

        mutating func start(
            _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
        ) {
            requests.append(.device(.startedLocationUpdates(LocationUpdateOptions())))
        }
        mutating func didUpdateLocations(
            _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
        ) {}
        mutating func didUpdateLocationRun(
            _ run: LocationRun, into requests: inout [LocationClientRequest<Never>]
        ) -> Int {
            runs += 1
            return run.deliveries.count
        }
        mutating func finish(at now: SimInstant) {}
    }

    /// Whether the replay hands runs to a client that takes them. Until it does (issue 32's
    /// replay work), a subprocess engine that declares runs is sent none, and the check below
    /// that runs were used waits for it; from then on it must hold.
    static let replayHandsRuns: Bool = {
        guard let scenario = Scenario.preset(named: "ideal"),
            let trace = try? TraceImporter.load(path: Paths.pixel6)
        else { return false }
        return ScenarioRunner.replay(trace, scenario, client: RunProbe()).replay.client.runs > 0
    }()

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
            if !declaresRuns {
                #expect(used.messages == 0)
            } else if Self.replayHandsRuns {
                #expect(used.messages > 0 && used.locations >= used.messages, "runs declared but not used")
            }
        }
    }
}
