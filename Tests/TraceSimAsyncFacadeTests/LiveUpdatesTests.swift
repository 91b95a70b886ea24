import Device
import Engine
import Fleet
import Foundation
import Scenarios
import SimulationCore
import Testing
import TraceSimCoreLocation
import Traces

/// What a live-updates consumer saw: each location's fix and delivery instant, and the
/// virtual clock when it handled it.
private struct Heard: Sendable, Equatable {
    var fix: Fix
    var deliveredAt: SimInstant?
    var now: Date
}

/// Replays the drive with an app that, at launch, starts a task consuming live updates
/// (stopping after `limit` of them).
private func consume(_ scenario: Scenario, limit: Int = .max) async -> (heard: [Heard], outcome: ReplayOutcome) {
    await onOwnThread {
        let heard = Log<Heard>()
        let outcome = replayApp(scenario) {
            Task(executorPreference: appTasks) {
                var count = 0
                for try await update in CLLocationUpdate.liveUpdates() {
                    guard let location = update.location else { continue }
                    heard.append(Heard(fix: location.fix, deliveredAt: location.deliveredAt, now: AppClock.now))
                    count += 1
                    if count == limit { break }
                }
            }
            return NSObject()
        }
        return (heard.entries, outcome)
    }
}

@Suite("CLLocationUpdate.liveUpdates", .serialized)
struct LiveUpdatesTests {
    @Test("a consumer started at launch receives exactly a delegate app's deliveries under always-precise, twice over")
    func consumerReceivesTheDelegateAppsDeliveries() async throws {
        let scenario = try preset("always-precise")
        let reference = ScenarioRunner.replay(
            drive, scenario,
            client: ReferenceClient(
                options: LocationUpdateOptions(
                    allowsBackgroundLocationUpdates: true, pausesLocationUpdatesAutomatically: false))
        ).replay.client.deliveries
        #expect(reference.count == drive.fixes.count)
        let first = await consume(scenario)
        let second = await consume(scenario)
        #expect(first.heard.count == reference.count)
        #expect(first.heard.map(\.fix) == reference.map(\.fix))
        #expect(first.heard.map(\.deliveredAt) == reference.map(\.time))
        // The consumer runs at each delivery's virtual instant.
        #expect(first.heard.map(\.now) == reference.map { Date(timeIntervalSince1970: $0.time.secondsSinceEpoch) })
        #expect(first.heard == second.heard)
        #expect(first.outcome.deliveryTimes == second.outcome.deliveryTimes)
        #expect(first.outcome.diagnostics.isEmpty)
    }

    @Test("leaving the loop stops the updates on the phone at once")
    func leavingTheLoopStopsUpdates() async throws {
        let result = await consume(try preset("always-precise"), limit: 5)
        #expect(result.heard.count == 5)
        #expect(result.outcome.deliveryTimes.count == 5)
        #expect(result.outcome.deliveryTimes == Array(drive.fixes.prefix(5).map(\.timestamp)))
    }

    @Test("a denied app gets one update without a location that says authorization is denied")
    func deniedAppGetsADiagnosticUpdate() async throws {
        let scenario = try preset("denied")
        let updates: [String] = await onOwnThread {
            let seen = Log<String>()
            _ = replayApp(scenario) {
                Task(executorPreference: appTasks) {
                    for try await update in CLLocationUpdate.liveUpdates(.automotiveNavigation) {
                        seen.append(
                            "location \(update.location != nil) denied \(update.authorizationDenied) "
                                + "stationary \(update.isStationary)")
                    }
                }
                return NSObject()
            }
            return seen.entries
        }
        #expect(updates == ["location false denied true stationary false"])
    }

    @Test("outside a replay the sequence ends at once")
    func endsOutsideAReplay() async throws {
        var count = 0
        for try await _ in CLLocationUpdate.liveUpdates() { count += 1 }
        #expect(count == 0)
    }
}

/// An app whose only tracking is a live-updates consumer, as a matrix engine.
private let liveUpdatesEngine = EngineUnderTest.custom(named: "live-updates") { _ in
    CoreLocationApp {
        Task(executorPreference: appTasks) { for try await _ in CLLocationUpdate.liveUpdates() {} }
        return NSObject()
    }
}

@Suite("Live updates in a matrix", .serialized)
struct LiveUpdatesMatrixTests {
    @Test("a matrix of live-updates apps measures the same on one worker and on two, with no diagnostics")
    func matrixIsDeterministicAcrossWorkers() async throws {
        let names = ["always-precise", "wheninuse-locked", "wheninuse-background-session", "denied", "always-force-quit"]
        var matrix = Matrix(
            traces: [Matrix.NamedTrace(name: "drive", trace: drive)],
            scenarios: try names.map { Matrix.Entry(try preset($0)) })
        matrix.engine = liveUpdatesEngine
        let plan = matrix
        let runs: [MatrixResult] = try await onOwnThread {
            Result { () throws(RunFailure) in try [1, 2, 2].map { jobs throws(RunFailure) in try plan.run(jobs: jobs) } }
        }.get()
        #expect(runs.flatMap { $0.cells.flatMap(\.run.diagnostics) }.isEmpty)
        let results = runs.map { $0.cells.map(\.run.deliveryTimes) }
        #expect(results[0] == results[1])
        #expect(results[0] == results[2])
        // always-precise receives every fix; denied receives none.
        #expect(results[0].map(\.count).contains(drive.fixes.count))
        #expect(results[0].map(\.count).contains(0))
    }
}

/// A delegate that counts its locations.
private final class CountingDelegate: NSObject, CLLocationManagerDelegate {
    let manager = CLLocationManager()
    let count = Log<Int>()

    override init() {
        super.init()
        manager.delegate = self
        manager.allowsBackgroundLocationUpdates = true
        manager.startUpdatingLocation()
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        count.append(locations.count)
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
}

@Suite("Live updates beside managers and sessions", .serialized)
struct LiveUpdatesSharingTests {
    @Test("leaving a live-updates loop does not stop a delegate manager's updates")
    func loopEndLeavesManagersRunning() async throws {
        let scenario = try preset("always-precise")
        let result: (consumed: Int, delegated: Int, delivered: Int) = await onOwnThread {
            let consumed = Log<Int>()
            var delegate: CountingDelegate?
            let outcome = replayApp(scenario) {
                let made = CountingDelegate()
                delegate = made
                Task(executorPreference: appTasks) {
                    for try await _ in CLLocationUpdate.liveUpdates() {
                        consumed.append(1)
                        if consumed.entries.count == 5 { break }
                    }
                }
                return made
            }
            return (consumed.entries.count, delegate?.count.entries.reduce(0, +) ?? -1, outcome.deliveryTimes.count)
        }
        #expect(result.consumed == 5)
        #expect(result.delegated == drive.fixes.count)
        #expect(result.delivered == drive.fixes.count)
    }

    @Test("a When-In-Use consumer needs a background activity session to keep receiving after the lock")
    func whenInUseConsumerNeedsASession() async throws {
        let scenario = try preset("wheninuse-locked")
        let counts: [Int] = await onOwnThread {
            [false, true].map { holdsSession in
                let heard = Log<Int>()
                _ = replayApp(scenario) {
                    let session = holdsSession ? CLBackgroundActivitySession() : nil
                    Task(executorPreference: appTasks) {
                        for try await update in CLLocationUpdate.liveUpdates() where update.location != nil {
                            heard.append(1)
                        }
                        session?.invalidate()
                    }
                    return NSObject()
                }
                return heard.entries.count
            }
        }
        // Without: the fixes up to the 70 s cutoff after the lock at 60 s; with: all of them.
        #expect(counts == [130, drive.fixes.count])
    }
}
