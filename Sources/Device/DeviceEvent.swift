import SimulationCore
import Traces

/// How the app starts standard location updates. Models the `CLLocationManager` properties
/// that change what the device does.
public struct LocationUpdateOptions: Sendable, Equatable {
    /// Models `allowsBackgroundLocationUpdates` (default false).
    public var allowsBackgroundLocationUpdates: Bool
    /// Models `pausesLocationUpdatesAutomatically` (default true on iOS).
    public var pausesLocationUpdatesAutomatically: Bool

    /// Creates options; the defaults are Core Location's.
    public init(allowsBackgroundLocationUpdates: Bool = false, pausesLocationUpdatesAutomatically: Bool = true) {
        self.allowsBackgroundLocationUpdates = allowsBackgroundLocationUpdates
        self.pausesLocationUpdatesAutomatically = pausesLocationUpdatesAutomatically
    }
}

/// A timer the device asks the replay loop to fire back at it.
public enum DeviceTimer: Sendable, Equatable {
    /// The When-In-Use cutoff after leaving the foreground; stale when the generation moved on.
    case inUseCutoff(generation: Int)
    /// The end of a background wake window.
    case wakeWindowEnded(generation: Int)
    /// Allow Once's lapse delay after the app stopped being in use ran out; stale when the
    /// cutoff generation moved on (the app came back into use).
    case allowOnceLapse(generation: Int)
    /// A region crossing's latency ran out (a6 #5): deliver the crossings due now.
    case regionEventsDue
    /// The end of the grace before a background app that nothing keeps running is suspended.
    case suspensionDue(generation: Int)
}

/// Something that happened to the device, in the past tense, grouped by who caused it: the
/// app's code, the person holding the phone, the operating system, or the sensors.
public enum DeviceEvent: Sendable, Equatable {
    /// The app called a Core Location (or Core Motion, Core Bluetooth) API.
    case app(AppRequest)
    /// The person did something.
    case user(UserAction)
    /// The operating system did something on its own.
    case system(SystemEvent)
    /// A sensor recorded something: the device's true position or activity.
    case sensor(SensorEvent)
}

/// A call the app makes (from the permission layers and the engine). App code runs only while
/// its process runs, so the device ignores these for a suspended or terminated app.
public enum AppRequest: Sendable, Equatable {
    /// `requestWhenInUseAuthorization()`.
    case requestedWhenInUse
    /// `requestAlwaysAuthorization()`.
    case requestedAlways
    /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:)`.
    case requestedTemporaryFullAccuracy(purpose: String)
    /// `startActivityUpdates(to:withHandler:)`.
    case startedMotionUpdates
    /// `CBCentralManager(delegate:queue:)`.
    case createdCentralManager
    /// `startUpdatingLocation()` with these options.
    case startedLocationUpdates(LocationUpdateOptions)
    /// `stopUpdatingLocation()`.
    case stoppedLocationUpdates
    /// `startMonitoring(for:)`.
    case startedMonitoring(MonitoredRegion)
    /// `stopMonitoring(for:)`.
    case stoppedMonitoring(identifier: String)
    /// `startMonitoringSignificantLocationChanges()`.
    case startedSignificantChanges
    /// `stopMonitoringSignificantLocationChanges()`.
    case stoppedSignificantChanges
    /// `startMonitoringVisits()`.
    case startedVisitMonitoring
    /// `stopMonitoringVisits()`.
    case stoppedVisitMonitoring
    /// A `CLBackgroundActivitySession` was created.
    case startedBackgroundSession
    /// The session was invalidated.
    case endedBackgroundSession
}

/// Something the person holding the phone did.
public enum UserAction: Sendable, Equatable {
    /// Opened the app.
    case launchedApp
    /// Switched away (home gesture, another app).
    case movedAppToBackground
    /// Brought the app back.
    case movedAppToForeground
    case lockedScreen
    case unlockedScreen
    /// Swiped the app away in the app switcher.
    case forceQuitApp
    /// Answered the prompt on screen.
    case answeredPrompt(PromptAnswer)
    case changedSettings(SettingsChange)
}

/// Something the operating system did on its own.
public enum SystemEvent: Sendable, Equatable {
    case suspendedApp
    /// Terminated the app (memory pressure).
    case terminatedApp
    /// A timer the device scheduled came due.
    case timerFired(DeviceTimer)
}

/// What the phone's sensors recorded.
public enum SensorEvent: Sendable, Equatable {
    /// The receiver recorded this fix (the device's true position).
    case fixRecorded(Fix)
    /// The motion coprocessor recorded this activity.
    case motionSampleRecorded(MotionSample)
}

/// What the device does: deliveries to the app, prompts, callbacks, and timers to schedule.
public enum DeviceAction: Sendable, Equatable {
    /// `locationManager(_:didUpdateLocations:)` with this fix (reduced when accuracy is reduced).
    case deliverLocation(Fix)
    /// A recorded fix did not reach the app, for this rule.
    case dropLocation(DeviceRule)
    /// `locationManager(_:didFailWithError:)`: starting updates failed, for this rule.
    case locationUpdatesFailed(DeviceRule)
    /// `locationManagerDidPauseLocationUpdates(_:)`.
    case locationUpdatesPaused
    /// A system prompt appeared.
    case promptShown(PromptKind)
    /// A request showed no prompt, for this rule.
    case promptSuppressed(PromptKind, DeviceRule)
    /// `locationManagerDidChangeAuthorization(_:)`.
    case authorizationChanged(AuthorizationStatus, AccuracyAuthorization)
    /// The temporary full-accuracy completion handler.
    case temporaryFullAccuracyCompleted(granted: Bool)
    case motionAuthorizationChanged(MotionAuthorizationStatus)
    case bluetoothAuthorizationChanged(BluetoothAuthorizationStatus)
    /// `didEnterRegion` / `didExitRegion`.
    case regionEvent(identifier: String, RegionCrossing)
    /// The OS saw a crossing but the app did not get it, for this rule.
    case regionEventDropped(identifier: String, RegionCrossing, DeviceRule)
    /// `monitoringDidFailFor`, for this rule.
    case regionMonitoringFailed(identifier: String, DeviceRule)
    /// A significant-change location.
    case significantChange(Fix)
    /// A significant change the app did not get, for this rule.
    case significantChangeDropped(DeviceRule)
    /// `locationManager(_:didVisit:)`.
    case visit(VisitEvent)
    /// A visit the app did not get, for this rule.
    case visitDropped(DeviceRule)
    /// A motion activity update.
    case deliverMotion(MotionSample)
    /// A motion sample the app did not get, for this rule.
    case dropMotion(DeviceRule)
    /// The app process started, for this reason.
    case appLaunched(LaunchReason, inBackground: Bool)
    /// The system ended the app, for this rule.
    case appTerminated(DeviceRule)
    /// Fire `timer` back at the device at this instant.
    case schedule(DeviceTimer, at: SimInstant)
}
