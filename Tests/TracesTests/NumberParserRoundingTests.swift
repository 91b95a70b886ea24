import SimulationCore
import Testing

@testable import Traces

/// The long-significand path (up to 19 digits over a power of ten up to 10^19) must round
/// exactly as the standard library's correctly rounded parser does, on every input.
@Suite("Number parsing, long significands")
struct NumberParserRoundingTests {
    static func parse(_ text: String) -> Double? {
        var copy = text
        return copy.withUTF8 { bytes in
            if case .value(let value) = NumberParser.double(bytes) { return value }
            return nil
        }
    }

    static func expectSame(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = Double(text)
        let parsed = parse(text)
        #expect(
            parsed?.bitPattern == expected?.bitPattern, "\(text): \(String(describing: parsed))",
            sourceLocation: sourceLocation)
    }

    @Test(
        "edge spellings round as the standard library rounds them",
        arguments: [
            "37.422094999999999", "-122.08400000000001", "9007199254740993e-1", "9007199254740993.5",
            "0.9999999999999999999", "1.000000000000000111", "1.0000000000000002220446", "0.1000000000000000055511",
            "9999999999999999999e-19", "1000000000000000000e-19", "1844674407370955161.5", "0.30000000000000004",
            "4503599627370496.5", "4503599627370497.5", "9007199254740992.5", "9007199254740993.5",
            "89.999999999999999", "-179.99999999999997", "0.0000000000000000001",
        ])
    func edges(text: String) {
        Self.expectSame(text)
    }

    @Test("the shortest spelling of random doubles, and its neighbours, round as the standard library")
    func shortestSpellings() {
        var random = SplitMix64(seed: 19)
        for _ in 0..<100_000 {
            let value = Double(bitPattern: random.next()).magnitude
            guard value.isFinite, value > 1e-300 else { continue }
            // Values like coordinates: a few integer digits and many fraction digits.
            let scaled = (value.significand - 1) * 360 - 180
            let text = "\(scaled)"
            Self.expectSame(text)
            // One unit more and less in the last digit: no longer a shortest spelling.
            var bytes = Array(text.utf8)
            if let last = bytes.indices.last, bytes[last] > UInt8(ascii: "0"), bytes[last] < UInt8(ascii: "9") {
                bytes[last] += 1
                Self.expectSame(String(decoding: bytes, as: UTF8.self))
                bytes[last] -= 2
                Self.expectSame(String(decoding: bytes, as: UTF8.self))
            }
        }
    }

    @Test("random digit strings of up to 19 digits with the point anywhere round as the standard library")
    func randomDigits() {
        var random = SplitMix64(seed: 2026)
        for _ in 0..<200_000 {
            let count = Int(random.next() % 19) + 1
            var digits = (0..<count).map { _ in UInt8(ascii: "0") + UInt8(random.next() % 10) }
            let point = Int(random.next() % UInt64(count + 1))
            digits.insert(UInt8(ascii: "."), at: point)
            if random.next() % 2 == 0 { digits.insert(UInt8(ascii: "-"), at: 0) }
            Self.expectSame(String(decoding: digits, as: UTF8.self))
        }
    }

    // 2^53 + 1 and 2^53 + 3 lie halfway between doubles; written with a fraction they take the
    // long path.
    @Test(
        "decimals exactly halfway between two doubles round to the even one",
        arguments: ["9007199254740993.0", "9007199254740995.0", "900719925474099.35", "0.9007199254740993"])
    func halfway(text: String) {
        Self.expectSame(text)
    }
}
