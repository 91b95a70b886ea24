import Testing
import Traces

/// A skipped record in a file that labels its segments: the record is counted and the
/// segment it named is not declared, so no empty segment appears.
@Suite("Lenient records in segmented files")
struct LenientSegmentTests {
    static let csv = """
        time,lat,lon,segment
        2024-05-01T10:00:00Z,48.0,11.0,1.1
        2024-05-01T10:00:01Z,48.0001,11.0,1.1
        2024-05-01T10:00:02Z,91.0,11.0,1.2
        2024-05-01T10:00:03Z,48.0003,11.0,2.1
        2024-05-01T10:00:04Z,48.0004,11.0,2.1

        """

    @Test("the bad row's segment 1.2 is never declared; the others keep their fixes")
    func skippedRowDeclaresNoSegment() throws {
        let trace = try TraceImporter.read(Array(Self.csv.utf8), name: "s.csv")
        #expect(trace.fixes.count == 4)
        #expect(trace.diagnostics.skipped[.outOfRange]?.firstLines == [4])
        #expect(trace.segments.map(\.label) == ["1.1", "2.1"])
        #expect(trace.fixSegments == [0, 0, 1, 1])
    }

    @Test("--strict refuses the file at the bad row")
    func strictRefuses() {
        var options = ImportOptions()
        options.strict = true
        #expect(throws: TraceFormatError.self) {
            try TraceImporter.read(Array(Self.csv.utf8), name: "s.csv", options: options)
        }
    }
}
