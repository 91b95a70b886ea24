/// Validated field readers shared by every importer, so each rule (ranges, signs, "empty
/// means absent") is written once and every format reports it the same way.
extension TextSource {
    /// A number, or `nil` for an empty field.
    @inline(__always)
    func optionalDouble(_ start: Int, _ end: Int, field: String) throws(TraceFormatError) -> Double? {
        guard start < end else { return nil }
        return try NumberParser.double(slice(start, end)).value(field: field) { error(atOffset: start, $0) }
    }

    /// A number that must be present.
    @inline(__always)
    func requiredDouble(_ start: Int, _ end: Int, field: String) throws(TraceFormatError) -> Double {
        guard let value = try optionalDouble(start, end, field: field) else {
            throw error(atOffset: start, .missingField(field))
        }
        return value
    }

    /// A single-precision measurement, or `nil` for an empty field.
    @inline(__always)
    func optionalFloat(_ start: Int, _ end: Int, field: String) throws(TraceFormatError) -> Float? {
        guard start < end else { return nil }
        return try NumberParser.float(slice(start, end)).value(field: field) { error(atOffset: start, $0) }
    }

    /// A latitude in degrees, -90...90.
    @inline(__always)
    func latitude(_ start: Int, _ end: Int, field: String = "latitude") throws(TraceFormatError) -> Double {
        let value = try requiredDouble(start, end, field: field)
        if let problem = FixRules.latitudeProblem(value) { throw error(atOffset: start, problem) }
        return value
    }

    /// A longitude in degrees, -180...180.
    @inline(__always)
    func longitude(_ start: Int, _ end: Int, field: String = "longitude") throws(TraceFormatError) -> Double {
        let value = try requiredDouble(start, end, field: field)
        if let problem = FixRules.longitudeProblem(value) { throw error(atOffset: start, problem) }
        return value
    }

    /// A measurement that must not be negative (accuracies, speeds), or `nil` when empty.
    @inline(__always)
    func nonNegativeDouble(_ start: Int, _ end: Int, field: String) throws(TraceFormatError) -> Double? {
        guard let value = try optionalDouble(start, end, field: field) else { return nil }
        if value < 0 { throw error(atOffset: start, .negativeValue(field: field, value: value)) }
        return value
    }

    /// A single-precision measurement that must not be negative, or `nil` when empty.
    @inline(__always)
    func nonNegativeFloat(_ start: Int, _ end: Int, field: String) throws(TraceFormatError) -> Float? {
        guard let value = try optionalFloat(start, end, field: field) else { return nil }
        if value < 0 { throw error(atOffset: start, .negativeValue(field: field, value: Double(value))) }
        return value
    }

    /// A course in degrees, 0...360, or `nil` when empty.
    @inline(__always)
    func course(_ start: Int, _ end: Int, field: String) throws(TraceFormatError) -> Float? {
        guard let value = try optionalFloat(start, end, field: field) else { return nil }
        if let problem = FixRules.courseProblem(value, field: field) { throw error(atOffset: start, problem) }
        return value
    }
}

/// The value rules every fix obeys, whatever format it came from. Each returns the problem,
/// or `nil` when the value is acceptable.
enum FixRules {
    static func latitudeProblem(_ value: Double) -> TraceFormatError.Problem? {
        isLatitude(value) ? nil : .latitudeOutOfRange
    }

    static func longitudeProblem(_ value: Double) -> TraceFormatError.Problem? {
        isLongitude(value) ? nil : .longitudeOutOfRange
    }

    static func courseProblem(_ value: Float, field: String) -> TraceFormatError.Problem? {
        isCourse(value) ? nil : .valueOutOfRange(field: field, value: Double(value), range: "0...360 degrees")
    }

    // The rules alone, for hot paths that only need to know whether a value passes: building
    // the problem just to compare it with `nil` costs more than the comparison.

    @inline(__always)
    static func isLatitude(_ value: Double) -> Bool { (-90...90).contains(value) }

    @inline(__always)
    static func isLongitude(_ value: Double) -> Bool { (-180...180).contains(value) }

    @inline(__always)
    static func isCourse(_ value: Float) -> Bool { (0...360).contains(value) }

    static func negativeProblem(_ value: Double, field: String) -> TraceFormatError.Problem? {
        value < 0 ? .negativeValue(field: field, value: value) : nil
    }
}
