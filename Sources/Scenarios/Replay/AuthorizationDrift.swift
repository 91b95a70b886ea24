import Device
import SimulationCore

/// A run that ended with a location status other than the one its scenario's name promises
/// (`Scenario.expectedAuthorization`): `wheninuse-locked → authorizedAlways at +2 s` when the
/// app asked for Always and the scenario's person accepted. Reports mark such a row, so a
/// When-In-Use row that measured Always cannot pass for When-In-Use.
///
/// The status compared is the one the app is told (`CLAuthorizationStatus`): a provisional
/// Always reads `authorizedAlways`, and an Allow Once grant that lapsed back to `notDetermined`
/// counts as the When-In-Use it was, since lapsing is what Allow Once promises (a1 #12).
public struct AuthorizationDrift: Sendable, Equatable {
    /// What the scenario's name promises.
    public var expected: AuthorizationStatus
    /// What the run ended with.
    public var final: AuthorizationStatus
    /// When the run reached `final` and stayed there.
    public var time: SimInstant

    /// A drift from `expected` to `final`, reached at `time`.
    /// - Parameters:
    ///   - expected: the status the scenario promises.
    ///   - final: the status the run ended with.
    ///   - time: when the run reached `final` for good.
    public init(expected: AuthorizationStatus, final: AuthorizationStatus, time: SimInstant) {
        self.expected = expected
        self.final = final
        self.time = time
    }

    /// The drift of a run whose authorization timeline is `timeline` (opening with the state
    /// the phone started in), or `nil` when it ended with `expected`, or nothing is expected.
    /// - Parameters:
    ///   - expected: the scenario's `expectedAuthorization`.
    ///   - timeline: the run's authorization timeline, in time order.
    /// - Complexity: O(n) in the timeline's length.
    static func of(expected: AuthorizationStatus?, timeline: [AuthorizationChange]) -> AuthorizationDrift? {
        guard let expected else { return nil }
        var final: AuthorizationStatus?
        var reached: SimInstant?
        var hasLapsed = false
        for change in timeline {
            switch change.kind {
            case .allowOnceLapsed:
                hasLapsed = true
            case .location(let status, _, _):
                defer { hasLapsed = false }
                // The lapse of an Allow Once grant is the grant working as promised.
                if hasLapsed && status == .notDetermined { continue }
                if status != final {
                    final = status
                    reached = change.time
                }
            case .motion, .suspended, .woken, .launched, .terminated:
                continue
            }
        }
        guard let final, let reached, final != expected else { return nil }
        return AuthorizationDrift(expected: expected, final: final, time: reached)
    }

    /// The note a run carries for it (`RunNote`), under the scenario's name: every format prints
    /// TraceSim's notes, and a matrix counts the runs each note was made in.
    func note(scenario: String) -> RunNote {
        RunNote(
            message: "\(scenario) → \(final.name), not the \(expected.name) the scenario promises", time: time)
    }
}
