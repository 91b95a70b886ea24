/// JSON string literals, written once for every JSON the package writes (reports, the engine
/// protocol): quotes, backslashes and control characters escaped, everything else as is.
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
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
