@testable import Fleet
import Testing

/// What a part may hold, run by run: its own inputs, in order, each trace's scenarios in order.
@Suite("Part run order")
struct PartRunOrderTests {
    static func identity(_ paths: [String], tracks: String? = nil) -> RunIdentity {
        RunIdentity(
            version: "test", traces: paths.map { RunIdentity.Input(path: $0) },
            scenarios: ["a", "b"].map { RunIdentity.ScenarioEntry(name: $0) }, seed: nil, fences: nil, date: nil,
            inputFormat: nil, tracks: tracks)
    }

    enum Outcome: Equatable {
        case success([Int])
        case failure(String)
    }

    /// The input of each run, or the first refusal's message.
    static func check(_ runs: [(String, String)], _ identity: RunIdentity, shard: Shard? = nil) -> Outcome {
        var order = PartRunOrder(identity: identity, shard: shard)
        var inputs: [Int] = []
        for (trace, scenario) in runs {
            switch order.accept(trace: trace, scenario: scenario) {
            case .success(let input): inputs.append(input)
            case .failure(let refusal): return .failure(refusal.message)
            }
        }
        if let unfinished = order.unfinished { return .failure(unfinished.message) }
        return .success(inputs)
    }

    @Test("a file given twice with several tracks: each run goes to its own copy, in track order")
    func sameFileTwice() {
        let identity = Self.identity(["m.gpx", "x.gpx", "m.gpx"], tracks: "each")
        let runs = ["m.gpx#1", "m.gpx#3", "x.gpx", "m.gpx#1", "m.gpx#3"].flatMap { [($0, "a"), ($0, "b")] }
        #expect(Self.check(runs, identity) == .success([0, 0, 0, 0, 1, 1, 2, 2, 2, 2]))
        // Shard 1 of 2 holds inputs 0 and 2: the second copy's #1 starts input 2, not input 0 again.
        let shard = ["m.gpx#1", "m.gpx#3", "m.gpx#1", "m.gpx#3"].flatMap { [($0, "a"), ($0, "b")] }
        #expect(Self.check(shard, identity, shard: Shard(index: 1, count: 2)) == .success([0, 0, 0, 0, 2, 2, 2, 2]))
        // The tracks of one copy in a shard that holds one copy only, repeated: refused.
        #expect(
            Self.check(shard, identity, shard: Shard(index: 1, count: 3))
                == .failure("trace 'm.gpx#1' comes after 'm.gpx#3', but is given before it"))
    }

    @Test("refusals: another shard's trace, a scenario out of order, a trace cut short, a trace twice")
    func refusals() {
        let identity = Self.identity(["p", "q", "r"])
        #expect(
            Self.check([("q", "a"), ("q", "b")], identity, shard: Shard(index: 1, count: 2))
                == .failure("trace 'q' is input 2, which belongs to shard 2, not 1"))
        #expect(Self.check([("p", "b")], identity) == .failure("scenario 'b' where 'a' comes next"))
        #expect(Self.check([("p", "a")], identity) == .failure("the runs end before trace 'p' has scenario 'b'"))
        #expect(
            Self.check([("p", "a"), ("q", "b")], identity)
                == .failure("trace 'q' begins before trace 'p' has every scenario (scenario 'b' is missing)"))
        #expect(
            Self.check([("p", "a"), ("p", "b"), ("p", "a"), ("p", "b")], identity)
                == .failure("trace 'p' appears twice in a row"))
        #expect(Self.check([("s", "a")], identity) == .failure("trace 's' is not one of the identity's inputs"))
    }
}
