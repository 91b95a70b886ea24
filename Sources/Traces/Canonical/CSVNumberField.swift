/// Reads a canonical CSV number cell in the same pass that finds where the cell ends.
///
/// Nearly every number TraceSim writes (and most loggers) is short and plain: `37.3999945`,
/// `-122.0998522`, `13.07`. For those, reading the digits once gives both the value and the
/// comma after it, instead of one pass to find the comma, a slice, and a second pass to parse;
/// up to eight digits are read at a time, from one 8-byte load.
///
/// The value is bit for bit what `NumberParser.double` gives: a cell of at most 15 digits has a
/// significand below 2^53 and a power of ten of at most 15, so `NumberParser` takes Clinger's
/// exact path for it, the same one multiplication or division done here. Anything else (an
/// exponent, more digits, a space, a quote, a stray letter, no digit at all) is not read here:
/// `scan` returns `nil`, and the caller reads the cell as it always has, errors included.
enum CSVNumberField {
    /// The most digits a cell read here may have: 10^15 < 2^53, so every significand is exact.
    static let maximumDigits = 15

    /// A plain decimal `[+-]digits[.digits]` (also `5.` and `.5`) starting at `start` and ending at
    /// a comma or at `end`: its value and the index of the byte after it. `nil` for any other cell.
    ///
    /// - Parameters:
    ///   - base: the file's first byte.
    ///   - start: the cell's first byte; must be below `end`.
    ///   - end: the line's end (line terminator excluded): either the buffer's end or a CR or LF,
    ///     so no run of digits crosses it.
    ///   - limit: the buffer's length: no load reaches past it.
    /// - Complexity: O(1) for the cells of up to seven digits on each side of the point; O(n)
    ///   in the cell's length otherwise.
    // `@_transparent`, not `@inline(__always)`: the compiler leaves the latter as a call in the
    // row loop (measured with callgrind), and the call costs a fifth of the cell.
    @_transparent
    static func scan(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, limit: Int
    ) -> (value: Double, end: Int)? {
        var index = start
        let first = base[index]
        let isNegative = first == UInt8(ascii: "-")
        if isNegative || first == UInt8(ascii: "+") { index &+= 1 }
        // The integer digits, a point and the fraction digits: two loads of eight bytes.
        guard index &+ 17 <= limit else { return scanBytewise(base, from: start, to: end) }
        let raw = UnsafeRawPointer(base)
        // Little-endian order puts the first byte lowest, as `digitRun` expects, on any machine.
        let integer = digitRun(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
        // Eight digits may go on: the bytewise scan counts them.
        guard integer.count < 8 else { return scanBytewise(base, from: start, to: end) }
        index &+= integer.count
        var significand = integer.value
        var fractionDigits = 0
        if index < end, base[index] == UInt8(ascii: ".") {
            index &+= 1
            let fraction = digitRun(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            guard fraction.count < 8 else { return scanBytewise(base, from: start, to: end) }
            index &+= fraction.count
            fractionDigits = fraction.count
            significand = significand &* UInt64(exactPowerOfTenInteger(fractionDigits)) &+ fraction.value
        }
        // At most seven digits on each side, so the count is within `maximumDigits`.
        guard integer.count &+ fractionDigits > 0, index == end || base[index] == UInt8(ascii: ",") else {
            return nil
        }
        var value = Double(significand)
        if fractionDigits > 0 { value /= NumberParser.exactPowerOfTen(fractionDigits) }
        return (isNegative ? -value : value, index)
    }

    /// `scan` one byte at a time: for cells with eight digits or more on one side of the point,
    /// and for the last bytes of the buffer, where an 8-byte load would reach past it.
    @inline(never)
    static func scanBytewise(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> (value: Double, end: Int)? {
        var index = start
        let first = base[index]
        let isNegative = first == UInt8(ascii: "-")
        if isNegative || first == UInt8(ascii: "+") { index &+= 1 }
        var significand: UInt64 = 0
        var digits = 0
        // At most 16 digits are taken before the count refuses the cell, so the significand
        // cannot wrap.
        while index < end, base[index] &- 48 <= 9, digits <= maximumDigits {
            significand = significand &* 10 &+ UInt64(base[index] &- 48)
            digits &+= 1
            index &+= 1
        }
        var fractionDigits = 0
        if index < end, base[index] == UInt8(ascii: ".") {
            index &+= 1
            while index < end, base[index] &- 48 <= 9, digits <= maximumDigits {
                significand = significand &* 10 &+ UInt64(base[index] &- 48)
                digits &+= 1
                fractionDigits &+= 1
                index &+= 1
            }
        }
        guard digits > 0, digits <= maximumDigits, index == end || base[index] == UInt8(ascii: ",") else { return nil }
        var value = Double(significand)
        if fractionDigits > 0 { value /= NumberParser.exactPowerOfTen(fractionDigits) }
        return (isNegative ? -value : value, index)
    }

    /// The leading decimal digits of eight bytes (the first byte lowest, as loaded on a
    /// little-endian machine): how many there are, and their value.
    ///
    /// A byte is a digit when `byte ^ 0x30` is at most 9; adding 0x76 sets the top bit of every
    /// larger one (a byte with its top bit already set is caught by the `|`), and a carry out of
    /// a byte only reaches later bytes, past the first non-digit. The digits then move to the top
    /// of the word, zeros before them, and three multiplications combine pairs, quads and
    /// halves (the method of Lemire's fast_float).
    @_transparent  // See `scan`.
    static func digitRun(_ word: UInt64) -> (value: UInt64, count: Int) {
        let digits = word ^ 0x3030_3030_3030_3030
        let nonDigits = ((digits &+ 0x7676_7676_7676_7676) | digits) & 0x8080_8080_8080_8080
        let count = nonDigits.trailingZeroBitCount &>> 3
        guard count > 0 else { return (0, 0) }
        var value = digits &<< UInt64((8 &- count) &* 8)
        value = value &* 10 &+ (value &>> 8)
        value =
            ((value & 0x0000_00FF_0000_00FF) &* 0x000F_4240_0000_0064
                &+ ((value &>> 16) & 0x0000_00FF_0000_00FF) &* 0x0000_2710_0000_0001) &>> 32
        return (value & 0xFFFF_FFFF, count)
    }

    /// 10^exponent for 0...7.
    @inline(__always)
    static func exactPowerOfTenInteger(_ exponent: Int) -> UInt32 {
        switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1000
        case 4: 10000
        case 5: 100_000
        case 6: 1_000_000
        default: 10_000_000
        }
    }

    /// `scan`'s value rounded to a `Float` as `NumberParser.float` rounds it, or `nil` when that
    /// parser would take its careful path instead (a value exactly halfway between two `Float`s,
    /// or a subnormal one): the caller then reads the cell as it always has.
    @inline(__always)
    static func float(_ wide: Double) -> Float? {
        let isFloatMidpoint = wide.bitPattern & 0x1FFF_FFFF == 0x1000_0000
        let magnitude = abs(wide)
        guard !isFloatMidpoint, magnitude == 0 || magnitude >= Double(Float.leastNormalMagnitude) else { return nil }
        // At most 15 digits: far inside Float's range, so always finite.
        return Float(wide)
    }
}
