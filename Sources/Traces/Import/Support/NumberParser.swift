/// Decimal number parsing straight from bytes, without building strings.
///
/// The fast path is Clinger's: a decimal whose significand fits in 53 bits and whose power of
/// ten is at most 22 converts exactly with one multiplication or division. Everything else
/// (long significands such as Swift's 17-digit shortest representations) is validated here
/// and handed to the standard library's correctly rounded conversion.
enum NumberParser {
    /// The result of reading a number field.
    enum Outcome<Value> {
        case value(Value)
        /// Not a number at all.
        case invalid
        /// `nan`, `inf`, or a magnitude the type cannot hold.
        case nonFinite
    }

    @usableFromInline static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Parses `[+-]digits[.digits][(e|E)[+-]digits]` (also `.5` and `5.`).
    static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Outcome<Double> {
        let count = bytes.count
        guard count > 0 else { return .invalid }
        var index = 0
        var isNegative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            isNegative = bytes[0] == UInt8(ascii: "-")
            index = 1
        }
        var significand: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        var sawDigit = false

        while index < count {
            let digit = bytes[index] &- 48
            guard digit <= 9 else { break }
            sawDigit = true
            if significantDigits < 19 {
                significand = significand * 10 + UInt64(digit)
                if significand != 0 { significantDigits += 1 }
            } else {
                exponent += 1
                significantDigits += 1
            }
            index += 1
        }
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < count {
                let digit = bytes[index] &- 48
                guard digit <= 9 else { break }
                sawDigit = true
                if significantDigits < 19 {
                    significand = significand * 10 + UInt64(digit)
                    exponent -= 1
                    if significand != 0 { significantDigits += 1 }
                } else {
                    significantDigits += 1
                }
                index += 1
            }
        }
        guard sawDigit else { return isNonFiniteWord(bytes) ? .nonFinite : .invalid }
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentIsNegative = false
            if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentIsNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var explicitExponent = 0
            var sawExponentDigit = false
            while index < count {
                let digit = bytes[index] &- 48
                guard digit <= 9 else { break }
                sawExponentDigit = true
                if explicitExponent < 100_000 { explicitExponent = explicitExponent * 10 + Int(digit) }
                index += 1
            }
            guard sawExponentDigit else { return .invalid }
            exponent += exponentIsNegative ? -explicitExponent : explicitExponent
        }
        guard index == count else { return .invalid }

        if significantDigits <= 19, significand <= 1 << 53, exponent >= -22, exponent <= 22 {
            var value = Double(significand)
            if exponent < 0 {
                value /= exactPowersOfTen[-exponent]
            } else {
                value *= exactPowersOfTen[exponent]
            }
            return .value(isNegative ? -value : value)
        }
        if significand == 0 && significantDigits == 0 { return .value(isNegative ? -0.0 : 0.0) }
        guard let value = Double(String(decoding: bytes, as: UTF8.self)) else { return .invalid }
        return value.isFinite ? .value(value) : .nonFinite
    }

    /// Parses a decimal into the nearest `Float`, rounding once (never decimal → Double → Float
    /// where that could round twice).
    static func float(_ bytes: UnsafeBufferPointer<UInt8>) -> Outcome<Float> {
        switch double(bytes) {
        case .invalid: return .invalid
        case .nonFinite: return .nonFinite
        case .value(let wide):
            let magnitude = abs(wide)
            // A Double lying exactly halfway between two Floats may itself be a rounded
            // decimal, so the second rounding could go the wrong way: ask the correctly
            // rounding parser directly. Subnormal Floats take the same careful path.
            let isFloatMidpoint = wide.bitPattern & 0x1FFF_FFFF == 0x1000_0000
            if isFloatMidpoint || (magnitude != 0 && magnitude < Double(Float.leastNormalMagnitude)) {
                guard let narrow = Float(String(decoding: bytes, as: UTF8.self)) else { return .invalid }
                return narrow.isFinite ? .value(narrow) : .nonFinite
            }
            let narrow = Float(wide)
            return narrow.isFinite ? .value(narrow) : .nonFinite
        }
    }

    /// Parses an optionally signed decimal integer that fits in `Int64`.
    static func int64(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        let count = bytes.count
        guard count > 0 else { return nil }
        var index = 0
        var isNegative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            isNegative = bytes[0] == UInt8(ascii: "-")
            index = 1
        }
        guard index < count else { return nil }
        var value: Int64 = 0
        while index < count {
            let digit = bytes[index] &- 48
            guard digit <= 9 else { return nil }
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(Int64(digit))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            index += 1
        }
        return isNegative ? -value : value
    }

    /// Reads plain decimal seconds (`1497475499.025679`) straight into nanoseconds, so a
    /// timestamp keeps the digits its file wrote instead of a `Double`'s nearest binary value.
    /// Returns `nil` for exponents, more than nine fraction digits, or overflow; callers then
    /// fall back to `double`.
    static func decimalSecondsAsNanoseconds(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var point = 0
        while point < bytes.count, bytes[point] != UInt8(ascii: ".") { point += 1 }
        guard let whole = int64(UnsafeBufferPointer(rebasing: bytes[0..<point])) else { return nil }
        var fraction: Int64 = 0
        var scale: Int64 = 100_000_000
        if point < bytes.count {
            let digits = bytes.count - point - 1
            guard digits >= 1, digits <= 9 else { return nil }
            for index in (point + 1)..<bytes.count {
                let digit = bytes[index] &- 48
                guard digit <= 9 else { return nil }
                fraction += Int64(digit) * scale
                scale /= 10
            }
        }
        let isNegative = bytes.first == UInt8(ascii: "-")
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return nil }
        let (total, overflow2) = scaled.addingReportingOverflow(isNegative ? -fraction : fraction)
        return overflow2 ? nil : total
    }

    private static func isNonFiniteWord(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") { start = 1 }
        let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self).lowercased()
        return word == "nan" || word == "inf" || word == "infinity"
    }
}
