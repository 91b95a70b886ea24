import SimulationCore

/// Outside text (an engine's message, a failed run's line) in a Markdown report. Written as it
/// is, `ok<br>### FAIL [details](https://…)` would render as a heading and a link on GitHub;
/// inside a code span nothing renders.
enum MarkdownText {
    /// `text` (one line, control characters already escaped) as a Markdown code span, fenced by
    /// one backtick more than its longest run of them.
    static func codeSpan(_ text: String) -> String {
        var longest = 0
        var current = 0
        for character in text {
            current = character == "`" ? current + 1 : 0
            longest = max(longest, current)
        }
        let fence = String(repeating: "`", count: longest + 1)
        return fence + " " + text + " " + fence
    }
}

extension MarkdownText {
    /// Characters that may start HTML, a link, an image, emphasis, a heading or an entity.
    private static let active: Set<Character> = ["<", ">", "[", "]", "`", "*", "#", "!", "&", "\\", "~"]

    /// A name from a file (a trace's, a scenario's) as Markdown shows it: as it is when nothing
    /// in it could render, so ordinary names print as they always have, otherwise (control
    /// characters escaped) in a code span.
    static func name(_ text: String) -> String {
        let visible = VisibleText.escapingControls(text)
        guard visible.contains(where: active.contains) else { return visible }
        return codeSpan(visible)
    }
}
