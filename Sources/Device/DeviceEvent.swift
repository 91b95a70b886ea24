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
}

/// Something that happened to the device, in the past tense: an app request, a user action,
/// a recorded fix or motion sample, or a timer coming due.
public enum DeviceEvent: Sendable, Equatable {
    // The app's requests (from the permission layers and the engine).
    /// `requestWhenInUseAuthorization()`.
    case appRequestedWhenInUse
    /// `requestAlwaysAuthorization()`.
    case appRequestedAlways
    /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:)`.
    case appRequestedTemporaryFullAccuracy(purpose: String)
    /// `startActivityUpdates(to:withHandler:)`.
    case appStartedMotionUpdates
    /// `CBCentralManager(delegate:queue:)`.
    case appCreatedCentralManager
    /// `startUpdatingLocation()` with these options.
    case appStartedLocationUpdates(LocationUpdateOptions)
    /// `stopUpdatingLocation()`.
    case appStoppedLocationUpdates
    /// `startMonitoring(for:)`.
    case appStartedMonitoring(MonitoredRegion)
    /// `stopMonitoring(for:)`.
    case appStoppedMonitoring(identifier: String)
    /// `startMonitoringSignificantLocationChanges()`.
    case appStartedSignificantChanges
    /// `stopMonitoringSignificantLocationChanges()`.
    case appStoppedSignificantChanges
    /// `startMonitoringVisits()`.
    case appStartedVisitMonitoring
    /// `stopMonitoringVisits()`.
    case appStoppedVisitMonitoring
    /// A `CLBackgroundActivitySession` was created.
    case appStartedBackgroundSession
    /// It was invalidated.
    case appEndedBackgroundSession
    // The user and the system.
    /// The user opened the app.
    case userLaunchedApp
    /// The user switched away (home gesture, another app).
    case userMovedAppToBackground
    /// The user brought the app back.
    case userMovedAppToForeground
    /// The screen locked.
    case screenLocked
    /// The screen unlocked.
    case screenUnlocked
    /// The user swiped the app away.
    case userForceQuitApp
    /// The system suspended the app.
    case systemSuspendedApp
    /// The system terminated the app (memory pressure).
    case systemTerminatedApp
    /// The user answered the prompt on screen.
    case userAnsweredPrompt(PromptAnswer)
    /// The user changed Settings.
    case userChangedSettings(SettingsChange)
    // The world.
    /// The receiver recorded this fix (the device's true position).
    case fixRecorded(Fix)
    /// The coprocessor recorded this activity.
    case motionSampleRecorded(MotionSample)
    /// A timer the device scheduled came due.
    case timerFired(DeviceTimer)
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
    /// Motion authorization changed.
    case motionAuthorizationChanged(MotionAuthorizationStatus)
    /// Bluetooth authorization changed.
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
