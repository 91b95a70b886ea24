import Device
import Engine
import Fleet
import Geometry
import Scenarios
import SimulationCore
import Synchronization
import TestSupport
import Testing
import Traces

/// A team's engine plugs into the same matrix as the built-in one: made fresh for every run,
/// told the run's scenario and trace, measured on its own record, failing the run cleanly.
@Suite("Engine under test")
struct EngineUnderTestTests {
    static let traces: [Matrix.NamedTrace] = {
        // The bundled u-blox drive (29 min, 8.6 km, Mountain View).
        let path = Repository.trace("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")
        do { return [Matrix.NamedTrace(name: "drive", trace: try TraceImporter.load(path: path))] } catch {
            fatalError("bundled trace: \(error)")
        }
    }()
    static let names = ["always-precise", "wheninuse-locked", "denied", "always-force-quit"]

    static func matrix(_ engine: EngineUnderTest) throws -> Matrix {
        var matrix = Matrix(
            traces: traces, scenarios: try names.map { Matrix.Entry(try #require(Scenario.preset(named: $0))) })
        matrix.engine = engine
        return matrix
    }

    @Test("the built-in engine as a custom engine measures exactly as the built-in path, ideal runs included")
    func builtInAsCustomMatchesBuiltIn() throws {
        let contexts = Mutex<[String]>([])
        let custom = EngineUnderTest.custom(named: "wrapped") { context throws(EngineFailure) in
            contexts.withLock { $0.append("\(context.traceName)/\(context.scenario.name)") }
            return try GeneratedInputs.builtInClient(context)
        }
        let direct = try Self.matrix(.builtIn).run(jobs: 1)
        let wrapped = try Self.matrix(custom).run(jobs: 1)
        #expect(direct.cells.map(\.metrics) == wrapped.cells.map(\.metrics))
        #expect(direct.cells.map(\.run.recorder.recordedTimes) == wrapped.cells.map(\.run.recorder.recordedTimes))
        // One client per replay: each scenario, and the ideal runs the plan shares.
        let made = contexts.withLock { $0 }
        #expect(made.count == (try Self.matrix(.builtIn)).replayCount())
        #expect(made.contains("drive/ideal"))
        #expect(made.contains("drive/always-force-quit"))
    }

    @Test("an engine that cannot be made fails the run with its own message")
    func failureToMakeIsAFailure() throws {
        let attempts = Atomic<Int>(0)
        let broken = EngineUnderTest.custom(named: "broken") { _ throws(EngineFailure) in
            attempts.add(1, ordering: .relaxed)
            throw EngineFailure("no engine here")
        }
        let matrix = try Self.matrix(broken)
        do {
            _ = try matrix.run(jobs: 1)
            Issue.record("the run should have failed")
        } catch {
            #expect(error.description == "no engine here")
        }
        // The first failure stops the matrix: an engine that cannot start is not tried (and
        // timed out) once per run.
        #expect(attempts.load(ordering: .relaxed) == 1)
    }

    @Test("an engine that reports a failure mid-run fails the run; its diagnostics reach the run")
    func failureMidRunIsAFailure() throws {
        let failing = try Self.matrix(.custom(named: "failing") { _ in FailingClient(failsAfter: 10) })
        do {
            _ = try failing.run(jobs: 1)
            Issue.record("the run should have failed")
        } catch {
            #expect(error.description == "gave up after 10 fixes")
        }
        let healthy = EngineUnderTest.custom(named: "healthy") { _ in FailingClient(failsAfter: .max) }
        let result = try Self.matrix(healthy).run(jobs: 1)
        let diagnostics = try #require(result.cells.first?.run.diagnostics.first)
        #expect(diagnostics.message == "saw a location")
        #expect(diagnostics.count == result.cells.first?.run.recorder.deliveredFixCount)
    }
}

/// Counts locations and gives up after `failsAfter` of them.
private struct FailingClient: RecordingClient {
    let failsAfter: Int
    var recorder = Recorder()
    var odometerMeters: Double { 0 }
    var diagnostics: [ClientDiagnostic] = []
    var failure: EngineFailure?

    mutating func start(
        _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        requests.append(.device(.startedLocationUpdates(LocationUpdateOptions(allowsBackgroundLocationUpdates: true))))
    }

    mutating func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        for delivery in locations {
            recorder.fixDelivered()
            diagnostics.note("saw a location", at: delivery.time)
        }
        if recorder.deliveredFixCount >= failsAfter, failure == nil {
            failure = EngineFailure("gave up after \(failsAfter) fixes")
        }
    }

    func finish(at now: SimInstant) {}
}
