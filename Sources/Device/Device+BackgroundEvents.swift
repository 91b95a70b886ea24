import Geometry
import SimulationCore
import Traces

/// Region crossings, significant changes and visits: the OS's services, which run whatever the
/// app's phase and may wake or relaunch it.
extension Device {
    mutating func observeBackgroundServices(
        _ fix: Fix, at position: Coordinate, now: SimInstant, into actions: inout [DeviceAction]
    ) {
        for (identifier, crossing) in regions.observe(position, at: now, parameters: parameters) {
            deliverBackgroundEvent(.regionEvent, at: now, into: &actions) { rule in
                if let rule {
                    .regionEventDropped(identifier: identifier, crossing, rule)
                } else {
                    .regionEvent(identifier: identifier, crossing)
                }
            }
        }
        if significantChanges.observe(position, at: now, parameters: parameters) {
            deliverBackgroundEvent(.significantChange, at: now, into: &actions) { rule in
                rule.map { .significantChangeDropped($0) } ?? .significantChange(fix)
            }
        }
        if let visit = visits.observe(position, at: now, parameters: parameters) {
            deliverBackgroundEvent(.visit, at: now, into: &actions) { rule in
                rule.map { .visitDropped($0) } ?? .visit(visit)
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
