import Device
import Geometry
import Scenarios
import SimulationCore
import Testing
import TestSupport
import Traces

/// An app written for the test that asks the device for something every `requestEvery`
/// deliveries (a stationary region re-centred on the fix, a timer, significant changes on and
/// off), as the built-in engine does, and records every callback with its instant. With
/// `takesRuns` it takes runs of locations through its own `didUpdateLocationRun`, stopping
/// after the delivery that asked for something; without, it gets one call per location.
fileprivate struct RequestingClient: LocationClient {
    enum Timer: Sendable, Equatable { case tick(Int) }

    let takesRuns: Bool
    /// Asks for something after every this many deliveries; 0 never asks.
    let requestEvery: Int
    var delivered = 0
    var timerCount = 0
    /// Every callback, with its instant, as text.
    var seen: [String] = []
    /// How many runs were handed over, and the longest.
    var runCalls = 0
    var longestRun = 0

    var takesLocationRuns: Bool { takesRuns }

    mutating func start(
        _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {
        seen.append("\(now) start \(launch)")
        requests.append(.device(.startedLocationUpdates(LocationUpdateOptions(allowsBackgroundLocationUpdates: true))))
        requests.append(.device(.startedMotionUpdates))
        requests.append(.device(.startedVisitMonitoring))
        requests.append(.schedule(.tick(0), at: now.advanced(bySeconds: 45)))
    }

    mutating func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {
        seen.append("\(now) locations \(locations)")
        for location in locations { deliver(location, into: &requests) }
    }

    mutating func didUpdateLocationRun(
        _ run: LocationRun, into requests: inout [LocationClientRequest<Timer>]
    ) -> Int {
        runCalls += 1
        longestRun = max(longestRun, run.deliveries.count)
        var handled = 0
        for delivery in run.deliveries {
            seen.append("\(delivery.time) locations \([delivery])")
            deliver(delivery, into: &requests)
            handled += 1
            if !requests.isEmpty { break }
        }
        return handled
    }

    private mutating func deliver(_ location: LocationDelivery, into requests: inout [LocationClientRequest<Timer>]) {
        delivered += 1
        guard requestEvery > 0, delivered % requestEvery == 0 else { return }
        let center = Coordinate(latitude: location.fix.latitude, longitude: location.fix.longitude)
        switch delivered / requestEvery % 4 {
        case 0: requests.append(.device(.startedMonitoring(MonitoredRegion(identifier: "here", center: center, radiusMeters: 150))))
        case 1: requests.append(.schedule(.tick(delivered), at: location.time.advanced(bySeconds: 20)))
        case 2: requests.append(.device(.startedSignificantChanges))
        default:
            requests.append(.device(.stoppedSignificantChanges))
            requests.append(.device(.startedMonitoring(MonitoredRegion(identifier: "far", center: center, radiusMeters: 400))))
        }
    }

    mutating func didReceiveSignificantChange(
        _ location: Fix, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) { seen.append("\(now) significant change \(location)") }

    mutating func didUpdateMotionActivity(
        _ sample: MotionSample, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) { seen.append("\(now) motion \(sample)") }

    mutating func didCrossRegion(
        _ identifier: String, _ crossing: RegionCrossing, at now: SimInstant,
        into requests: inout [LocationClientRequest<Timer>]
    ) { seen.append("\(now) region \(identifier) \(crossing)") }

    mutating func didVisit(_ visit: VisitEvent, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]) {
        seen.append("\(now) visit \(visit)")
    }

    mutating func didChangeAuthorization(
        _ status: AuthorizationStatus, _ accuracy: AccuracyAuthorization, at now: SimInstant,
        into requests: inout [LocationClientRequest<Timer>]
    ) { seen.append("\(now) authorization \(status) \(accuracy)") }

    mutating func didPauseLocationUpdates(at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]) {
        seen.append("\(now) paused")
        requests.append(.device(.startedLocationUpdates(LocationUpdateOptions(allowsBackgroundLocationUpdates: true))))
    }

    mutating func didLaunch(
        _ reason: LaunchReason, inBackground: Bool, at now: SimInstant,
        into requests: inout [LocationClientRequest<Timer>]
    ) {
        seen.append("\(now) launch \(reason) \(inBackground)")
        requests.append(.device(.startedLocationUpdates(LocationUpdateOptions(allowsBackgroundLocationUpdates: true))))
    }

    mutating func timerFired(_ timer: Timer, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]) {
        seen.append("\(now) timer \(timer)")
        timerCount += 1
        if timerCount % 3 == 0 { requests.append(.device(.stoppedMonitoring(identifier: "here"))) }
        if case .tick(0) = timer { requests.append(.schedule(.tick(0), at: now.advanced(bySeconds: 45))) }
    }

    mutating func finish(at now: SimInstant) { seen.append("\(now) finish") }
}

/// Everything a replay and its client leave behind, to compare a replay in runs with one
/// location at a time.
fileprivate struct ReplayOutcome: Equatable {
    var seen: [String]
    var deliveryTimes: [SimInstant]
    var tally: DeliveryTally
    var drops: LocationDrops
    var refusedSuspensions: [RefusedSuspension]
    var gpsOn: GPSOnTime
    var authorization: [AuthorizationChange]
    var lifecycle: [LifecycleChange]
    var regions: [String]
    var heldLocations: Int
    /// The phone as it ended, every stored value of it (monitors, generators, queue, clock):
    /// a phone stepped ahead and not put back shows here even when no callback differs.
    var phone: String

    init(_ played: ScenarioReplay<RequestingClient>) {
        let replay = played.replay
        seen = replay.client.seen
        deliveryTimes = replay.deliveryTimes
        tally = replay.deliveryTally
        drops = replay.locationDrops
        refusedSuspensions = replay.refusedSuspensions
        gpsOn = replay.gpsOn
        authorization = played.authorizationTimeline
        lifecycle = played.lifecycle
        regions = replay.device.monitoredRegionIdentifiers
        heldLocations = replay.device.heldLocationCount
        phone = ""
        dump(replay.phone, to: &phone)
    }
}

/// A replay in runs of locations (issue 32) is an optimisation, never a behaviour: a client
/// that takes runs sees and causes exactly what it does one location at a time.
///
/// Tier: fast on the two short traces; the slow tier (`TestTier`, `slow_suites`) runs every
/// bundled trace.
@Suite("A replay in runs of locations")
struct LocationRunReplayTests {
    static let presets = [
        "ideal", "always-precise", "wheninuse-locked", "always-force-quit", "always-approximate", "allow-once",
        "always-automatic-pause",
    ]
    static let traces: [Trace] = TestTier.endToEndTraces.map {
        do { return try TraceImporter.load(path: $0) } catch { fatalError("bundled trace \($0): \(error)") }
    }

    private static func play(_ trace: Trace, _ preset: String, runs: Bool, requestEvery: Int)
        -> (ReplayOutcome, RequestingClient)
    {
        guard let scenario = Scenario.preset(named: preset) else { fatalError("no preset \(preset)") }
        return play(trace, scenario, runs: runs, requestEvery: requestEvery)
    }

    fileprivate static func play(_ trace: Trace, _ scenario: Scenario, runs: Bool, requestEvery: Int)
        -> (ReplayOutcome, RequestingClient)
    {
        let played = ScenarioRunner.replay(
            trace, scenario, client: RequestingClient(takesRuns: runs, requestEvery: requestEvery))
        return (ReplayOutcome(played), played.replay.client)
    }

    @Test("runs leave the same deliveries, times, requests and timelines", arguments: presets, [0, 1, 3, 7, 50])
    func sameAsOneAtATime(preset: String, requestEvery: Int) {
        var runCalls = 0
        var longest = 0
        for trace in Self.traces {
            let (oneAtATime, single) = Self.play(trace, preset, runs: false, requestEvery: requestEvery)
            let (inRuns, client) = Self.play(trace, preset, runs: true, requestEvery: requestEvery)
            #expect(single.runCalls == 0)
            #expect(inRuns == oneAtATime, "\(preset), a request every \(requestEvery), \(trace.fixes.count) fixes")
            runCalls += client.runCalls
            longest = max(longest, client.longestRun)
        }
        // The runs path was taken, and (unless the client asks after every location) with runs
        // longer than one location.
        if preset == "ideal" {
            #expect(runCalls > 0)
            if requestEvery != 1 { #expect(longest > 1) }
        }
    }
}

/// A phone stepped ahead of the client must be put back where the client stopped: here every
/// delivery draws a new displacement from the device's generator (approximate location, a
/// coarse fix every second, a new offset each time), so a phone that was not put back would
/// have drawn more and displace every later location differently. Tier: fast.
@Suite("A replay in runs puts the phone back where the client stopped")
struct LocationRunRollbackTests {
    @Test("every delivery draws: the same locations in runs", arguments: [2, 3, 5, 9])
    func drawsStayInStep(requestEvery: Int) throws {
        guard var scenario = Scenario.preset(named: "always-approximate") else { fatalError("no preset") }
        scenario.device.parameters.reducedFixesPerHour = 3600
        scenario.device.parameters.reducedDisplacementHoldSeconds = 0
        let trace = try TraceImporter.load(path: TestTier.shortTraces[1])
        let (oneAtATime, single) = LocationRunReplayTests.play(trace, scenario, runs: false, requestEvery: requestEvery)
        let (inRuns, client) = LocationRunReplayTests.play(trace, scenario, runs: true, requestEvery: requestEvery)
        #expect(inRuns == oneAtATime)
        // Runs were handed over, and the client stopped inside some of them.
        #expect(client.runCalls > 0 && client.longestRun > requestEvery)
        #expect(single.delivered > 100)
    }
}

/// The run length follows the client (`LocationRunLength`). Tier: fast.
@Suite("How far a replay looks ahead")
struct LocationRunLengthTests {
    @Test("a quiet client's runs double up to the cap, a stop sets the length to it")
    func followsTheClient() {
        var length = LocationRunLength()
        #expect(length.current == 8)
        length.note(handled: 8, of: 8, wroteRequests: false, endedAtLimit: false)
        #expect(length.current == 16)
        for _ in 0..<20 { length.note(handled: length.current, of: length.current, wroteRequests: false, endedAtLimit: false) }
        #expect(length.current == 1024)
        length.note(handled: 7, of: 1024, wroteRequests: true, endedAtLimit: false)
        #expect(length.current == 7)
        // A run that ends on the client's request, or at the next queued item, keeps it.
        length.note(handled: 7, of: 7, wroteRequests: true, endedAtLimit: false)
        #expect(length.current == 7)
        length.note(handled: 3, of: 3, wroteRequests: false, endedAtLimit: true)
        #expect(length.current == 7)
        length.note(handled: 1, of: 7, wroteRequests: true, endedAtLimit: false)
        #expect(length.current == 1)
    }
}
