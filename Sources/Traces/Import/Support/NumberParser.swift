/// Decimal number parsing straight from bytes, without building strings.
///
/// The fast path is Clinger's: a decimal whose significand fits in 53 bits and whose power of
/// ten is at most 22 converts exactly with one multiplication or division. Everything else
/// (long significands such as Swift's 17-digit shortest representations) is validated here
/// and handed to the standard library's correctly rounded conversion.
package enum NumberParser {
    /// The result of reading a number field.
    package enum Outcome<Value> {
        case value(Value)
        /// Not a number at all.
        case invalid
        /// `nan`, `inf`, or a magnitude the type cannot hold.
        case nonFinite

        /// The value, or the error `fail` builds for the problem (every importer reports bad
        /// numbers the same way, only its position differs).
        @inline(__always)
        func value(
            field: String, fail: (TraceFormatError.Problem) -> TraceFormatError
        ) throws(TraceFormatError) -> Value {
            switch self {
            case .value(let value): return value
            case .invalid: throw fail(.invalidNumber(field: field))
            case .nonFinite: throw fail(.nonFiniteNumber(field: field))
            }
        }
    }

    /// 10^exponent for 0...22, every one exactly representable. A switch compiles to a
    /// constant table with no lazy-global check, unlike a `static let` array.
    @inline(__always)
    static func exactPowerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    /// Parses `[+-]digits[.digits][(e|E)[+-]digits]` (also `.5` and `5.`).
    /// - Complexity: O(n), a few instructions a digit on the fast path.
    package static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Outcome<Double> {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return .invalid }
        let count = bytes.count
        var index = 0
        let isNegative = base[0] == UInt8(ascii: "-")
        if isNegative || base[0] == UInt8(ascii: "+") { index = 1 }

        // Accumulate every digit with wrapping arithmetic; whether the significand overflowed
        // is decided afterwards from the count of significant digits.
        var significand: UInt64 = 0
        let integerStart = index
        while index < count, base[index] &- 48 <= 9 {
            significand = significand &* 10 &+ UInt64(base[index] &- 48)
            index &+= 1
        }
        let integerDigits = index &- integerStart
        var fractionDigits = 0
        if index < count, base[index] == UInt8(ascii: ".") {
            index &+= 1
            let fractionStart = index
            while index < count, base[index] &- 48 <= 9 {
                significand = significand &* 10 &+ UInt64(base[index] &- 48)
                index &+= 1
            }
            fractionDigits = index &- fractionStart
        }
        guard integerDigits + fractionDigits > 0 else { return isNonFiniteWord(bytes) ? .nonFinite : .invalid }

        var exponent = -fractionDigits
        if index < count, base[index] | 0x20 == UInt8(ascii: "e") {
            index &+= 1
            var exponentIsNegative = false
            if index < count, base[index] == UInt8(ascii: "-") || base[index] == UInt8(ascii: "+") {
                exponentIsNegative = base[index] == UInt8(ascii: "-")
                index &+= 1
            }
            var explicitExponent = 0
            let exponentStart = index
            while index < count, base[index] &- 48 <= 9 {
                if explicitExponent < 100_000 { explicitExponent = explicitExponent &* 10 &+ Int(base[index] &- 48) }
                index &+= 1
            }
            guard index > exponentStart else { return .invalid }
            exponent += exponentIsNegative ? -explicitExponent : explicitExponent
        }
        guard index == count else { return .invalid }

        // Digits after leading zeros; more than 19 may have wrapped the significand.
        var leadingZeros = 0
        var scan = integerStart
        while scan < count, base[scan] == UInt8(ascii: "0") || base[scan] == UInt8(ascii: ".") {
            if base[scan] == UInt8(ascii: "0") { leadingZeros &+= 1 }
            scan &+= 1
        }
        let significantDigits = integerDigits + fractionDigits - leadingZeros
        if significand == 0 && significantDigits <= 0 { return .value(isNegative ? -0.0 : 0.0) }
        if significantDigits <= 19, let value = exactValue(significand, exponent: exponent, isNegative: isNegative) {
            return .value(value)
        }
        guard let value = Double(String(decoding: bytes, as: UTF8.self)) else { return .invalid }
        return value.isFinite ? .value(value) : .nonFinite
    }

    /// `significand · 10^exponent`, negated when `isNegative`, when one of the exact paths
    /// takes it: Clinger's (a significand of at most 2^53, a power of ten of at most 22), or
    /// `quotient` (a negative power down to 10^-19). `nil` otherwise. The significand must be
    /// the decimal's digits, at most 19 significant ones, so it never wrapped.
    // `@_transparent`, not `@inline(__always)`: this compiler left the latter a call in
    // `double`, which cost the other importers 2-5 % (callgrind, the import workload).
    @_transparent
    static func exactValue(_ significand: UInt64, exponent: Int, isNegative: Bool) -> Double? {
        if significand <= 1 << 53, exponent >= -22, exponent <= 22 {
            var value = Double(significand)
            if exponent < 0 {
                value /= exactPowerOfTen(-exponent)
            } else {
                value *= exactPowerOfTen(exponent)
            }
            return isNegative ? -value : value
        }
        if exponent < 0, exponent >= -19 {
            let value = quotient(significand, exactPowerOfTenInteger(-exponent))
            return isNegative ? -value : value
        }
        return nil
    }

    /// 10^exponent for 1...19, all below 2^64.
    @inline(__always)
    static func exactPowerOfTenInteger(_ exponent: Int) -> UInt64 {
        var power: UInt64 = 10
        for _ in 1..<exponent { power &*= 10 }
        return power
    }

    /// The `Double` nearest to `numerator / denominator`, ties to even, for the long
    /// significands Clinger's path cannot take: Swift and most loggers write 17 significant
    /// digits, such as `37.422094999999999`, whose significand needs 55 bits.
    ///
    /// Exact: the quotient is taken to 63 or 64 bits by one 128-by-64-bit division, and
    /// rounded to 53 once, the division's remainder standing for every bit beyond (the
    /// "sticky" bit of IEEE 754 rounding). The result is normal for every input that reaches
    /// here (at least 10^-19), so no subnormal case arises.
    /// - Complexity: O(1), one hardware division.
    @inline(__always)
    static func quotient(_ numerator: UInt64, _ denominator: UInt64) -> Double {
        guard numerator != 0 else { return 0 }
        let numeratorBits = 64 &- numerator.leadingZeroBitCount
        let denominatorBits = 64 &- denominator.leadingZeroBitCount
        // numerator · 2^shift has 63 + denominatorBits bits, so the quotient lies in
        // [2^62, 2^64): wide enough to round, narrow enough for one division.
        let shift = 63 &- numeratorBits &+ denominatorBits
        let high = shift == 0 ? 0 : (shift >= 64 ? numerator << UInt64(shift &- 64) : numerator >> UInt64(64 &- shift))
        let low = shift >= 64 ? 0 : numerator << UInt64(shift)
        let (quotient, remainder) = denominator.dividingFullWidth((high, low))
        let dropped = (64 &- quotient.leadingZeroBitCount) &- 53
        let mask = (UInt64(1) << UInt64(dropped)) &- 1
        let half = UInt64(1) << UInt64(dropped &- 1)
        let rest = quotient & mask
        var mantissa = quotient >> UInt64(dropped)
        if rest > half || (rest == half && (remainder != 0 || mantissa & 1 == 1)) { mantissa &+= 1 }
        return Double(sign: .plus, exponent: dropped &- shift, significand: Double(mantissa))
    }

    /// Parses a decimal into the nearest `Float`, rounding once (never decimal → Double → Float
    /// where that could round twice).
    static func float(_ bytes: UnsafeBufferPointer<UInt8>) -> Outcome<Float> {
        switch double(bytes) {
        case .invalid: return .invalid
        case .nonFinite: return .nonFinite
        case .value(let wide): return float(nearest: wide, of: bytes)
        }
    }

    /// The `Float` nearest to the decimal `bytes`, given `wide`, the `Double` nearest to it:
    /// what `float` does once the `Double` is known (a reader that parsed it already, such as
    /// `JSONScanner`'s one-pass numbers, narrows it here, rounding exactly as `float` does).
    @inline(__always)
    static func float(nearest wide: Double, of bytes: UnsafeBufferPointer<UInt8>) -> Outcome<Float> {
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
