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
            // updates' (a2 #7); the event itself still comes, and may still wake the app.
            let location = isReduced ? reducedFilter.coarsen(fix, parameters: parameters, random: &random) : fix
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
            actions.append(make(nil))
            return
        }
        guard authorization.state.isFullAlways else {
            authorize(.alwaysRequiringEventOccurred, at: now, into: &actions)
            actions.append(make(.regionEventsWhenNotInUseNeedAlways))
            return
        }
        let wake = lifecycle.eventNeedsApp(reason, at: now)
        if case .refuseEvent(let rule)? = wake {
            actions.append(make(rule))
            return
        }
        perform(wake, at: now, into: &actions)
        actions.append(make(nil))
    }
}
