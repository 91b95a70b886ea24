/// The phone's screen lock, as the lifecycle needs it.
///
/// It sits beside the process phase, not in its payload: the screen belongs to the phone and
/// outlives the app's process (a screen locked over an app stays locked while the app is
/// terminated and relaunched into the background for a region event). All four combinations of
/// the two flags are reachable, so a struct states them no looser than an enum would.
public struct ScreenLock: Sendable, Equatable {
    /// The screen is locked.
    public package(set) var isLocked = false
    /// The screen was locked over the app in the foreground and no unlock has come since, so
    /// the next unlock brings the app back. Bringing the app forward in another way (opening it,
    /// switching to it) does not disarm it; that is how the replay has always behaved.
    public package(set) var unlockReturnsToApp = false

    package init(isLocked: Bool = false, unlockReturnsToApp: Bool = false) {
        self.isLocked = isLocked
        self.unlockReturnsToApp = unlockReturnsToApp
    }
}
