/// Text from outside (a path from a list, an engine's message) made safe to show: every control
/// character becomes a visible escape, so none can move the cursor, clear a terminal, start a
/// new line that forges a "FAIL" row, or reach an XML report, where XML 1.0 forbids most of
/// them even as character references.
package enum VisibleText {
    /// `text` with `\t`, `\n`, `\r` and every other control character (C0, DEL, C1), line and
    /// paragraph separators and bidirectional controls written as escapes (`\t`, `\u{1B}`).
    /// Text without them comes back unchanged.
    package static func escapingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }

    /// The most characters of outside text a message quotes (`quoted(_:limit:)`).
    package static let quotedLimit = 256

    /// `text` as a message quotes it: control characters escaped as `escapingControls` does,
    /// and past `limit` characters cut with `…` and the whole text's size in bytes, so a
    /// megabyte path from a crafted file cannot bury the message it is named in. Text without
    /// control characters and within the limit comes back unchanged.
    package static func quoted(_ text: String, limit: Int = quotedLimit) -> String {
        let head = text.prefix(limit)
        guard head.endIndex != text.endIndex else { return escapingControls(text) }
        return escapingControls(String(head)) + "… (\(text.utf8.count) bytes)"
    }

    /// Whether `escapingControls` writes `scalar` as an escape.
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        // Line and paragraph separators end a line in some viewers.
        case 0x2028, 0x2029: true
        // Bidirectional marks, embeddings, overrides and isolates reorder what follows them.
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
