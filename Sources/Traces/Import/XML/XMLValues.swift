import SimulationCore

/// Reads typed values from XML text and attributes, reporting the line of the element.
struct XMLValues {
    let file: String

    func fail(_ line: Int, _ problem: TraceFormatError.Problem) -> TraceFormatError {
        TraceFormatError(file: file, line: line > 0 ? line : nil, problem: problem)
    }

    /// The text without surrounding XML whitespace.
    static func trimmed(_ text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = text.count
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        while start < end, isSpace(text[start]) { start += 1 }
        while end > start, isSpace(text[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: text[start..<end])
    }

    func double(_ text: UnsafeBufferPointer<UInt8>, field: String, line: Int) throws(TraceFormatError) -> Double? {
        let value = Self.trimmed(text)
        guard !value.isEmpty else { return nil }
        return try NumberParser.double(value).value(field: field) { fail(line, $0) }
    }

    func float(_ text: UnsafeBufferPointer<UInt8>, field: String, line: Int) throws(TraceFormatError) -> Float? {
        let value = Self.trimmed(text)
        guard !value.isEmpty else { return nil }
        return try NumberParser.float(value).value(field: field) { fail(line, $0) }
    }

    func nonNegativeDouble(_ text: UnsafeBufferPointer<UInt8>, field: String, line: Int) throws(TraceFormatError)
        -> Double?
    {
        guard let value = try double(text, field: field, line: line) else { return nil }
        if let problem = FixRules.negativeProblem(value, field: field) { throw fail(line, problem) }
        return value
    }

    func nonNegativeFloat(_ text: UnsafeBufferPointer<UInt8>, field: String, line: Int) throws(TraceFormatError)
        -> Float?
    {
        guard let value = try float(text, field: field, line: line) else { return nil }
        if let problem = FixRules.negativeProblem(Double(value), field: field) { throw fail(line, problem) }
        return value
    }

    func course(_ text: UnsafeBufferPointer<UInt8>, field: String, line: Int) throws(TraceFormatError) -> Float? {
        guard let value = try float(text, field: field, line: line) else { return nil }
        if let problem = FixRules.courseProblem(value, field: field) { throw fail(line, problem) }
        return value
    }

    func timestamp(_ text: UnsafeBufferPointer<UInt8>, field: String, line: Int) throws(TraceFormatError) -> SimInstant?
    {
        let value = Self.trimmed(text)
        guard !value.isEmpty else { return nil }
        guard let instant = ISO8601.parse(value) else { throw fail(line, .invalidTimestamp(field: field)) }
        return instant
    }

    func latitude(_ text: UnsafeBufferPointer<UInt8>?, field: String, line: Int) throws(TraceFormatError) -> Double {
        guard let text, let value = try double(text, field: field, line: line) else {
            throw fail(line, .missingField(field))
        }
        if let problem = FixRules.latitudeProblem(value) { throw fail(line, problem) }
        return value
    }

    func longitude(_ text: UnsafeBufferPointer<UInt8>?, field: String, line: Int) throws(TraceFormatError) -> Double {
        guard let text, let value = try double(text, field: field, line: line) else {
            throw fail(line, .missingField(field))
        }
        if let problem = FixRules.longitudeProblem(value) { throw fail(line, problem) }
        return value
    }

    static func equals(_ text: UnsafeBufferPointer<UInt8>, _ literal: String) -> Bool {
        let value = trimmed(text)
        return value.elementsEqual(literal.utf8)
    }
}
