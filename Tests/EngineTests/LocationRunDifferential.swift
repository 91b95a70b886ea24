import Device
import Engine
import Foundation
import Geometry
import SimulationCore
import Traces

/// The engine behind the protocol's default run entry: one `didUpdateLocations` call per
/// delivery, stopping after the first that writes a request. What it records is what the
/// engine records one call at a time, as a replay fed it before runs.
struct OneLocationAtATime: LocationClient {
    typealias Timer = EngineTimer
    let engine: TrackingEngine

    func start(
        _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        engine.start(launch, at: now, into: &requests)
    }

    func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        engine.didUpdateLocations(locations, at: now, into: &requests)
    }

    func timerFired(
        _ timer: EngineTimer, at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        engine.timerFired(timer, at: now, into: &requests)
    }

    func finish(at now: SimInstant) {}
}

/// Two engines of one configuration fed the same deliveries: one takes runs
/// (`TrackingEngine.didUpdateLocationRun`), the other one location per call
/// (`OneLocationAtATime`). A small stand-in for the device answers both alike: it fires the
/// engines' timers when they come due, sends motion samples read from the fixes' speed, and
/// reports the exit of the stationary region. A run ends before the next of those, as the
/// device's runs do, and where `maximumRunLength` cuts it.
struct LocationRunDifferential {
    /// What one engine produced, compared field by field.
    struct Record: Equatable {
        var delivered: Int
        var acceptedTimes: [SimInstant]
        var acceptedPositions: [Coordinate]
        var recordedIndices: [UInt32]
        var motionTransitions: [Recorder.MotionTransition]
        var geofenceEvents: [GeofenceEvent]
        var gaps: [Recorder.Gap]
        var heartbeatTimes: [SimInstant]
        var rejections: [String]
        var odometerMeters: Double
        var motionState: MotionStateMachine.State
        var registeredGeofences: [String]

        init(_ engine: TrackingEngine) {
            let recorder = engine.recorder
            delivered = recorder.deliveredFixCount
            acceptedTimes = recorder.acceptedTimes
            acceptedPositions = recorder.acceptedPositions
            recordedIndices = recorder.recordedIndices
            motionTransitions = recorder.motionTransitions
            geofenceEvents = recorder.geofenceEvents
            gaps = recorder.gaps
            heartbeatTimes = recorder.heartbeatTimes
            rejections = recorder.rejections.map { "\($0.reason.rawValue) \($0.count)" }
            odometerMeters = engine.odometerMeters
            motionState = engine.motionState
            registeredGeofences = engine.registeredGeofenceIdentifiers
        }
    }

    /// How the two engines differed, if they did; empty when they agree throughout.
    var mismatches: [String] = []
    /// Runs the engine handled only in part (it wrote a request before their end).
    var runsStoppedEarly = 0
    /// Runs handed over.
    var runs = 0
    /// Requests the engines wrote while handling runs.
    var requestsFromRuns = 0
    /// What each engine recorded at the end.
    var records: (runs: Record, oneByOne: Record)?

    private let takingRuns: TrackingEngine
    private var oneByOne: OneLocationAtATime
    private let sendsMotion: Bool
    private var timers: [(due: SimInstant, timer: EngineTimer)] = []
    private var stationaryCenter: Coordinate?
    private var nextMotionTime: SimInstant?

    /// How far from the stationary region's centre the stand-in reports its exit: the device's
    /// effective exit distance for a small region (about 200 m, `MotionStateMachine.Configuration`).
    static let exitMeters = 200.0
    /// Seconds between motion samples when they are sent.
    static let motionSampleSeconds = 15.0

    /// Feeds `deliveries` to two engines made with `configuration` over `fences`, in runs of
    /// at most `maximumRunLength`.
    init(
        _ deliveries: [LocationDelivery], configuration: EngineConfiguration, fences: [Geofence] = [],
        sendsMotion: Bool = true, maximumRunLength: Int = .max
    ) throws {
        takingRuns = try TrackingEngine(
            configuration: configuration, fences: fences, context: GEOSContext(), expectedFixCount: deliveries.count)
        oneByOne = OneLocationAtATime(
            engine: try TrackingEngine(configuration: configuration, fences: fences, context: GEOSContext()))
        self.sendsMotion = sendsMotion
        guard let first = deliveries.first else { return }
        let launch = LocationClientLaunch(
            authorizationStatus: .authorizedAlways, accuracyAuthorization: .fullAccuracy,
            motionAuthorizationStatus: .authorized, isMotionActivityAvailable: true)
        both("start") { engine, requests in engine.start(launch, at: first.time, into: &requests) }
        nextMotionTime = sendsMotion ? first.time : nil
        var index = 0
        while index < deliveries.count {
            let now = deliveries[index].time
            deliverEventsDue(at: now, fix: deliveries[index].fix)
            var end = index + 1
            while end < deliveries.count, end - index < maximumRunLength, !hasEventDue(deliveries[end]) { end += 1 }
            index += handOver(LocationRun(deliveries[index..<end]))
        }
        records = (Record(takingRuns), Record(oneByOne.engine))
        if records?.runs != records?.oneByOne { mismatches.append("the records differ") }
    }

    /// Whether the stand-in has something to deliver before `delivery`: a run ends there.
    private func hasEventDue(_ delivery: LocationDelivery) -> Bool {
        if let due = timers.map(\.due).min(), due <= delivery.time { return true }
        if let nextMotionTime, nextMotionTime <= delivery.time { return true }
        guard let stationaryCenter else { return false }
        return Geodesy.distanceMeters(stationaryCenter, Self.position(delivery.fix)) > Self.exitMeters
    }

    /// The timers, motion samples and region exit due by `now`, in that order, to both engines.
    private mutating func deliverEventsDue(at now: SimInstant, fix: Fix) {
        while let next = timers.indices.min(by: { timers[$0].due < timers[$1].due }), timers[next].due <= now {
            let (due, timer) = timers.remove(at: next)
            both("timer \(timer)") { engine, requests in engine.timerFired(timer, at: due, into: &requests) }
        }
        if let time = nextMotionTime, time <= now {
            let moving = Double(fix.speedMetersPerSecond ?? 0) > 2
            let sample = MotionSample(
                timestamp: now, activity: moving ? .automotive : .stationary, confidence: .high, isCoarse: false,
                isDerived: false)
            both("motion") { engine, requests in engine.didUpdateMotionActivity(sample, at: now, into: &requests) }
            nextMotionTime = now.advanced(bySeconds: Self.motionSampleSeconds)
        }
        if let center = stationaryCenter, Geodesy.distanceMeters(center, Self.position(fix)) > Self.exitMeters {
            stationaryCenter = nil
            both("exit") { engine, requests in
                engine.didCrossRegion(TrackingEngine.stationaryRegionIdentifier, .exit, at: now, into: &requests)
            }
        }
    }

    /// One run to both engines; the handled counts and requests must agree.
    private mutating func handOver(_ run: LocationRun) -> Int {
        runs += 1
        var fromRuns: [LocationClientRequest<EngineTimer>] = []
        var fromCalls: [LocationClientRequest<EngineTimer>] = []
        let handled = takingRuns.didUpdateLocationRun(run, into: &fromRuns)
        let handledByCalls = oneByOne.didUpdateLocationRun(run, into: &fromCalls)
        let start = run.deliveries.startIndex
        if handled != handledByCalls {
            mismatches.append("run at \(start): handled \(handled), one at a time \(handledByCalls)")
        }
        if fromRuns != fromCalls { mismatches.append("run at \(start): requests \(fromRuns) against \(fromCalls)") }
        if !(1...run.deliveries.count).contains(handled) { mismatches.append("run at \(start): handled \(handled)") }
        if handled < run.deliveries.count {
            runsStoppedEarly += 1
            if fromRuns.isEmpty { mismatches.append("run at \(start) stopped at \(handled) without a request") }
        }
        requestsFromRuns += fromRuns.count
        answer(fromRuns)
        return max(handled, 1)
    }

    /// Calls both engines the same way; their requests must agree.
    private mutating func both(
        _ what: String, _ call: (TrackingEngine, inout [LocationClientRequest<EngineTimer>]) -> Void
    ) {
        var fromRuns: [LocationClientRequest<EngineTimer>] = []
        var fromCalls: [LocationClientRequest<EngineTimer>] = []
        call(takingRuns, &fromRuns)
        call(oneByOne.engine, &fromCalls)
        if fromRuns != fromCalls { mismatches.append("\(what): requests \(fromRuns) against \(fromCalls)") }
        answer(fromRuns)
    }

    /// What the stand-in device keeps of the requests: timers and the stationary region.
    private mutating func answer(_ requests: [LocationClientRequest<EngineTimer>]) {
        let stationary = TrackingEngine.stationaryRegionIdentifier
        for request in requests {
            if case .schedule(let timer, let due) = request { timers.append((due, timer)) }
            if case .device(.startedMonitoring(let region)) = request, region.identifier == stationary {
                stationaryCenter = region.center
            }
            if case .device(.stoppedMonitoring(stationary)) = request { stationaryCenter = nil }
        }
    }

    private static func position(_ fix: Fix) -> Coordinate {
        Coordinate(latitude: fix.latitude, longitude: fix.longitude)
    }
}
