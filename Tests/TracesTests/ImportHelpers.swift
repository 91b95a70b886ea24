import Testing
import Traces

/// Imports text as if it were a file called `name`.
func importText(_ text: String, name: String = "test.txt", options: ImportOptions = ImportOptions()) throws -> Trace {
    try TraceImporter.read(Array(text.utf8), name: name, options: options)
}

/// Imports bytes and returns the format error they must produce. `strict` makes a record with
/// an impossible field fail the file instead of being skipped.
func formatError(
    _ bytes: [UInt8], name: String = "bad.txt", format: TraceFormat? = nil, strict: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) -> TraceFormatError? {
    do {
        var options = ImportOptions(format: format)
        options.strict = strict
        let trace = try TraceImporter.read(bytes, name: name, options: options)
        Issue.record("expected an error, imported \(trace.fixes.count) fixes", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

func formatError(
    _ text: String, name: String = "bad.txt", format: TraceFormat? = nil, strict: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) -> TraceFormatError? {
    formatError(Array(text.utf8), name: name, format: format, strict: strict, sourceLocation: sourceLocation)
}

/// An NMEA sentence with its checksum computed, from the text between `$` and `*`.
func nmea(_ body: String) -> String {
    let checksum = body.utf8.reduce(UInt8(0), ^)
    let hex = String(checksum, radix: 16, uppercase: true)
    return "$" + body + "*" + (hex.count == 1 ? "0" + hex : hex)
}
