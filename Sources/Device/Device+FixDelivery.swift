import Geometry
import SimulationCore
import Traces

/// A recorded fix: what the OS's own services see in it, derived motion, and whether the app
/// gets it. This is the per-fix path: it appends to the caller's buffer and allocates nothing.
extension Device {
    mutating func handleFix(_ recorded: Fix, at now: SimInstant, into actions: inout [DeviceAction]) {
        // Every service sees the fix as the receiver reports it (issue 30): accuracy in metres,
        // speed and course filled in where the trace lacks them.
        let (fix, filledIn) = receiver.report(
            recorded, assumedHorizontalAccuracyMeters: parameters.assumedHorizontalAccuracyMeters,
            courseMinimumSpeedMetersPerSecond: parameters.courseMinimumSpeedMetersPerSecond)
        let position = Coordinate(latitude: fix.latitude, longitude: fix.longitude)
        if authorization.state.isLocationServicesEnabled {
            observeBackgroundServices(fix, at: position, now: now, into: &actions)
            // A wake for an event runs the app: it gets what was queued for it first.
            handOverToRunningApp(into: &actions)
        }

        if lifecycle.isMotionRunning, !traceHasMotionSamples {
            let derived = motionDeriver.observe(recorded, parameters: parameters, random: &random)
            for sample in derived { offerMotion(sample, into: &actions) }
        }

        if let rule = locationRefusal(at: now) {
            releaseHeldLocations(refusedFor: rule, into: &actions)
            actions.append(.dropLocation(rule))
            if rule == .suspendedAppUpdatesQueued {
                if enqueue(fix) { receiver.handedOver(filledIn) }
                // Models the automatic pause also for the updates Core Location enqueues for a
                // suspended app (a4 #2, #7): they run, so they pause after the stillness too,
                // which turns the receiver off. The app learns of it when it runs again.
                if pauseIfStill(after: fix) { pauseNoticePending = true }
            }
            return
        }
        if authorization.state.accuracy == .reducedAccuracy {
            // A reduced fix carries the reduced accuracy and no speed or course: nothing derived.
            if let reduced = reducedFilter.reduce(fix, parameters: parameters, random: &random) {
                deliver(reduced, into: &actions)
            } else {
                actions.append(.dropLocation(.reducedAccuracyFewFixesPerHour))
            }
        } else {
            receiver.handedOver(filledIn)
            deliver(fix, into: &actions)
        }
        if pauseIfStill(after: fix) {
            actions.append(.locationUpdatesPaused)
            // Paused updates no longer keep the app running.
            settleLifecycle(at: now, into: &actions)
        }
    }

    /// Pauses running updates that ask for the automatic pause once the device stayed put
    /// long enough (a4 #7); whether it paused them now.
    private mutating func pauseIfStill(after fix: Fix) -> Bool {
        guard let options = lifecycle.runningUpdateOptions, options.pausesLocationUpdatesAutomatically,
            autoPause.shouldPause(after: fix, parameters: parameters)
        else { return false }
        lifecycle.locationUpdatesPaused()
        return true
    }

    /// Hands `fix` to the app, or holds it until `locationsPerDelivery` locations are waiting
    /// and hands them over together: Apple's `locationManager(_:didUpdateLocations:)` documents
    /// an array of more than one location when updates came faster than they were delivered.
    /// The replay makes one call of the deliveries of one step.
    private mutating func deliver(_ fix: Fix, into actions: inout [DeviceAction]) {
        let batch = parameters.locationsPerDelivery
        guard batch > 1 else {
            actions.append(.deliverLocation(fix))
            return
        }
        heldLocations.append(fix)
        guard heldLocations.count >= batch else { return }
        for held in heldLocations { actions.append(.deliverLocation(held)) }
        heldLocations.removeAll(keepingCapacity: true)
    }

    /// The held locations meet the fate of the fix refused for `rule`: queued for a suspended
    /// app whose updates Core Location enqueues, dropped for that rule otherwise.
    private mutating func releaseHeldLocations(refusedFor rule: DeviceRule, into actions: inout [DeviceAction]) {
        guard !heldLocations.isEmpty else { return }
        for held in heldLocations {
            if rule == .suspendedAppUpdatesQueued {
                enqueueAsSeen(held)
            } else {
                actions.append(.dropLocation(rule))
            }
        }
        heldLocations.removeAll(keepingCapacity: true)
    }

    /// Models Core Location enqueuing an update for a suspended app (a4 #2): kept as the app
    /// will see it, the newest `suspendedLocationQueueLimit` at most. Whether it was kept.
    private mutating func enqueue(_ fix: Fix) -> Bool {
        guard parameters.suspendedLocationQueueLimit > 0 else { return false }
        var seen = fix
        if authorization.state.accuracy == .reducedAccuracy {
            guard let reduced = reducedFilter.reduce(fix, parameters: parameters, random: &random) else {
                return false
            }
            seen = reduced
        }
        enqueueAsSeen(seen)
        return true
    }

    /// Queues a location already as the app will see it, keeping the newest within the limit.
    private mutating func enqueueAsSeen(_ seen: Fix) {
        let limit = parameters.suspendedLocationQueueLimit
        guard limit > 0 else { return }
        if queuedLocations.count >= limit { queuedLocations.removeFirst(queuedLocations.count - limit + 1) }
        queuedLocations.append(seen)
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
        case .terminatedBySystem, .notRunning: return .suspendedAppsReceiveNothing
        case .suspended(let process, _):
            // Running updates are enqueued while the authorization would deliver them; a
            // When-In-Use app's requests wait once it is no longer in use (a4 #2, #3). Unless
            // `suspendedAppQueuesUpdates` says Core Location keeps them running, they stop while
            // the app is suspended (allowsBackgroundLocationUpdates, startUpdatingLocation()).
            guard case .running = process.locationUpdates else { return .suspendedAppsReceiveNothing }
            guard state.isFullAlways || lifecycle.isInUse(at: now) else { return .whenInUseStopsAfterCutoff }
            return parameters.suspendedAppQueuesUpdates ? .suspendedAppUpdatesQueued : .suspendedAppsReceiveNothing
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
        guard lifecycle.isRunning else { return .suspendedAppGetsNoMotionOrTimers }
        return nil
    }
}
