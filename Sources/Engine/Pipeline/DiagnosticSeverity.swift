/// How much a diagnostic matters, worst first: every output lists errors, then warnings, then
/// information, so the one line that explains a run is not buried under hundreds that do not.
public enum DiagnosticSeverity: String, Sendable, CaseIterable, Comparable {
    /// The run cannot be trusted as it stands: the app crashed, read the wall clock, waited on
    /// a timer or the main queue outside virtual time, or left a task the replay had to give up on.
    case error
    /// The app missed something it should hear about, or the engine said something went wrong.
    case warning
    /// Worth knowing, nothing wrong: an optional callback the app does not implement.
    case information

    /// Errors first.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
        switch self {
        case .error: 0
        case .warning: 1
        case .information: 2
        }
    }
}

extension ClientDiagnostic {
    /// How much this diagnostic matters (`severity(of:)`).
    public var severity: DiagnosticSeverity { Self.severity(of: message) }

    /// The callback named by a "CALLBACK reached TYPE, which has no handler for it" message
    /// (`unhandledCallbackMessage`), or `nil` for any other message.
    public var unhandledCallback: String? { Self.unhandledCallback(in: message)?.callback }

    /// How much a diagnostic saying `message` matters, read from the message: the one place
    /// that decides it, so text, JSON and HTML agree, and a subprocess engine's messages are
    /// classified as the facade's are.
    /// - an error: a message starting `crash:`, `wall clock:`, `timer:`, `main queue:` or
    ///   `stalled task:`, and the facade's note that an app task stalled the replay;
    /// - information: an optional delegate callback that reached a delegate without a handler
    ///   (`unhandledCallbackMessage`), except `didUpdateLocations`, whose locations are lost;
    /// - a warning: everything else an engine says.
    /// - Parameter message: the diagnostic's text.
    /// - Returns: its severity.
    public static func severity(of message: String) -> DiagnosticSeverity {
        if errorPrefixes.contains(where: { message.hasPrefix($0) }) { return .error }
        if let callback = unhandledCallback(in: message)?.callback, !callbacksThatMatter.contains(callback) {
            return .information
        }
        return .warning
    }

    /// The callback and the delegate's type named by an `unhandledCallbackMessage`, or `nil`
    /// for any other message.
    package static func unhandledCallback(in message: String) -> (callback: String, delegate: String)? {
        guard message.hasSuffix(unhandledSuffix), let reached = message.range(of: " reached ") else { return nil }
        let delegateEnd = message.index(message.endIndex, offsetBy: -unhandledSuffix.count)
        guard reached.upperBound <= delegateEnd else { return nil }
        return (String(message[..<reached.lowerBound]), String(message[reached.upperBound..<delegateEnd]))
    }

    /// What the facade notes when `callback` reaches a delegate of type `delegate` without a
    /// handler of its own.
    package static func unhandledCallbackMessage(_ callback: String, delegate: String) -> String {
        "\(callback) reached \(delegate)\(unhandledSuffix)"
    }

    private static let unhandledSuffix = ", which has no handler for it"

    /// Message prefixes that make a diagnostic an error. The Core Location facade's note of a
    /// stalled task predates the `stalled task:` prefix and is matched by its opening words.
    private static let errorPrefixes = [
        "crash:", "wall clock:", "timer:", "main queue:", "stalled task:",
        "a task the app started neither finished nor waited",
    ]

    /// Callbacks whose missing handler loses what the app exists for: the locations themselves.
    /// (A `didFailWithError` without a handler matters only while authorization keeps updates
    /// from coming; the facade words that case as a warning of its own.)
    private static let callbacksThatMatter: Set<String> = ["locationManager(_:didUpdateLocations:)"]
}

extension [ClientDiagnostic] {
    /// The diagnostics worst first; within a severity, in the order first seen.
    public var sortedBySeverity: [ClientDiagnostic] {
        enumerated().sorted { ($0.element.severity, $0.offset) < ($1.element.severity, $1.offset) }.map(\.element)
    }
}
