import Device
import Engine
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
/// outlives relaunches, like an upload backend); else the app object when it adopts
/// `RecordingApp`; else everything the phone handed the app (`ReceivedRecord`).
public struct CoreLocationApp: RecordingClient {
    public typealias Timer = Int

    private let makeApp: () -> AnyObject
    private let recording: (any RecordingApp)?
    private var host: SimulationHost?
    private var app: AnyObject?

    /// An app whose launch runs `makeApp`, measured on `recording` (see the type's notes).
    public init(recording: (any RecordingApp)? = nil, makeApp: @escaping () -> AnyObject) {
        self.makeApp = makeApp
        self.recording = recording
    }

    public var recorder: Recorder {
        if let measured = recording ?? (app as? any RecordingApp) { return measured.recorder }
        return host?.received.recorder ?? Recorder()
    }

    public var odometerMeters: Double {
        if let measured = recording ?? (app as? any RecordingApp) { return measured.odometerMeters }
        return host?.received.odometerMeters ?? 0
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
        app = nil
        launchApp(host, at: now, into: &requests)
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
