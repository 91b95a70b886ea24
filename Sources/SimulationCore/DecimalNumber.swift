/// The one grammar for numbers a person types: every numeric option of the command line
/// (`--seed`, `--jobs`, `--shard`, `--engine-timeout`, `--assume-rate`) and every number inside
/// an option's value (`--sweep`, `--require`, `--noise`).
///
/// - A decimal is digits with an optional fraction and exponent, as JSON writes numbers:
///   `2`, `0.5`, `1e9`, `2.5E-3`.
/// - A whole number is digits alone.
/// - Neither takes hexadecimal (`0x10`, `0x1p-10`), a `+` in front, a leading zero before
///   another digit (`01`, which some tools read as octal), spaces, `inf` or `nan`; a `-` only
///   where the caller says the value may be negative.
///
/// Swift's own `Double(_:)` and `Int(_:)` take several of those, so `--shard +1/4` and
/// `--engine-timeout 0x10` used to pass while ` 1/4` did not; one grammar for every option
/// makes what is accepted predictable.
package enum DecimalNumber {
    /// The grammar of a decimal in words, for messages.
    package static let decimalForm = "digits with an optional fraction and exponent, such as 2, 0.5 or 1e9"

    /// The grammar of a whole number in words, for messages.
    package static let wholeForm = "decimal digits, no sign and no leading zero"

    /// `text` as a whole number: `0`, or digits not starting with `0`.
    /// - Returns: `nil` when `text` is not in the grammar or exceeds `UInt64.max`.
    package static func whole(_ text: some StringProtocol) -> UInt64? {
        let bytes = Array(text.utf8)
        guard integerEnd(bytes, from: 0) == bytes.count else { return nil }
        return UInt64(String(decoding: bytes, as: UTF8.self))
    }

    /// `text` as a decimal: an optional `-` (only when `allowsNegative`), a whole part as
    /// `whole(_:)` reads it, then an optional `.` and digits, then an optional `e` or `E`, sign
    /// and digits.
    /// - Returns: the nearest `Double` (an infinity for an exponent beyond its range, which the
    ///   caller's range check refuses), or `nil` when `text` is not in the grammar.
    package static func decimal(_ text: some StringProtocol, allowsNegative: Bool) -> Double? {
        let bytes = Array(text.utf8)
        var index = 0
        if allowsNegative, bytes.first == UInt8(ascii: "-") { index = 1 }
        guard let wholeEnd = integerEnd(bytes, from: index) else { return nil }
        index = wholeEnd
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            guard let end = digitsEnd(bytes, from: index + 1) else { return nil }
            index = end
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                index += 1
            }
            guard let end = digitsEnd(bytes, from: index) else { return nil }
            index = end
        }
        guard index == bytes.count else { return nil }
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    /// Where a whole part starting at `start` ends: after a lone `0`, or after a digit 1-9 and
    /// the digits following it; `nil` when there is none or a `0` is followed by a digit.
    private static func integerEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count, isDigit(bytes[start]) else { return nil }
        if bytes[start] == UInt8(ascii: "0") {
            return start + 1 < bytes.count && isDigit(bytes[start + 1]) ? nil : start + 1
        }
        return digitsEnd(bytes, from: start)
    }

    /// Where one or more digits starting at `start` end; `nil` when there is no digit there.
    private static func digitsEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        return index > start ? index : nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
