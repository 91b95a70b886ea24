import Device
import Foundation

/// Keeps a When-In-Use app in use after it leaves the foreground, so its location updates go
/// on (iOS shows the background location indicator meanwhile). Models
/// `CLBackgroundActivitySession` (iOS 17+).
///
/// Creating one tells the simulated phone `AppRequest.startedBackgroundSession`; the phone
/// grants it only under an effective authorization, and only while the app is in use (a
/// session created in the background does not make the app in use), as the device's
/// `startedBackgroundSession` rule says. `invalidate()`, or releasing the object, ends it
/// (`AppRequest.endedBackgroundSession`): Apple's session lasts while the app holds it
/// (WWDC23 "Discover streamlined location updates"). The phone keeps one session per app, so
/// ending any session ends the app's session.
///
/// Created outside a replay, the session is inert. The iOS 18 `diagnostics` sequence and the
/// `init(queue:handler:)` variant are not modelled.
public final class CLBackgroundActivitySession: Sendable {
    private let host: SimulationHost?
    private let isValid = LockedFlag(true)

    /// Starts a session on the phone of the replay whose code is running.
    public init() {
        host = SimulationHost.current
        host?.perform(.startedBackgroundSession)
    }

    /// Ends the session; it cannot be started again (make a new one).
    public func invalidate() {
        guard isValid.clear() else { return }
        host?.perform(.endedBackgroundSession)
    }

    deinit { invalidate() }
}

/// A Boolean behind a lock, cleared once.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Bool

    init(_ value: Bool) { self.value = value }

    /// Clears the flag; `true` when it was set.
    func clear() -> Bool {
        lock.withLock {
            defer { value = false }
            return value
        }
    }

    var isSet: Bool { lock.withLock { value } }
}
