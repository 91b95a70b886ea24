import Device
import Geometry
import Scenarios
import SimulationCore
import Testing
import Traces

/// A client written the way an app team would write its own: it asks for location and
/// motion updates at launch, schedules one timer of its own, and stops location updates when
/// the timer fires. It records what it is told.
private struct StopAfterFiveSeconds: LocationClient {
    enum Timer: Sendable, Equatable { case stop }

    var launch: LocationClientLaunch?
    var startedAt: SimInstant?
    /// Per `didUpdateLocations` call: the call's instant and its deliveries.
    var locationCalls: [(now: SimInstant, deliveries: [LocationDelivery])] = []
    var motion: [(now: SimInstant, sample: MotionSample)] = []
    var timers: [(now: SimInstant, timer: Timer)] = []
    var finishedAt: SimInstant?

    mutating func start(
        _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {
        self.launch = launch
        startedAt = now
        requests.append(.device(.startedLocationUpdates(LocationUpdateOptions(allowsBackgroundLocationUpdates: true))))
        requests.append(.device(.startedMotionUpdates))
        requests.append(.schedule(.stop, at: now.advanced(bySeconds: 5)))
    }

    mutating func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {
        locationCalls.append((now, locations))
    }

    mutating func didUpdateMotionActivity(
        _ sample: MotionSample, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {
        motion.append((now, sample))
    }

    mutating func timerFired(_ timer: Timer, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]) {
        timers.append((now, timer))
        requests.append(.device(.stoppedLocationUpdates))
    }

    mutating func finish(at now: SimInstant) { finishedAt = now }
}

/// The least a client writes: no timers, no optional callbacks.
private struct CountingClient: LocationClient {
    var fixes = 0

    mutating func start(_ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]) {
        requests.append(.device(.startedLocationUpdates(LocationUpdateOptions())))
    }

    mutating func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {
        fixes += locations.count
    }

    mutating func finish(at now: SimInstant) {}
}

/// Starts plain updates (no background flag) and records each `didUpdateLocations` call.
private struct RecordingClient: LocationClient {
    var calls: [(now: SimInstant, deliveries: [LocationDelivery])] = []

    mutating func start(_ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]) {
        requests.append(.device(.startedLocationUpdates(LocationUpdateOptions())))
    }

    mutating func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {
        calls.append((now, locations))
    }

    mutating func finish(at now: SimInstant) {}
}

@Suite("Replay with a custom LocationClient")
struct ReplayClientTests {
    private static let start = SimInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)

    private static func at(_ seconds: Double) -> SimInstant { start.advanced(bySeconds: seconds) }

    /// Twenty seconds of walking at 1 Hz, with a walking sample every 4 s.
    private static let trace: Trace = {
        let fixes = (0..<20).map { second in
            Fix(
                timestamp: at(Double(second)), latitude: 52.5 + Double(second) * 0.00001, longitude: 13.4,
                horizontalAccuracy: .meters(5), speedMetersPerSecond: 1.4, provider: .gps)
        }
        let samples = stride(from: 0, to: 20, by: 4).map {
            MotionSample(timestamp: at(Double($0)), activity: .walking, confidence: .high)
        }
        return Trace(fixes: fixes, motionSamples: samples, provenance: TraceProvenance(format: .jsonLines))
    }()

    private static func replay(script: [ScriptedDeviceEvent] = [], launched: Bool = false) -> Replay<StopAfterFiveSeconds> {
        var configuration = Device.Configuration()
        configuration.authorization.storedStatus = .authorizedAlways
        configuration.authorization.motionStatus = .authorized
        configuration.traceHasMotionSamples = true
        var device = Device(configuration: configuration)
        // Already running, so a scripted launch later is a relaunch, not the first launch.
        if launched { _ = device.handle(.user(.launchedApp), at: start) }
        var replay = Replay(device: device, client: StopAfterFiveSeconds())
        replay.run(trace, script: script)
        return replay
    }

    @Test("the client starts at the first instant and sees what the app can know at launch")
    func start() {
        let client = Self.replay().client
        #expect(client.startedAt == Self.start)
        #expect(client.launch?.authorizationStatus == .authorizedAlways)
        #expect(client.launch?.isMotionActivityAuthorized == true)
        #expect(client.finishedAt == Self.at(19))
    }

    @Test("each delivered fix keeps its own delivery time, the replay's delivery times match, and a run is one fix")
    func deliveries() throws {
        let replay = Self.replay()
        let calls = replay.client.locationCalls
        try #require(!calls.isEmpty)
        for call in calls {
            #expect(call.deliveries.count == 1)
            #expect(call.deliveries.last?.time == call.now)
            for delivery in call.deliveries { #expect(delivery.fix.timestamp <= delivery.time) }
        }
        #expect(calls.map(\.now) == replay.deliveryTimes)
        // Updates run from the start until the client's own timer stops them at 5 s: the
        // timer goes before the fix recorded at the same instant.
        #expect(calls.allSatisfy { $0.now < Self.at(5) })
        #expect(calls.last?.now == Self.at(4))
    }

    @Test("the client's timer fires once at its time and its request reaches the device")
    func timerAndRequests() {
        let replay = Self.replay()
        #expect(replay.client.timers.map(\.now) == [Self.at(5)])
        #expect(replay.client.timers.map(\.timer) == [.stop])
        #expect(!replay.device.isUpdatingLocation)
        // GPS-on time is what the phone did: from the start request to the stop request.
        #expect(replay.gpsOn.intervals == [GPSOnTime.Interval(start: Self.start, end: Self.at(5))])
        #expect(replay.gpsOn.seconds(closingAt: Self.at(19)) == 5)
    }

    @Test("motion samples reach a client that asked for motion updates, in time order")
    func motion() {
        let samples = Self.replay().client.motion
        #expect(!samples.isEmpty)
        #expect(samples.allSatisfy { $0.sample.activity == .walking && $0.now >= $0.sample.timestamp })
        #expect(samples.map(\.now) == samples.map(\.now).sorted())
    }

    @Test("a scripted event goes before the fix recorded at the same instant, and a quit app gets nothing more")
    func scriptBeforeFix() {
        let replay = Self.replay(script: [ScriptedDeviceEvent(time: Self.at(3), event: .user(.forceQuitApp))])
        #expect(replay.client.locationCalls.map(\.now) == [0, 1, 2].map { Self.at($0) })
        // The client's timer was due at 5 s, when its process no longer ran.
        #expect(replay.client.timers.isEmpty)
        #expect(replay.lifecycleTimeline.last?.phase.isRunning == false)
    }

    @Test("suspendedAppGetsNoMotionOrTimers: a timer due while suspended fires once at the resume; after a quit, never")
    func timerDueWhileSuspended() {
        // The client's timer is due at 5 s; the app stops its updates and is suspended at 2 s.
        let suspend = [
            ScriptedDeviceEvent(time: Self.at(1), event: .app(.stoppedLocationUpdates)),
            ScriptedDeviceEvent(time: Self.at(2), event: .user(.movedAppToBackground)),
            ScriptedDeviceEvent(time: Self.at(2), event: .system(.suspendedApp)),
        ]
        let resumed = Self.replay(
            script: suspend + [ScriptedDeviceEvent(time: Self.at(8), event: .user(.movedAppToForeground))])
        #expect(resumed.client.timers.map(\.now) == [Self.at(8)])
        #expect(resumed.lifecycleTimeline.contains { $0.phase == .suspended })
        let quit = Self.replay(
            script: suspend + [
                ScriptedDeviceEvent(time: Self.at(6), event: .user(.forceQuitApp)),
                ScriptedDeviceEvent(time: Self.at(8), event: .user(.launchedApp)),
            ], launched: true)
        #expect(quit.client.timers.isEmpty)
        // No motion reached the suspended app between 2 s and 8 s.
        #expect(!resumed.client.motion.contains { $0.now > Self.at(2) && $0.now < Self.at(8) })
    }

    @Test("suspendedAppUpdatesQueued: the queue comes in one call at the resume, each fix with its own timestamp")
    func queuedDeliveries() throws {
        var configuration = Device.Configuration()
        configuration.authorization.storedStatus = .authorizedAlways
        // In use for 3 s after the lock at 2 s: suspended at 5 s with its updates running.
        configuration.parameters.whenInUseLockCutoffSeconds = 3
        // The guide's queue (issue 31 §2: off by default, the updates then stop while suspended).
        configuration.parameters.suspendedAppQueuesUpdates = true
        var replay = Replay(device: Device(configuration: configuration), client: RecordingClient())
        replay.run(
            Self.trace,
            script: [
                ScriptedDeviceEvent(time: Self.at(2), event: .user(.lockedScreen)),
                ScriptedDeviceEvent(time: Self.at(10.5), event: .user(.unlockedScreen)),
            ])
        let resume = try #require(replay.client.calls.first { $0.now == Self.at(10.5) })
        #expect(resume.deliveries.map(\.fix.timestamp) == (5...10).map { Self.at(Double($0)) })
        #expect(resume.deliveries.allSatisfy { $0.time == Self.at(10.5) })
        #expect(!replay.client.calls.contains { $0.now > Self.at(4) && $0.now < Self.at(10.5) })
        #expect(replay.lifecycleTimeline.contains { $0.phase == .suspended && $0.time == Self.at(5) })
    }

    @Test("a client with only the required callbacks and no timers replays, and counts every delivered fix")
    func minimalClient() {
        var configuration = Device.Configuration()
        configuration.authorization.storedStatus = .authorizedWhenInUse
        var replay = Replay(device: Device(configuration: configuration), client: CountingClient())
        replay.run(Self.trace)
        #expect(replay.client.fixes == replay.deliveryTimes.count)
        #expect(replay.client.fixes == Self.trace.fixes.count)
    }
}
