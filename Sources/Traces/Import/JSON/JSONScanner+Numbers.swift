/// Numbers read in one pass: the JSON grammar checked and the value accumulated together,
/// for the plain decimals trace files are made of (`37.3999883`, `-122`, `0.5`).
///
/// Anything else (an exponent, more than 19 digits, a grammar error, `null`, a string) is
/// left untouched for the checked path (`readNumberRange`, then `NumberParser`), so errors
/// and unusual numbers are read exactly as before. The value is the one `NumberParser.double`
/// gives for the same bytes: the same exact paths (`NumberParser.exactValue`) on the same
/// significand and power of ten.
extension JSONScanner {
    /// The plain decimal at `position` (after whitespace) and its byte range, consumed; or
    /// `nil`, with only whitespace consumed, when the checked path must read it.
    /// - Complexity: O(digits), a few instructions a digit.
    @inline(__always)
    mutating func readPlainDouble() -> (value: Double, start: Int, end: Int)? {
        skipWhitespace()
        let bytes = source.bytes
        let start = position
        var index = start
        guard index < end else { return nil }
        let isNegative = bytes[index] == UInt8(ascii: "-")
        if isNegative { index &+= 1 }
        guard index < end else { return nil }
        var significand: UInt64 = 0
        let integerStart = index
        if bytes[index] == UInt8(ascii: "0") {
            index &+= 1
            // `01`: a leading zero, which the checked path refuses with its own message.
            if index < end, bytes[index] &- 48 <= 9 { return nil }
        } else {
            while index < end, bytes[index] &- 48 <= 9 {
                significand = significand &* 10 &+ UInt64(bytes[index] &- 48)
                index &+= 1
            }
            // `-`, `-x`, `.5`: not a digit where JSON needs one.
            guard index > integerStart else { return nil }
        }
        var digits = index &- integerStart
        var fractionDigits = 0
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index &+= 1
            let fractionStart = index
            while index < end, bytes[index] &- 48 <= 9 {
                significand = significand &* 10 &+ UInt64(bytes[index] &- 48)
                index &+= 1
            }
            fractionDigits = index &- fractionStart
            // `1.`: no digit after the point.
            guard fractionDigits > 0 else { return nil }
            digits &+= fractionDigits
        }
        // More than 19 digits may have wrapped the significand; an exponent, or a number
        // that goes on (`1.2.3`, `5-3`), is for the checked path.
        guard digits <= 19 else { return nil }
        if index < end {
            switch bytes[index] {
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                return nil
            default: break
            }
        }
        // At most 19 digits, so the significand is exact; all of them zero is a signed zero,
        // as `NumberParser.double` reads it.
        let value: Double
        if significand == 0 {
            value = isNegative ? -0.0 : 0.0
        } else if let exact = NumberParser.exactValue(significand, exponent: -fractionDigits, isNegative: isNegative) {
            value = exact
        } else {
            return nil
        }
        position = index
        return (value, start, index)
    }
}
