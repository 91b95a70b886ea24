import Device
import SimulationCore

/// A run in which location authorization never settled: the app was told `notDetermined` from
/// the first fix to the last, so iOS delivered no location, and nothing else in the run's output
/// says why. Without this note such a run reads as 0 % collected with no reason, and whoever
/// changed one device parameter blames that parameter.
///
/// A request iOS ignored (a missing usage key, an app not in use) is not noted: the prompt
/// log names the rule, and a preset (`missing-usage-key`) shows exactly that case.
package enum UnsettledAuthorization {
    /// The note for such a run, from when it applies, or `nil` when authorization settled
    /// (granted, denied, restricted, Location Services off) or a request was refused by a rule.
    /// `authorization` opens with the state the phone started in.
    static func note(authorization: [AuthorizationChange], promptLog: [PromptLogEntry], start: SimInstant)
        -> RunNote?
    {
        for change in authorization {
            if case .location(let status, _, _) = change.kind, status != .notDetermined { return nil }
        }
        let location = promptLog.filter { $0.kind == .location || $0.kind == .locationForAlways }
        guard let first = location.first else {
            return RunNote(
                message: "location authorization never settled: it stayed notDetermined and nothing asked for it, "
                    + "so no location reached the app; start the phone authorized or run a permission flow",
                time: start)
        }
        for entry in location {
            switch entry.outcome {
            case .suppressed, .answered: return nil
            case .shown: continue
            }
        }
        return RunNote(
            message: "location authorization never settled: the location prompt was never answered, "
                + "so no location reached the app",
            time: first.time)
    }

    /// The note for `replay`, run from `start` with no permission flow before it, as `track`
    /// runs one; its authorization timeline opens with the state the phone started in.
    package static func note<Client: LocationClient>(_ replay: Replay<Client>, start: SimInstant) -> RunNote? {
        note(authorization: replay.authorizationTimeline, promptLog: replay.device.promptLog, start: start)
    }
}
