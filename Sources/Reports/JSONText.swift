import Traces

/// A JSON value with object keys kept in the order they were added, so every JSON report has
/// a deterministic, documented key order (Foundation's encoders do not promise one).
package indirect enum JSONText: Sendable {
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONText])
    case object([(String, JSONText)])

    /// Compact one-line rendering. A whole number of `.number` prints without a fraction; a
    /// non-finite one prints as `null`.
    public var rendered: String {
        var text = ""
        render(into: &text)
        return text
    }

    private func render(into text: inout String) {
        switch self {
        case .string(let value): JSONStringLiteral.append(value, to: &text)
        case .integer(let value): text += String(value)
        case .number(let value):
            text += value.isFinite ? NumberText.json(value) : "null"
        case .bool(let value): text += value ? "true" : "false"
        case .null: text += "null"
        case .array(let values):
            text += "["
            for (index, value) in values.enumerated() {
                if index > 0 { text += "," }
                value.render(into: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { text += "," }
                JSONStringLiteral.append(key, to: &text)
                text += ":"
                value.render(into: &text)
            }
            text += "}"
        }
    }
}
