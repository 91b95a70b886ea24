import Geometry
import SimulationCore
import Traces

/// Region crossings, significant changes and visits: the OS's services, which run whatever the
/// app's phase and may wake or relaunch it.
extension Device {
    mutating func observeBackgroundServices(
        _ fix: Fix, at position: Coordinate, now: SimInstant, into actions: inout [DeviceAction]
    ) {
        // Region crossings come due a latency after the hysteresis accepts them (a6 #5), on a
        // timer (or at the first fix after, if that comes first); the delivery rules apply
        // when they arrive.
        regions.observe(position, at: now, parameters: parameters, random: &random, into: &actions)
        deliverDueRegionEvents(at: now, into: &actions)
        let isReduced = authorization.state.accuracy == .reducedAccuracy
        if significantChanges.observe(position, at: now, parameters: parameters) {
            // Under reduced accuracy the event's location is coarse, displaced like the standard
            // updates' (a2 #7); the event itself still comes, and may still wake the app. With
            // full accuracy it is the network-grade fix the service measures (issue 31 §3).
            let location =
                isReduced
                ? reducedFilter.coarsen(fix, parameters: parameters, random: &random)
                : significantChanges.coarsen(fix, parameters: parameters)
            deliverBackgroundEvent(.significantChange, at: now, into: &actions) { rule in
                rule.map { .significantChangeDropped($0) } ?? .significantChange(location)
            }
        }
        if var visit = visits.observe(position, at: now, parameters: parameters) {
            if isReduced {
                // Models CLVisit under reduced accuracy (a2 #8): the place is displaced like
                // the standard updates' position, with their reported accuracy.
                visit.coordinate = reducedFilter.displace(
                    visit.coordinate, at: now, parameters: parameters, random: &random)
                visit.reducedHorizontalAccuracyMeters = parameters.reducedHorizontalAccuracyMeters
            }
            deliverBackgroundEvent(.visit, at: now, into: &actions) { rule in
                rule.map { .visitDropped($0) } ?? .visit(visit)
            }
        }
    }

    /// Delivers the region crossings whose latency has run out, in due order.
    mutating func deliverDueRegionEvents(at now: SimInstant, into actions: inout [DeviceAction]) {
        while let (identifier, crossing) = regions.nextDue(at: now) {
            deliverBackgroundEvent(.regionEvent, at: now, into: &actions) { rule in
                if let rule {
                    .regionEventDropped(identifier: identifier, crossing, rule)
                } else {
                    .regionEvent(identifier: identifier, crossing)
                }
            }
        }
    }

    /// Delivers a region, significant-change or visit event: to a running app in use, or under
    /// Always by waking or relaunching it (a6 #7, a5 #5); otherwise the event is an
    /// Always-requiring event that may raise the deferred upgrade prompt (a1 #10) and is dropped.
    private mutating func deliverBackgroundEvent(
        _ reason: LaunchReason, at now: SimInstant, into actions: inout [DeviceAction],
        make: (DeviceRule?) -> DeviceAction
    ) {
        // Phone-wide switches first: before the first unlock nothing is monitored, and with Low
        // Power Mode or Background App Refresh off nothing wakes (Device+Switches).
        if let rule = switchRefusal() {
            actions.append(make(rule))
            return
        }
        let state = authorization.state
        if reason == .regionEvent && state.accuracy == .reducedAccuracy {
            actions.append(make(.regionUnavailableWithReducedAccuracy))
            return
        }
        guard state.status.isAuthorized else {
            actions.append(make(.noDeliveryWithoutAuthorization))
            return
        }
        if lifecycle.isRunning && isInUse(at: now) {
            // A background app in use still gets a wake window when nothing keeps it running.
            perform(
                lifecycle.eventNeedsApp(reason, hasFullAlways: state.isFullAlways, at: now), at: now, into: &actions)
            actions.append(make(nil))
            return
        }
        guard authorization.state.isFullAlways else {
            let mayRaisePrompt = state.isDeferredUpgradePending && !state.isDeferredUpgradeAwaitingUser
            authorize(.alwaysRequiringEventOccurred, at: now, into: &actions)
            let raisedPrompt =
                mayRaisePrompt
                && (authorization.state.isDeferredUpgradeAwaitingUser
                    || authorization.state.promptOnScreen == .deferredAlwaysUpgrade)
            if raisedPrompt && parameters.deferredUpgradeEventHoldSeconds > 0 {
                // Models the triggering event kept for the prompt's answer (WWDC19 705, a1 #10).
                heldAlwaysEvent = HeldBackgroundEvent(reason: reason, action: make(nil), time: now)
                actions.append(make(.deferredUpgradeHoldsTriggeringEvent))
            } else {
                actions.append(make(.regionEventsWhenNotInUseNeedAlways))
            }
            return
        }
        deliverToApp(reason, make(nil), at: now, into: &actions, refused: make)
    }

    /// Wakes or relaunches the app for an event the device may deliver in the background
    /// (a6 #7, a5 #5), or appends the refusal.
    private mutating func deliverToApp(
        _ reason: LaunchReason, _ delivered: DeviceAction, at now: SimInstant, into actions: inout [DeviceAction],
        refused: (DeviceRule) -> DeviceAction
    ) {
        let wake = lifecycle.eventNeedsApp(reason, hasFullAlways: authorization.state.isFullAlways, at: now)
        if case .refuseEvent(let rule)? = wake {
            actions.append(refused(rule))
            return
        }
        perform(wake, at: now, into: &actions)
        actions.append(delivered)
    }

    /// The deferred upgrade prompt was answered: its held triggering event reaches the app if
    /// the answer granted Always within `deferredUpgradeEventHoldSeconds`, and is discarded
    /// otherwise (it was logged as held when it happened).
    mutating func releaseHeldAlwaysEvent(at now: SimInstant, into actions: inout [DeviceAction]) {
        guard let held = heldAlwaysEvent else { return }
        heldAlwaysEvent = nil
        guard authorization.state.isFullAlways, switchRefusal() == nil,
            now.seconds(since: held.time) <= parameters.deferredUpgradeEventHoldSeconds
        else { return }
        let wake = lifecycle.eventNeedsApp(held.reason, hasFullAlways: authorization.state.isFullAlways, at: now)
        // A refusal now (a force-quit app) discards it; it was logged as held when it happened.
        if case .refuseEvent? = wake { return }
        perform(wake, at: now, into: &actions)
        actions.append(held.action)
    }
}

/// A background event kept while the deferred upgrade prompt it raised waits for an answer.
struct HeldBackgroundEvent: Sendable, Equatable {
    var reason: LaunchReason
    /// What the app receives if the answer grants Always in time.
    var action: DeviceAction
    /// When it happened.
    var time: SimInstant
}
