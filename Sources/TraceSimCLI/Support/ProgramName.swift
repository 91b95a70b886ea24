/// The name help and errors give the program: `tracesim`, or the executable of a program built
/// on `TraceSimCommandLine.main` (`trip-tracker`), so its user is told to run the command they
/// have, not one they may not.
///
/// Help and error texts are written for `tracesim`; `rename` turns each invocation in them
/// (`tracesim matrix`, `'tracesim help merge'`, `tracesim --help`) into the program's. Only
/// the word followed by a space and not inside another word is an invocation: `tracesim-runs`
/// (a JSON Lines kind) and `'tracesim'` (a sentence that means TraceSim's own tool, which an
/// embedding program's `--engine-command` refusal points to) stay as written.
enum ProgramName {
    /// TraceSim's own executable.
    static let tool = "tracesim"

    /// The program's name from the path it was started by (`CommandLine.arguments[0]`): its
    /// last path component, or `tracesim` when there is none.
    static func of(invocation path: String?) -> String {
        guard let path, let last = path.split(separator: "/").last, !last.isEmpty else { return tool }
        return String(last)
    }

    /// `text` with every invocation of `tracesim` made an invocation of `program`.
    static func rename(_ text: String, to program: String) -> String {
        guard program != tool else { return text }
        var result = ""
        result.reserveCapacity(text.count)
        var rest = Substring(text)
        while let range = rest.range(of: tool + " ") {
            let before = rest[..<range.lowerBound]
            result += before
            let isWordStart = before.last.map { !($0.isLetter || $0.isNumber || "-_./".contains($0)) } ?? true
            result += isWordStart ? program + " " : tool + " "
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
