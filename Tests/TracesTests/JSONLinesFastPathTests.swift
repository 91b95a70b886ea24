import Testing

@testable import Traces

/// JSON Lines reads plain numbers in one pass and known keys and providers straight from
/// their bytes (issue 32); everything else goes the checked way. These pin that the two
/// ways agree: the same values, bit for bit, and the same errors at the same columns.
@Suite("JSON Lines fast paths")
struct JSONLinesFastPathTests {
    private static let time = #""time":"2020-01-01T00:00:00Z""#

    private func importLine(_ members: String) throws -> Trace {
        try TraceImporter.read(Array("{\(Self.time),\(members)}\n".utf8), name: "t.jsonl")
    }

    private func error(_ members: String) -> String? {
        do {
            _ = try TraceImporter.read(Array("{\(Self.time),\(members)}\n".utf8), name: "t.jsonl")
            return nil
        } catch {
            return error.description
        }
    }

    @Test(
        "a plain decimal reads as the checked parser reads it, bit for bit",
        arguments: [
            "0", "-0", "0.0", "-0.000", "7", "-89", "37.3999883", "-122.0998687", "0.5", "-0.0001234",
            // 17 significant digits, as Swift writes shortest doubles: the quotient path.
            "37.422094999999999", "-122.08400000000000",
            // 19 digits, the most one pass takes; 20, which goes the checked way.
            "1.234567890123456789", "12.34567890123456789", "12.345678901234567890", "0.0000000000000000001",
            // 19 digits over 2^53 with no point: one pass reads it, no exact path takes it.
            "1234567890123456789",
            // An integer past 2^53, which only the correctly rounding fallback takes.
            "9007199254740993", "12345678901234567",
            // Exponents take the checked way.
            "1e2", "-2.5E-3", "4e+1",
        ])
    func plainNumbers(text: String) throws {
        let trace = try importLine(#""lat":1,"lon":2,"alt_m":\#(text),"speed_mps":0.25"#)
        let checked = Array(text.utf8).withUnsafeBufferPointer { NumberParser.double($0) }
        guard case .value(let expected) = checked else {
            Issue.record("the checked parser refused \(text)")
            return
        }
        #expect(trace.fixes.count == 1)
        #expect(trace.fixes.first?.altitudeMeters?.bitPattern == expected.bitPattern)
    }

    @Test(
        "a Float field narrows as the checked parser narrows",
        arguments: ["0", "-0", "1e-50", "0.1", "16777217", "3.4028235e38", "12.345678901", "0.000001"])
    func floatNumbers(text: String) throws {
        let trace = try importLine(#""lat":1,"lon":2,"speed_acc_mps":\#(text)"#)
        let checked = Array(text.utf8).withUnsafeBufferPointer { NumberParser.float($0) }
        guard case .value(let expected) = checked else {
            Issue.record("the checked parser refused \(text)")
            return
        }
        #expect(trace.fixes.first?.speedAccuracyMetersPerSecond?.bitPattern == expected.bitPattern)
    }

    @Test(
        "numbers one pass does not take fail as they always did",
        arguments: [
            ("01", "t.jsonl:1:38: invalid JSON: a number has a leading zero (RFC 8259 forbids them)"),
            ("-", "t.jsonl:1:38: invalid JSON: a number needs a digit after '-'"),
            ("1e", "t.jsonl:1:38: invalid JSON: a number's exponent needs a digit"),
            ("1.", "t.jsonl:1:38: invalid JSON: a number needs a digit after '.' (RFC 8259)"),
            ("1e400", "t.jsonl:1:38: lat is not a finite number"),
            ("NaN", "t.jsonl:1:38: invalid JSON: expected a value"),
            (#""NaN""#, "t.jsonl:1:39: lat is not a finite number"),
            ("-Infinity", "t.jsonl:1:38: invalid JSON: a number needs a digit after '-'"),
            ("1.2.3", "t.jsonl:1:38: invalid JSON: invalid number"),
            ("5-3", "t.jsonl:1:38: invalid JSON: invalid number"),
            (".5", "t.jsonl:1:38: invalid JSON: expected a value"),
            ("+1", "t.jsonl:1:38: invalid JSON: expected a value"),
        ])
    func numberErrors(text: String, expected: String) {
        #expect(error(#""lat":\#(text),"lon":3"#) == expected)
    }

    @Test(
        "keys the byte matcher does not know fail as they always did",
        arguments: [
            (#""la":1"#, "t.jsonl:1:49: unknown column 'la'"),
            // Prefixes of known keys, and known keys with more after them.
            (#""latx":1"#, "t.jsonl:1:49: unknown column 'latx'"),
            (#""speed":1"#, "t.jsonl:1:49: unknown column 'speed'"),
            (#""course_de":1"#, "t.jsonl:1:49: unknown column 'course_de'"),
            (#""course_acc_degx":1"#, "t.jsonl:1:49: unknown column 'course_acc_degx'"),
            (#""c":1"#, "t.jsonl:1:49: unknown column 'c'"),
            (#""s":1"#, "t.jsonl:1:49: unknown column 's'"),
            // An escaped key is never a known one, even when it decodes to one.
            (#""l\u0061t":1"#, "t.jsonl:1:49: unknown column 'lat'"),
            (#""coarse"#, "t.jsonl:1:49: file ends early: unterminated string"),
            // Duplicates, read the checked way (whitespace) and the byte way.
            (#""lat" :1"#, "t.jsonl:1:48: key 'lat' appears twice"),
            (#" "lat":2"#, "t.jsonl:1:49: key 'lat' appears twice"),
        ])
    func keyErrors(members: String, expected: String) {
        #expect(error(#""lat":1,"lon":3,\#(members)"#) == expected)
    }

    @Test(
        "providers the byte matcher does not know fail as they always did",
        arguments: [
            (#""provider":"GPS""#, "t.jsonl:1:59: provider 'GPS' is not recognised"),
            (#""provider":null"#, "t.jsonl:1:59: provider '' is not recognised"),
            // An escaped name still decodes to its provider; given twice, it is a duplicate.
            (#""provider":"g\u0070s","provider":"gps""#, "t.jsonl:1:70: key 'provider' appears twice"),
        ])
    func providerErrors(members: String, expected: String) {
        #expect(error(#""lat":1,"lon":3,\#(members)"#) == expected)
    }

    @Test("a line with whitespace around its keys reads as the compact one")
    func spacedLine() throws {
        let compact = try importLine(#""lat":37.5,"lon":-122.25,"provider":"fused","course_acc_deg":3.5"#)
        let spaced = try TraceImporter.read(
            Array(
                #"{ "time": "2020-01-01T00:00:00Z", "lat" : 37.5,"lon": -122.25 , "provider": "f\u0075sed", "course_acc_deg": 3.5 }"#
                    .utf8), name: "t.jsonl")
        #expect(compact.fixes == spaced.fixes)
        #expect(compact.fixes.first?.provider == .fused)
        #expect(compact.fixes.first?.courseAccuracyDegrees == 3.5)
    }
}
