import SimulationCore
import Testing
@testable import Traces

@Suite("The Fix model")
struct FixModelTests {
    static let instant = SimInstant(nanosecondsSinceEpoch: 1_600_000_000_000_000_000)

    @Test("a Fix is at most 64 bytes, so a million fixes stream through cache lines")
    func layout() {
        #expect(MemoryLayout<Fix>.stride <= 64)
        #expect(_isPOD(Fix.self))
    }

    @Test("absent is distinct from zero for every optional field")
    func absentIsNotZero() {
        var fix = Fix(timestamp: Self.instant, latitude: 1, longitude: 2)
        #expect(fix.altitudeMeters == nil)
        #expect(fix.horizontalAccuracy == nil)
        #expect(fix.verticalAccuracy == nil)
        #expect(fix.speedMetersPerSecond == nil)
        #expect(fix.speedAccuracyMetersPerSecond == nil)
        #expect(fix.courseDegrees == nil)
        #expect(fix.courseAccuracyDegrees == nil)
        #expect(fix.horizontalAccuracyMeters() == nil)
        let absent = fix
        fix.altitudeMeters = 0
        fix.horizontalAccuracy = .meters(0)
        fix.verticalAccuracy = .dilution(0)
        fix.speedMetersPerSecond = 0
        fix.speedAccuracyMetersPerSecond = 0
        fix.courseDegrees = 0
        fix.courseAccuracyDegrees = 0
        #expect(fix.altitudeMeters == 0)
        #expect(fix.horizontalAccuracy == .meters(0))
        #expect(fix.verticalAccuracy == .dilution(0))
        #expect(fix.speedMetersPerSecond == 0)
        #expect(fix.courseDegrees == 0)
        #expect(fix != absent)
        fix.altitudeMeters = nil
        #expect(fix.altitudeMeters == nil)
    }

    @Test("HDOP is never metres: it converts through the UERE and says it is estimated")
    func dilutionIsEstimated() throws {
        let fix = Fix(timestamp: Self.instant, latitude: 1, longitude: 2, horizontalAccuracy: .dilution(2))
        #expect(fix.horizontalAccuracyKind == .dilution)
        let standard = try #require(fix.horizontalAccuracyMeters())
        #expect(standard == AccuracyMeters(meters: 15, isEstimated: true))
        let custom = try #require(fix.horizontalAccuracyMeters(uere: UserEquivalentRangeError(horizontalMeters: 4, verticalMeters: 6)))
        #expect(custom.meters == 8)
        let measured = Fix(timestamp: Self.instant, latitude: 1, longitude: 2, horizontalAccuracy: .meters(5))
        #expect(measured.horizontalAccuracyMeters() == AccuracyMeters(meters: 5, isEstimated: false))
    }

    @Test("merging a duplicate only fills fields the first record lacks")
    func fillAbsent() {
        var first = Fix(timestamp: Self.instant, latitude: 1, longitude: 2, speedMetersPerSecond: 3)
        let second = Fix(
            timestamp: Self.instant, latitude: 9, longitude: 9, altitudeMeters: 10,
            horizontalAccuracy: .meters(4), speedMetersPerSecond: 7)
        first.fillAbsentFields(from: second)
        #expect(first.latitude == 1)
        #expect(first.speedMetersPerSecond == 3)
        #expect(first.altitudeMeters == 10)
        #expect(first.horizontalAccuracy == .meters(4))
    }
}

@Suite("Number parsing")
struct NumberParserTests {
    static func parse(_ text: String) -> Double? {
        var copy = text
        return copy.withUTF8 { bytes in
            if case .value(let value) = NumberParser.double(bytes) { return value }
            return nil
        }
    }

    static func parseFloat(_ text: String) -> Float? {
        var copy = text
        return copy.withUTF8 { bytes in
            if case .value(let value) = NumberParser.float(bytes) { return value }
            return nil
        }
    }

    @Test(
        "matches the standard library on every spelling the formats use",
        arguments: [
            "0", "-0", "1", "37.801929819902256", "-122.45956801250402", "1e-05", "1.5E3", ".5", "5.",
            "0.1", "9007199254740993", "123456789012345678901234", "4.2366138", "1102.537", "+3.25",
            "0.000000000000000000000000001", "2.2250738585072014e-308",
        ])
    func matchesStandardLibrary(text: String) {
        #expect(Self.parse(text)?.bitPattern == Double(text)?.bitPattern)
    }

    @Test("reads back the shortest spelling of random doubles and floats exactly")
    func randomRoundTrip() {
        var generator = SplitMix(seed: 7)
        for _ in 0..<20_000 {
            let double = Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)
            #expect(Self.parse(double.description)?.bitPattern == double.bitPattern)
            let coordinate = Double.random(in: -180...180, using: &generator)
            #expect(Self.parse(coordinate.description) == coordinate)
            let float = Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()) & 0x7F7F_FFFF)
            #expect(Self.parseFloat(float.description)?.bitPattern == float.bitPattern)
        }
    }

    @Test(
        "rejects what is not a number and flags NaN and infinities",
        arguments: ["", "-", ".", "e5", "1e", "1.2.3", "0x1p3", "1,5", " 1", "abc"])
    func rejects(text: String) {
        var copy = text
        let outcome = copy.withUTF8 { NumberParser.double($0) }
        guard case .invalid = outcome else {
            Issue.record("\(text) was accepted")
            return
        }
    }

    @Test("NaN and infinity spellings, and overflow, are non-finite", arguments: ["nan", "NaN", "-inf", "Infinity", "1e400"])
    func nonFinite(text: String) {
        var copy = text
        let outcome = copy.withUTF8 { NumberParser.double($0) }
        guard case .nonFinite = outcome else {
            Issue.record("\(text) was not flagged non-finite")
            return
        }
    }
}
