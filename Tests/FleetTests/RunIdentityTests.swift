import Fleet
import Testing

/// `RunIdentity.difference`: what `merge` compares between parts, named in words.
@Suite("Run identity: the first difference between two parts")
struct RunIdentityTests {
    static func identity(noise: [String]) -> RunIdentity {
        RunIdentity(
            version: "test", traces: [RunIdentity.Input(path: "a.gpx")], scenarios: [RunIdentity.ScenarioEntry(name: "s1")],
            seed: nil, fences: nil, date: nil, inputFormat: nil, noise: noise)
    }

    @Test(
        "--noise settings are compared by value and order, not by how many there are",
        arguments: [
            (["phone"], ["jumps"], "--noise is 'phone' here and 'jumps' there"),
            (["phone", "jumps"], ["jumps", "phone"], "--noise is 'phone' 'jumps' here and 'jumps' 'phone' there"),
            (["jumps:rate=2"], ["jumps:rate=3"], "--noise is 'jumps:rate=2' here and 'jumps:rate=3' there"),
            (["phone"], [], "--noise is 'phone' here and not given there"),
        ])
    func noise(here: [String], there: [String], difference: String) {
        #expect(Self.identity(noise: here).difference(from: Self.identity(noise: there)) == difference)
        #expect(Self.identity(noise: here).difference(from: Self.identity(noise: here)) == nil)
    }
}
