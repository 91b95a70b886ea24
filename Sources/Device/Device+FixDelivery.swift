import Geometry
import SimulationCore
import Traces

/// A recorded fix: what the OS's own services see in it, derived motion, and whether the app
/// gets it. This is the per-fix path: it appends to the caller's buffer and allocates nothing.
extension Device {
    mutating func handleFix(_ fix: Fix, at now: SimInstant, into actions: inout [DeviceAction]) {
        let position = Coordinate(latitude: fix.latitude, longitude: fix.longitude)
        if authorization.state.isLocationServicesEnabled {
            observeBackgroundServices(fix, at: position, now: now, into: &actions)
        }

        if lifecycle.isMotionRunning, !traceHasMotionSamples {
            let derived = motionDeriver.observe(fix, parameters: parameters, random: &random)
            for sample in derived {
                actions.append(motionRefusal.map { .dropMotion($0) } ?? .deliverMotion(sample))
            }
        }

        if let rule = locationRefusal(at: now) {
            actions.append(.dropLocation(rule))
            return
        }
        if authorization.state.accuracy == .reducedAccuracy {
            if let reduced = reducedFilter.reduce(fix, parameters: parameters, random: &random) {
                actions.append(.deliverLocation(reduced))
            } else {
                actions.append(.dropLocation(.reducedAccuracyFewFixesPerHour))
            }
        } else {
            actions.append(.deliverLocation(fix))
        }
        if let options = lifecycle.runningUpdateOptions, options.pausesLocationUpdatesAutomatically,
            autoPause.shouldPause(after: fix, parameters: parameters)
        {
            lifecycle.locationUpdatesPaused()
            actions.append(.locationUpdatesPaused)
        }
    }

    /// Why a recorded fix does not reach the app now, or `nil` when it does. It reads the
    /// authorization and lifecycle values only, not helpers on `Device`: passing the whole
    /// device to one would copy it, once per fix.
    private func locationRefusal(at now: SimInstant) -> DeviceRule? {
        let state = authorization.state
        if !state.isLocationServicesEnabled && state.storedStatus != .restricted { return .servicesOffReportsDenied }
        guard state.status.isAuthorized else { return .noDeliveryWithoutAuthorization }
        let updates: LocationUpdates
        switch lifecycle.state {
        case .forceQuit: return .forceQuitStopsEverything
        case .suspended, .terminatedBySystem, .notRunning: return .suspendedAppsReceiveNothing
        case .foreground(let process), .background(let process, _, _): updates = process.locationUpdates
        }
        switch updates {
        case .stopped: return .updatesMustBeRunning
        case .paused: return .automaticPause
        case .running: break
        }
        if !state.isFullAlways && !lifecycle.isInUse(at: now) { return .whenInUseStopsAfterCutoff }
        return nil
    }

    /// Why motion does not reach the app now, or `nil` when it does.
    var motionRefusal: DeviceRule? {
        guard lifecycle.isMotionRunning else { return .motionDeliversRecordedActivity }
        guard authorization.state.isMotionAvailable else { return .motionUnavailableWithoutHardware }
        guard authorization.state.motionStatus == .authorized else { return .motionRequestPrompts }
        guard lifecycle.isRunning else { return .suspendedAppsReceiveNothing }
        return nil
    }
}
