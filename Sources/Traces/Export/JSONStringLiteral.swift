/// JSON string literals, written once for every JSON the package writes (reports, the engine
/// protocol): quotes, backslashes and control characters escaped, everything else as is.
/// JSON requires only C0 escaped; DEL, C1 and U+2028/U+2029 are escaped too, so a JSON file
/// shown in a terminal or embedded in a script never carries a raw control character.
package enum JSONStringLiteral {
    /// Appends `value` to `text` as a quoted JSON string.
    package static func append(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20 || (scalar.value >= 0x7F && Self.isEscapedAbove(scalar.value)):
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// DEL, C1, U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR.
    private static func isEscapedAbove(_ value: UInt32) -> Bool {
        value <= 0x9F || value == 0x2028 || value == 0x2029
    }
}
