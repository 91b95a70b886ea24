import Device
import Engine
import Geometry
import SimulationCore
import Traces

/// An app written against the Core Location facade, as a `RecordingClient`: a team's own
/// tracking code, replayed through the simulated iPhone unchanged.
///
/// `makeApp` is what the app does at launch (create its tracker: the object that owns a
/// `CLLocationManager` and is its delegate). It runs when the app's process first runs and
/// again after every relaunch, because a relaunch is a new process; the object it returns is
/// kept alive until then. Every delegate callback runs in virtual time on the replay's
/// thread, with `AppClock` reading the virtual clock.
///
/// What the run is measured on: the `recording` object when one is given (a record that
/// outlives relaunches, like an upload backend; `AppRecord` is one); else the app object when it
/// adopts `RecordingApp`, the records of the objects of every process of the run joined in
/// order, so a relaunch continues the run's one record rather than replacing it; else
/// everything the phone handed the app (`ReceivedRecord`).
public struct CoreLocationApp: RecordingClient {
    public typealias Timer = Int

    private let makeApp: () -> AnyObject
    private let recording: (any RecordingApp)?
    private var host: SimulationHost?
    private var app: AnyObject?
    /// What earlier processes' app objects recorded, when they adopt `RecordingApp` and no
    /// `recording` is given: a relaunch makes a new app object, and the run stays one record.
    private var earlierProcesses: (recorder: Recorder, odometerMeters: Double)?

    /// An app whose launch runs `makeApp`, measured on `recording` (see the type's notes).
    public init(recording: (any RecordingApp)? = nil, makeApp: @escaping () -> AnyObject) {
        self.makeApp = makeApp
        self.recording = recording
    }

    public var recorder: Recorder {
        if let recording { return recording.recorder }
        guard let current = app as? any RecordingApp else {
            return earlierProcesses?.recorder ?? host?.received.recorder ?? Recorder()
        }
        guard var record = earlierProcesses?.recorder else { return current.recorder }
        record.append(current.recorder)
        return record
    }

    public var odometerMeters: Double {
        if let recording { return recording.odometerMeters }
        guard let current = app as? any RecordingApp else {
            return earlierProcesses?.odometerMeters ?? host?.received.odometerMeters ?? 0
        }
        guard let earlier = earlierProcesses else { return current.odometerMeters }
        return earlier.odometerMeters + Self.seamMeters(earlier.recorder, current.recorder) + current.odometerMeters
    }

    /// The distance from one process's last accepted fix to the next process's first: each
    /// process's odometer starts afresh, and the road between them was travelled all the same.
    private static func seamMeters(_ earlier: Recorder, _ later: Recorder) -> Double {
        guard let last = earlier.acceptedPositions.last, let first = later.acceptedPositions.first else { return 0 }
        return Geodesy.distanceMeters(last, first)
    }

    public var diagnostics: [ClientDiagnostic] { host?.diagnostics ?? [] }

    public mutating func start(
        _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<Int>]
    ) {
        let host = SimulationHost(launch: launch, at: now)
        self.host = host
        launchApp(host, at: now, into: &requests)
    }

    public mutating func didLaunch(
        _ reason: LaunchReason, inBackground: Bool, at now: SimInstant,
        into requests: inout [LocationClientRequest<Int>]
    ) {
        guard let host else { return }
        // A new process: the old one's objects are gone. The host learns it first, so that a
        // manager deallocated with the old app does not stop services that outlive its process.
        host.relaunched(reason, inBackground: inBackground)
        keepRecordOfEndedProcess()
        app = nil
        launchApp(host, at: now, into: &requests)
    }

    /// Keeps what the ending process's app object recorded (when it records and no `recording`
    /// outlives processes), before the object goes with its process.
    private mutating func keepRecordOfEndedProcess() {
        guard recording == nil, let ended = app as? any RecordingApp else { return }
        guard var kept = earlierProcesses else {
            earlierProcesses = (ended.recorder, ended.odometerMeters)
            return
        }
        kept.odometerMeters += Self.seamMeters(kept.recorder, ended.recorder) + ended.odometerMeters
        kept.recorder.append(ended.recorder)
        earlierProcesses = kept
    }

    private mutating func launchApp(
        _ host: SimulationHost, at now: SimInstant, into requests: inout [LocationClientRequest<Int>]
    ) {
        var made: AnyObject?
        host.deliver("the app's launch", at: now, into: &requests) { made = makeApp() }
        app = made
        // Core Location calls `locationManagerDidChangeAuthorization` once for every manager
        // created, soon after its creation (Apple: "when the app creates the related object's
        // CLLocationManager instance"), not inside the initializer.
        host.deliver("locationManagerDidChangeAuthorization(_:)", at: now, into: &requests) {
            host.forEachObserver { $0.simulationDidChangeAuthorization() }
        }
    }

    public mutating func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<Int>]
    ) {
        guard let host else { return }
        host.receive(locations)
        host.deliver("locationManager(_:didUpdateLocations:)", at: now, into: &requests) {
            host.forEachObserver { $0.simulationDidUpdateLocations(locations) }
        }
    }

    public mutating func didReceiveSignificantChange(
        _ location: Fix, at now: SimInstant, into requests: inout [LocationClientRequest<Int>]
    ) {
        guard let host else { return }
        host.receive(location)
        host.deliver("locationManager(_:didUpdateLocations:)", at: now, into: &requests) {
            host.forEachObserver { $0.simulationDidReceiveSignificantChange(location) }
        }
    }

    public mutating func didUpdateMotionActivity(
        _ sample: MotionSample, at now: SimInstant, into requests: inout [LocationClientRequest<Int>]
    ) {
        guard let host else { return }
        host.receive(sample, at: now)
        host.deliver("a motion activity update", at: now, into: &requests) {
            host.forEachObserver { $0.simulationDidUpdateMotionActivity(sample) }
        }
    }

    public mutating func didCrossRegion(
        _ identifier: String, _ crossing: RegionCrossing, at now: SimInstant,
        into requests: inout [LocationClientRequest<Int>]
    ) {
        guard let host else { return }
        host.deliver("a region crossing", at: now, into: &requests) {
            host.forEachObserver { $0.simulationDidCrossRegion(identifier, crossing) }
        }
    }

    public mutating func monitoringDidFail(
        forRegion identifier: String, _ rule: DeviceRule, at now: SimInstant,
        into requests: inout [LocationClientRequest<Int>]
    ) {
        guard let host else { return }
        host.deliver("locationManager(_:monitoringDidFailFor:withError:)", at: now, into: &requests) {
            host.forEachObserver { $0.simulationMonitoringDidFail(forRegion: identifier, rule) }
        }
    }

    public mutating func didVisit(
        _ visit: VisitEvent, at now: SimInstant, into requests: inout [LocationClientRequest<Int>]
    ) {
        guard let host else { return }
        host.deliver("locationManager(_:didVisit:)", at: now, into: &requests) {
            host.forEachObserver { $0.simulationDidVisit(visit) }
        }
    }

    public mutating func didChangeAuthorization(
        _ status: AuthorizationStatus, _ accuracy: AccuracyAuthorization, at now: SimInstant,
        into requests: inout [LocationClientRequest<Int>]
    ) {
        // Reported even before `start` and while the process does not run: it is what the app
        // reads the next time it asks. Only a running process gets the callback.
        guard let host else { return }
        host.update(status: status, accuracy: accuracy)
        host.deliver("locationManagerDidChangeAuthorization(_:)", at: now, into: &requests) {
            host.forEachObserver { $0.simulationDidChangeAuthorization() }
        }
    }

    public mutating func didChangeMotionAuthorization(
        _ status: MotionAuthorizationStatus, at now: SimInstant, into requests: inout [LocationClientRequest<Int>]
    ) {
        guard let host else { return }
        host.update(motionStatus: status)
        host.deliver("a motion authorization change", at: now, into: &requests) {
            host.forEachObserver { $0.simulationDidChangeMotionAuthorization() }
        }
    }

    public mutating func didCompleteTemporaryFullAccuracyRequest(
        granted: Bool, at now: SimInstant, into requests: inout [LocationClientRequest<Int>]
    ) {
        guard let host else { return }
        host.deliver("the temporary full-accuracy request's completion", at: now, into: &requests) {
            host.forEachObserver { $0.simulationDidCompleteTemporaryFullAccuracyRequest(granted: granted) }
        }
    }

    public mutating func didFailLocationUpdates(
        _ rule: DeviceRule, at now: SimInstant, into requests: inout [LocationClientRequest<Int>]
    ) {
        guard let host else { return }
        host.deliver("locationManager(_:didFailWithError:)", at: now, into: &requests) {
            host.forEachObserver { $0.simulationDidFailLocationUpdates(rule) }
        }
    }

    public mutating func didPauseLocationUpdates(at now: SimInstant, into requests: inout [LocationClientRequest<Int>])
    {
        guard let host else { return }
        host.deliver("locationManagerDidPauseLocationUpdates(_:)", at: now, into: &requests) {
            host.forEachObserver { $0.simulationDidPauseLocationUpdates() }
        }
    }

    public mutating func timerFired(_ timer: Int, at now: SimInstant, into requests: inout [LocationClientRequest<Int>])
    {
        guard let host else { return }
        host.deliver("a timer or delayed work", at: now, into: &requests) { host.fire(timer) }
    }

    public mutating func finish(at now: SimInstant) {
        guard let host else { return }
        var ignored: [LocationClientRequest<Int>] = []
        host.deliver("the end of the trace", at: now, into: &ignored) {
            host.forEachObserver { $0.simulationDidFinish() }
        }
        host.tasks.endProcess()
    }
}

/// An app (or the backend it uploads to) that keeps its own record of a run: what it accepted
/// and recorded, its motion states, its geofence events, its odometer. `CoreLocationApp`
/// measures the run on it instead of on everything the phone delivered.
public protocol RecordingApp: AnyObject {
    /// The record, filled through `Recorder`'s recording calls.
    var recorder: Recorder { get }
    /// Distance travelled by the app's own reckoning, metres.
    var odometerMeters: Double { get }
}
