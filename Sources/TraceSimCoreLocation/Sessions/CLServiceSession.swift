import Device
import Foundation

/// Declares what authorization a feature of the app needs while the object lives. Models
/// `CLServiceSession` (iOS 18+, WWDC24 "What's new in location authorization").
///
/// Creating a session with `.whenInUse` or `.always` asks for that authorization when it
/// can be asked for: `.whenInUse` asks for When In Use while the status is not determined;
/// `.always` asks for Always while the status is not determined or When In Use (the phone
/// decides whether a prompt appears, as for `requestAlwaysAuthorization`). With a
/// `fullAccuracyPurposeKey`, an app holding reduced accuracy also asks for temporary full
/// accuracy with that key. `.none` asks for nothing. Apple: passing a requirement other than
/// `.none` "causes Location Services to request a person's permission for the corresponding
/// level of authorization when possible" (`init(authorization:)`).
///
/// What is not modelled: the session does not keep a When-In-Use app in use in the
/// background (that is `CLBackgroundActivitySession`), the automatic re-asking after a
/// temporary authorization lapses, the implicit sessions of iOS 18's service-session
/// requirement (`NSLocationRequireExplicitServiceSession`), and the `diagnostics` sequence.
/// Created outside a replay, a session is inert.
public final class CLServiceSession: Sendable {
    /// When the session asks for authorization. Models
    /// `CLServiceSession.AuthorizationRequirement`.
    public enum AuthorizationRequirement: Sendable, Hashable {
        /// Asks for nothing; met when the app is already authorized.
        case none
        /// Asks for When In Use.
        case whenInUse
        /// Asks for Always.
        case always
    }

    private let isValid = LockedFlag(true)

    /// A session requiring `authorization`.
    public convenience init(authorization: AuthorizationRequirement) {
        self.init(authorization: authorization, purposeKey: nil)
    }

    /// A session requiring `authorization` and full accuracy, explained to the person by the
    /// Info.plist entry `fullAccuracyPurposeKey` names.
    public convenience init(authorization: AuthorizationRequirement, fullAccuracyPurposeKey: String) {
        self.init(authorization: authorization, purposeKey: fullAccuracyPurposeKey)
    }

    private init(authorization: AuthorizationRequirement, purposeKey: String?) {
        guard let host = SimulationHost.current else { return }
        switch (authorization, host.authorizationStatus) {
        case (.whenInUse, .notDetermined):
            host.perform(.requestedWhenInUse)
        case (.always, .notDetermined), (.always, .authorizedWhenInUse):
            host.perform(.requestedAlways)
        case (.none, _), (.whenInUse, _), (.always, _):
            break
        }
        if let purposeKey, host.authorizationStatus.isAuthorized, host.accuracyAuthorization == .reducedAccuracy {
            host.perform(.requestedTemporaryFullAccuracy(purpose: purposeKey))
        }
    }

    /// Ends the session. The phone holds no state for it, so nothing is sent.
    public func invalidate() { _ = isValid.clear() }
}
