import Foundation
import SimulationCore
import Testing

@Suite("ISO-8601 timestamps")
struct ISO8601Tests {
    @Test(
        "parses every zone and fraction style found in real traces",
        arguments: [
            ("2017-09-29T14:59:42.008+0000", Int64(1_506_697_182_008_000_000)),
            ("2013-06-01T16:13:41.460Z", 1_370_103_221_460_000_000),
            ("2014-05-25T18:30:57Z", 1_401_042_657_000_000_000),
            ("2014-05-25T20:30:57+02:00", 1_401_042_657_000_000_000),
            ("2014-05-25T16:30:57-02", 1_401_042_657_000_000_000),
            ("2014-05-25 18:30:57", 1_401_042_657_000_000_000),
            ("1970-01-01T00:00:00.000000001Z", 1),
            ("1969-12-31T23:59:59.5Z", -500_000_000),
            ("2024-02-29T00:00:00Z", 1_709_164_800_000_000_000),
        ]
    )
    func parses(text: String, nanoseconds: Int64) {
        #expect(ISO8601.parse(text)?.nanosecondsSinceEpoch == nanoseconds)
    }

    @Test("the representable range ends at 1677 and 2262: beyond it, nil rather than a trap or a wrapped time")
    func representableRange() {
        #expect(ISO8601.parse("2262-04-11T23:47:16.854775807Z")?.nanosecondsSinceEpoch == Int64.max)
        #expect(ISO8601.parse("2262-04-11T23:47:16.854775808Z") == nil)
        #expect(ISO8601.parse("1677-09-21T00:12:43.145224192Z")?.nanosecondsSinceEpoch == Int64.min)
        #expect(ISO8601.parse("1677-09-21T00:12:43.145224191Z") == nil)
        #expect(ISO8601.parse("9999-12-31T23:59:59Z") == nil)
        #expect(ISO8601.parse("0001-01-01T00:00:00Z") == nil)
    }

    @Test(
        "rejects malformed and impossible timestamps",
        arguments: [
            "", "2017-09-29", "2017-09-29T14:59", "2017-13-01T00:00:00Z", "2023-02-29T00:00:00Z",
            "2017-09-29T24:00:00Z", "2017-09-29T14:59:42.Z", "2017-09-29T14:59:42Zjunk", "2017-9-29T14:59:42Z",
            "2017-09-29T14:59:42+25:00", "NaN",
        ]
    )
    func rejects(text: String) {
        #expect(ISO8601.parse(text) == nil)
    }

    @Test("formats with the fewest fraction digits that keep every nanosecond, at least milliseconds")
    func formats() {
        #expect(ISO8601.format(SimInstant(nanosecondsSinceEpoch: 1_506_697_182_008_000_000)) == "2017-09-29T14:59:42.008Z")
        #expect(ISO8601.format(SimInstant(nanosecondsSinceEpoch: 1_497_475_499_025_679_000)) == "2017-06-14T21:24:59.025679Z")
        #expect(ISO8601.format(SimInstant(nanosecondsSinceEpoch: 1)) == "1970-01-01T00:00:00.000000001Z")
        #expect(ISO8601.format(SimInstant(nanosecondsSinceEpoch: -500_000_000)) == "1969-12-31T23:59:59.500Z")
        #expect(ISO8601.format(SimInstant(nanosecondsSinceEpoch: 0), minimumFractionDigits: 0) == "1970-01-01T00:00:00Z")
    }

    @Test(
        "formatting then parsing returns the same instant",
        arguments: [
            Int64(0), 1, 999, 1_000_000, 1_497_475_499_025_679_123, -86_400_000_000_001, 4_102_444_800_000_000_000,
        ])
    func roundTrip(nanoseconds: Int64) {
        let instant = SimInstant(nanosecondsSinceEpoch: nanoseconds)
        #expect(ISO8601.parse(ISO8601.format(instant)) == instant)
    }
}

@Suite("ISO-8601 reader with a minute cache")
struct ISO8601ReaderTests {
    @Test("gives exactly what the uncached parser gives, across minutes, zones and bad seconds")
    func matchesParse() {
        var reader = ISO8601.Reader()
        let texts = [
            "2020-01-01T00:00:00Z", "2020-01-01T00:00:59.999Z", "2020-01-01T00:00:60Z", "2020-01-01T00:00:61Z",
            "2020-01-01T00:01:00+02:00", "2020-01-01T00:01:01-0130", "2020-01-01T00:01:02", "2020-01-01T00:01:0xZ",
            "2020-01-01T00:01:03.Z", "2020-01-01T00:01:04Zjunk", "2020-01-01T00:01:05.123456789Z",
            "2020-02-30T00:01:05Z", "2020-01-01 00:01:06Z", "2020-01-01T00:01:07+25:00",
        ]
        for text in texts + texts.reversed() {
            var copy = text
            let cached = copy.withUTF8 { reader.parse($0) }
            #expect(cached == ISO8601.parse(text), "\(text)")
        }
    }

    @Test(
        "a cached minute that ends past the clock's range refuses its late seconds instead of trapping",
        arguments: [
            ["2262-04-11T23:47:11Z", "2262-04-11T23:47:16Z", "2262-04-11T23:47:17Z", "2262-04-11T23:47:47.5Z"],
            ["1677-09-21T00:12:50Z", "1677-09-21T00:12:44Z", "1677-09-21T00:12:43Z", "1677-09-21T00:12:43.5Z"],
        ])
    func edgesOfTheClock(texts: [String]) {
        var reader = ISO8601.Reader()
        for text in texts {
            var copy = text
            #expect(copy.withUTF8 { reader.parse($0) } == ISO8601.parse(text), "\(text)")
        }
        #expect(ISO8601.parse(texts[2]) == nil)
    }

    @Test("one second at a time over a day boundary")
    func sequence() {
        var reader = ISO8601.Reader()
        var expected = ISO8601.parse("2019-12-31T23:58:00.25Z")?.nanosecondsSinceEpoch ?? 0
        for minute in 58...61 {
            for second in 0..<60 {
                let hour = minute >= 60 ? "00" : "23"
                let day = minute >= 60 ? "2020-01-01" : "2019-12-31"
                let text = "\(day)T\(hour):\(String(format: "%02d", minute % 60)):\(String(format: "%02d", second)).25Z"
                var copy = text
                #expect(copy.withUTF8 { reader.parse($0) }?.nanosecondsSinceEpoch == expected, "\(text)")
                expected += 1_000_000_000
            }
        }
    }
}
