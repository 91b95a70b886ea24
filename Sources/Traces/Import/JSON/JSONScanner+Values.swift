import SimulationCore

/// Typed values for the JSON importers: `null` reads as absent, a wrong type is an error
/// naming the field.
extension JSONScanner {
    /// A JSON number, or `nil` for `null`.
    mutating func readDouble(field: String) throws(TraceFormatError) -> Double? {
        if let plain = readPlainDouble() { return plain.value }
        if consumeNull() { return nil }
        guard let next = peek(), next == UInt8(ascii: "-") || (next >= 48 && next <= 57) else {
            if peek() == UInt8(ascii: "\""), let quoted = try nonFiniteString() {
                throw source.error(atOffset: quoted, .nonFiniteNumber(field: field))
            }
            throw source.error(atOffset: position, .invalidNumber(field: field))
        }
        try refuseBareSign(field: field)
        let (start, stop) = try readNumberRange()
        return try NumberParser.double(source.slice(start, stop)).value(field: field) {
            source.error(atOffset: start, $0)
        }
    }

    /// A JSON number rounded once to `Float`, or `nil` for `null`.
    mutating func readFloat(field: String) throws(TraceFormatError) -> Float? {
        if let plain = readPlainDouble() {
            return try NumberParser.float(nearest: plain.value, of: source.slice(plain.start, plain.end)).value(
                field: field
            ) { source.error(atOffset: plain.start, $0) }
        }
        if consumeNull() { return nil }
        guard let next = peek(), next == UInt8(ascii: "-") || (next >= 48 && next <= 57) else {
            throw source.error(atOffset: position, .invalidNumber(field: field))
        }
        try refuseBareSign(field: field)
        let (start, stop) = try readNumberRange()
        return try NumberParser.float(source.slice(start, stop)).value(field: field) {
            source.error(atOffset: start, $0)
        }
    }

    /// A JSON string, or `nil` for `null`.
    mutating func readText(field: String) throws(TraceFormatError) -> String? {
        if consumeNull() { return nil }
        guard peek() == UInt8(ascii: "\"") else { throw source.error(atOffset: position, .missingField(field)) }
        return try text(readString())
    }

    /// An ISO-8601 string, or a number of seconds since the Unix epoch (iOS
    /// `timeIntervalSince1970`), or `nil` for `null`.
    mutating func readTimestamp(field: String) throws(TraceFormatError) -> SimInstant? {
        if consumeNull() { return nil }
        if peek() == UInt8(ascii: "\"") {
            let token = try readString()
            guard !token.hasEscapes, let instant = ISO8601.parse(source.slice(token.start, token.end)) else {
                throw source.error(atOffset: token.start, .invalidTimestamp(field: field))
            }
            return instant
        }
        let start = position
        if let next = peek(), next == UInt8(ascii: "-") || (next >= 48 && next <= 57) {
            let (numberStart, numberEnd) = try readNumberRange()
            if let nanoseconds = NumberParser.decimalSecondsAsNanoseconds(source.slice(numberStart, numberEnd)) {
                return SimInstant(nanosecondsSinceEpoch: nanoseconds)
            }
            position = numberStart
        }
        guard let seconds = try readDouble(field: field) else { return nil }
        guard let instant = SimInstant(secondsSinceEpoch: seconds) else {
            throw source.error(atOffset: start, .invalidTimestamp(field: field))
        }
        return instant
    }

    /// A string of whole milliseconds since the epoch, as older Takeout exports write them.
    mutating func readMillisecondString(field: String) throws(TraceFormatError) -> SimInstant? {
        if consumeNull() { return nil }
        let token = try readString()
        guard let milliseconds = NumberParser.int64(source.slice(token.start, token.end)),
            let instant = SimInstant(millisecondsSinceEpoch: milliseconds)
        else { throw source.error(atOffset: token.start, .invalidTimestamp(field: field)) }
        return instant
    }

    /// A `-` with no digit after it (`-Infinity`, as some encoders write it) is an error
    /// naming the field rather than a bare JSON syntax error.
    private func refuseBareSign(field: String) throws(TraceFormatError) {
        let bytes = source.bytes
        guard bytes[position] == UInt8(ascii: "-"), position + 1 >= end || bytes[position + 1] &- 48 > 9 else { return }
        var wordEnd = position + 1
        while wordEnd < end, bytes[wordEnd] | 0x20 >= UInt8(ascii: "a"), bytes[wordEnd] | 0x20 <= UInt8(ascii: "z") {
            wordEnd += 1
        }
        let word = source.string(position + 1, wordEnd).lowercased()
        let isNonFinite = ["inf", "infinity", "nan"].contains(word)
        throw source.error(
            atOffset: position, isNonFinite ? .nonFiniteNumber(field: field) : .invalidNumber(field: field))
    }

    /// Consumes a string if it spells NaN or Infinity (as some encoders write them) and
    /// returns its offset; otherwise leaves the position alone.
    private mutating func nonFiniteString() throws(TraceFormatError) -> Int? {
        let saved = position
        let token = try readString()
        let word = source.string(token.start, token.end).lowercased()
        if ["nan", "inf", "infinity", "-inf", "-infinity"].contains(word) { return token.start }
        position = saved
        return nil
    }
}
