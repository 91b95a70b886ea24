import Reports
import SimulationCore
import Traces

/// Paths and typed values as messages quote them. A path read from a list or found in a walk
/// may hold any byte but NUL and `/`, and a list line may be megabytes long: quoted raw, a CR
/// would rewrite the terminal line and a 10 MB path would bury the message. Ordinary paths and
/// values come back unchanged, so messages about them stay byte for byte what they were.
enum MessageText {
    /// The most characters of a path or value quoted; the rest is cut and its size said.
    static let limit = VisibleText.quotedLimit

    /// `path` as messages name it: standard input as `<stdin>`, control characters escaped
    /// (`\r`, `\u{1B}`), and past `limit` characters cut with `…` and the whole path's size in
    /// bytes.
    static func path(_ path: String) -> String {
        quoted(TraceFile.displayName(forPath: path))
    }

    /// A value typed on the command line, quoted as `path(_:)` quotes a path.
    static func value(_ text: String) -> String { quoted(text) }

    private static func quoted(_ text: String) -> String { VisibleText.quoted(text, limit: limit) }
}
