/// Number spellings for the exporters and the JSON reports: the shortest text that reads back
/// to the same bits.
package enum NumberText {
    /// Swift's shortest round-trip spelling, possibly with an exponent (`1e-05`).
    @inline(__always)
    static func shortest(_ value: Double) -> String { value.description }

    /// A finite number as TraceSim's JSON writes it: a whole number below 10^15 without a
    /// fraction (`3`, not `3.0`), anything else in its shortest round-trip spelling. The reports
    /// and a sharded run's identity must agree on it, or merge would refuse its own parts.
    package static func json(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : value.description
    }

    /// The shortest round-trip spelling of a `Float`, which reads back exactly through
    /// `NumberParser.float`.
    @inline(__always)
    static func shortest(_ value: Float) -> String { value.description }

    /// A plain decimal without an exponent, for XML Schema `xsd:decimal` fields (GPX's
    /// `lat`/`lon`), still exact: the exponent is folded into the digits.
    static func plainDecimal(_ value: Double) -> String {
        let text = value.description
        guard let exponentIndex = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return text }
        let exponent = Int(text[text.index(after: exponentIndex)...]) ?? 0
        var mantissa = String(text[..<exponentIndex])
        let isNegative = mantissa.hasPrefix("-")
        if isNegative { mantissa.removeFirst() }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let integerDigits = String(parts[0])
        let fractionDigits = parts.count > 1 ? String(parts[1]) : ""
        var digits = integerDigits + fractionDigits
        var pointPosition = integerDigits.count + exponent
        if pointPosition <= 0 {
            digits = String(repeating: "0", count: -pointPosition + 1) + digits
            pointPosition = 1
        } else if pointPosition > digits.count {
            digits += String(repeating: "0", count: pointPosition - digits.count)
        }
        let integerPart = digits.prefix(pointPosition)
        var fractionPart = digits.dropFirst(pointPosition)
        while fractionPart.last == "0" { fractionPart = fractionPart.dropLast() }
        let body = fractionPart.isEmpty ? String(integerPart) : "\(integerPart).\(fractionPart)"
        return isNegative ? "-" + body : body
    }
}
