import SimulationCore
import Testing

@Suite("SimInstant arithmetic at the ends of time")
struct SimInstantTests {
    static let earliest = SimInstant(nanosecondsSinceEpoch: .min + 1)
    static let latest = SimInstant(nanosecondsSinceEpoch: .max - 1)

    @Test("intervals under 292 years are exact to the nanosecond")
    func exactIntervals() {
        let start = SimInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)
        let end = start.advanced(byNanoseconds: 1)
        #expect(end.seconds(since: start) == 1e-9)
        #expect(start.seconds(since: end) == -1e-9)
    }

    @Test("an interval wider than an Int64 of nanoseconds is computed, not trapped on")
    func centuries() {
        // 1677 to 2262: about 584 years, twice what the subtraction can hold.
        let seconds = Self.latest.seconds(since: Self.earliest)
        #expect(abs(seconds - 18_446_744_073.709) < 1)
        #expect(Self.earliest.seconds(since: Self.latest) == -seconds)
    }

    @Test("advancing past either end of the range holds at that end")
    func saturation() {
        #expect(Self.latest.advanced(byNanoseconds: 10).nanosecondsSinceEpoch == .max)
        #expect(Self.earliest.advanced(byNanoseconds: -10).nanosecondsSinceEpoch == .min)
        #expect(Self.latest.advanced(bySeconds: 300).nanosecondsSinceEpoch == .max)
        #expect(Self.earliest.advanced(bySeconds: -1e30).nanosecondsSinceEpoch == .min)
        #expect(Self.latest.advanced(bySeconds: .nan) == Self.latest)
    }

    @Test("advanced(bySeconds:) rounds to the nearest nanosecond")
    func rounding() {
        let start = SimInstant(nanosecondsSinceEpoch: 0)
        #expect(start.advanced(bySeconds: 1.4e-9).nanosecondsSinceEpoch == 1)
        #expect(start.advanced(bySeconds: 70).nanosecondsSinceEpoch == 70_000_000_000)
        #expect(start.advanced(bySeconds: -0.5).nanosecondsSinceEpoch == -500_000_000)
    }
}
