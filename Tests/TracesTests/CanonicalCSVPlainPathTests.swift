import Testing

@testable import Traces

/// The canonical CSV importer reads plain rows on a fast path (`CanonicalCSVRow.plain`,
/// `CSVNumberField`) and every other row with its original cell readers. These pin that the fast
/// path gives the very values, and declines the very cells, the original readers judge.
@Suite("Canonical CSV: the plain path reads what the careful path reads")
struct CanonicalCSVPlainPathTests {
    /// Cells the plain path must read, and cells it must leave to `NumberParser`.
    static let plainCells = [
        "1.", ".5", "-0", "+1", "-0.0", "+.5", "0", "00012.5000", "37.3999945", "-122.0998522", "1234567.1234567",
        "12345678.5", "0.12345678", "123456789012345", "0.00000000000001",
    ]
    static let declinedCells = [
        "1e400", "1e5", " 5", "5 ", "\"5\"", ".", "-", "+", "nan", "inf", "1.2.3", "1234567890123456",
        "37.422094999999999", "0x10", "5e", "--1",
    ]

    /// `cell` followed by a comma and enough bytes for the 8-byte loads, then the same cell as
    /// the last bytes of the buffer (the byte-at-a-time path).
    static func scanBothWays(_ cell: String) -> [(value: Double, end: Int)?] {
        [Array((cell + ",2020-01-01T00:00:00Z\n").utf8), Array(cell.utf8)].map { bytes in
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress, !cell.isEmpty else { return nil }
                let end = bytes.count == cell.utf8.count ? bytes.count : cell.utf8.count + 1 + 20
                return CSVNumberField.scan(base, from: 0, to: end, limit: bytes.count)
            }
        }
    }

    @Test("a plain cell reads to NumberParser's bits, ending at its comma", arguments: plainCells)
    func plainCell(_ cell: String) throws {
        let expected = Array(cell.utf8).withUnsafeBufferPointer { NumberParser.double($0) }
        guard case .value(let reference) = expected else {
            Issue.record("NumberParser refuses \(cell)")
            return
        }
        for scanned in Self.scanBothWays(cell) {
            let (value, end) = try #require(scanned, "\(cell) declined")
            #expect(value.bitPattern == reference.bitPattern, "\(cell): \(value) against \(reference)")
            #expect(end == cell.utf8.count)
        }
    }

    @Test("any other cell is left to the careful path", arguments: declinedCells)
    func declinedCell(_ cell: String) {
        for scanned in Self.scanBothWays(cell) { #expect(scanned == nil, "\(cell) read as \(String(describing: scanned))") }
    }

    @Test("a float exactly halfway between two Floats is left to NumberParser's careful rounding")
    func floatMidpoint() {
        // 16777217 = 2^24 + 1 lies halfway between the Floats 2^24 and 2^24 + 2.
        #expect(CSVNumberField.float(16_777_217) == nil)
        #expect(CSVNumberField.float(16_777_216) == 16_777_216)
        #expect(CSVNumberField.float(0.1) == Float(0.1))
    }

    @Test("edge numbers, CRLF and a last line without its newline import to the exact values")
    func edgeRows() throws {
        let text =
            "time,lat,lon,alt_m,speed_mps,course_deg\r\n"
            + "2020-01-01T00:00:00Z,1.,.5,-0,+1,0\r\n"
            + "2020-01-01T00:00:01Z,-0.0,+.5,12345678.5,0.12345678,360\r\n"
            + "2020-01-01T00:00:02Z,37.422094999999999,-122.0998522,,16777217,\r\n"
            + "2020-01-01T00:00:03Z,37.39,1,2,3,4"
        let fixes = try importText(text, name: "edges.csv").fixes
        try #require(fixes.count == 4)
        #expect(fixes[0].latitude == 1 && fixes[0].longitude == 0.5)
        #expect(fixes[0].altitudeMeters?.bitPattern == (-0.0).bitPattern)
        #expect(fixes[0].speedMetersPerSecond == 1 && fixes[0].courseDegrees == 0)
        #expect(fixes[1].latitude.bitPattern == (-0.0).bitPattern)
        #expect(fixes[1].altitudeMeters == 12_345_678.5)
        #expect(fixes[1].speedMetersPerSecond == Float("0.12345678"))
        #expect(fixes[1].courseDegrees == 360)
        #expect(fixes[2].latitude == Double("37.422094999999999"))
        #expect(fixes[2].altitudeMeters == nil && fixes[2].courseDegrees == nil)
        #expect(fixes[2].speedMetersPerSecond == Float("16777217"))
        #expect(fixes[3].latitude == 37.39 && fixes[3].courseDegrees == 4)
    }

    @Test(
        "a cell the plain path declines fails as it always did",
        arguments: [
            ("1e400", TraceFormatError.Problem.nonFiniteNumber(field: "alt_m")),
            (" 5", .invalidNumber(field: "alt_m")),
            ("\"5\"", .invalidNumber(field: "alt_m")),
            ("5,", .wrongFieldCount(expected: "4", found: 5)),
        ])
    func declinedCellError(_ cell: String, _ problem: TraceFormatError.Problem) throws {
        let error = try #require(formatError("time,lat,lon,alt_m\n2020-01-01T00:00:00Z,1,2,\(cell)\n", format: .canonicalCSV))
        #expect(error.problem == problem)
        #expect(error.line == 2)
        #expect(error.column == (cell == "5," ? nil : 26))
    }

    @Test("a value the plain path reads but a field rule refuses fails at its cell")
    func ruleErrors() throws {
        let negative = try #require(formatError("time,lat,lon,speed_mps\n2020-01-01T00:00:00Z,1,2,-0.5\n"))
        #expect(negative.problem == .negativeValue(field: "speed_mps", value: -0.5))
        #expect(negative.column == 26)
        let latitude = try #require(formatError("time,lat,lon\n2020-01-01T00:00:00Z,90.0000001,2\n"))
        #expect(latitude.problem == .latitudeOutOfRange)
        #expect(latitude.column == 22)
        // A row cut short at the end of the file, mid-row.
        let truncated = try #require(formatError("time,lat,lon,alt_m\n2020-01-01T00:00:00Z,1,2,5\n2020-01-01T00:00:01Z,1,2"))
        #expect(truncated.problem == .wrongFieldCount(expected: "4", found: 3))
        #expect(truncated.line == 3)
    }

    @Test("in a lenient import, a row the plain path declines is skipped and counted as before")
    func lenientSkip() throws {
        let trace = try importText(
            "time,lat,lon,alt_m\n2020-01-01T00:00:00Z,1,2,x\n2020-01-01T00:00:01Z,1,2,3\n", name: "skip.csv")
        #expect(trace.fixes.count == 1)
        #expect(trace.diagnostics.skipped[.malformedField]?.firstLines == [2])
        #expect(trace.diagnostics.firstProblems[.malformedField]?.column == 26)
    }
}
