import SimulationCore

/// Numeric options, every one read by `DecimalNumber`'s grammar. A value outside the grammar is
/// a usage error (64) that says what the grammar is; one in the grammar but out of range keeps
/// the option's own wording of its range.
enum NumberArgument {
    /// A whole number within `range`.
    /// - Parameter described: what the option takes, as in "--jobs must be `a whole number of
    ///   at least 1`".
    static func whole(
        _ text: String, option: String, described: String, in range: ClosedRange<UInt64>, command: String
    ) throws(UsageError) -> UInt64 {
        guard let value = DecimalNumber.whole(text) else {
            // Digits alone that still do not fit are out of range, not badly written.
            let isDigits = !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            let form = isDigits && text.first != "0" ? "" : " (\(DecimalNumber.wholeForm))"
            throw UsageError(
                "\(option) must be \(described)\(form), not '\(MessageText.value(text))'", command: command)
        }
        guard range.contains(value) else {
            throw UsageError("\(option) must be \(described), not '\(MessageText.value(text))'", command: command)
        }
        return value
    }

    /// A decimal number for which `isAccepted` holds; a `-` only when `allowsNegative`.
    /// - Parameters:
    ///   - unit: what it counts, as in "a decimal number `of seconds`".
    ///   - range: the accepted values in words, as in "--engine-timeout must be a number of
    ///     seconds `above 0 and at most 86400`".
    static func decimal(
        _ text: String, option: String, unit: String, range: String, allowsNegative: Bool = false,
        command: String, isAccepted: (Double) -> Bool
    ) throws(UsageError) -> Double {
        guard let value = DecimalNumber.decimal(text, allowsNegative: allowsNegative) else {
            let sign = allowsNegative ? "" : "; no sign"
            throw UsageError(
                "\(option) must be a decimal number \(unit) (\(DecimalNumber.decimalForm)\(sign)), "
                    + "not '\(MessageText.value(text))'", command: command)
        }
        guard value.isFinite, isAccepted(value) else {
            throw UsageError(
                "\(option) must be a number \(unit) \(range), not '\(MessageText.value(text))'", command: command)
        }
        return value
    }
}
