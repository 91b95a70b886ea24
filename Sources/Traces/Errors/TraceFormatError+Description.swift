extension TraceFormatError: CustomStringConvertible {
    /// `FILE:LINE:COL: what is wrong`, the one-line form every command prints.
    public var description: String {
        var location = file
        if let line {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        return "\(location): \(problem.message)"
    }
}

extension TraceFormatError.Problem {
    /// The human wording of the problem. Text quoted from the file is shortened, so a
    /// 10 MB line never becomes a 10 MB message.
    public var message: String {
        switch self {
        case .emptyFile:
            "the file is empty"
        case .unrecognizedFormat:
            "not a trace format TraceSim reads (GPX, NMEA, GnssLogger, CLLocation JSON, TCX, KML, "
                + "Google Takeout, Columbus CSV, 70mai, TraceSim CSV or JSON Lines)"
        case .nulByte:
            "NUL byte in a text format (is this a binary file?)"
        case .lineTooLong(let limit):
            "line is longer than \(limit) bytes"
        case .invalidNumber(let field):
            "\(field) is not a number"
        case .nonFiniteNumber(let field):
            "\(field) is not a finite number"
        case .latitudeOutOfRange:
            "latitude is outside -90...90 degrees"
        case .longitudeOutOfRange:
            "longitude is outside -180...180 degrees"
        case .negativeValue(let field, let value):
            "\(field) \(value) is negative"
        case .valueOutOfRange(let field, let value, let range):
            "\(field) \(value) is outside \(range)"
        case .invalidTimestamp(let field):
            "\(field) is not a valid timestamp"
        case .missingField(let field):
            "\(field) is missing"
        case .wrongFieldCount(let expected, let found):
            "expected \(expected) fields, found \(found)"
        case .unknownColumn(let name):
            "unknown column '\(short(name))'"
        case .duplicateColumn(let name):
            "column '\(short(name))' appears twice"
        case .missingColumn(let name):
            "required column '\(name)' is missing"
        case .unknownToken(let field, let token):
            "\(field) '\(short(token))' is not recognised"
        case .invalidJSON(let detail):
            "invalid JSON: \(detail)"
        case .nestingTooDeep(let limit):
            "nested deeper than \(limit) levels"
        case .invalidXML(let detail):
            "invalid XML: \(detail)"
        case .entityDeclaration(let detail):
            "refused \(detail): trace files never need entities, and TraceSim never expands or fetches them"
        case .unexpectedContent(let detail):
            short(detail)
        case .truncated(let detail):
            "file ends early: \(detail)"
        case .compressedStream(let detail):
            detail
        }
    }
}

private func short(_ text: String) -> String {
    text.count <= 60 ? text : String(text.prefix(57)) + "..."
}

extension TraceFileError: CustomStringConvertible {
    /// `FILE: reason`.
    public var description: String { "\(file): \(reason)" }
}
