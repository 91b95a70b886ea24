import Foundation
import SimulationCore
import TestSupport
import Testing
import Traces

/// The noise effects measured on a real bundled recording: the u-blox F9K log of the MTV drive
/// (1,654 fixes at 1 Hz, 28 min 47 s, HDOP accuracy, two gaps of 10 to 40 s).
@Suite("Phone-grade noise")
struct PhoneNoiseTests {
    static let drive: Trace = {
        let path = Repository.trace("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")
        do { return try TraceImporter.load(path: path) } catch { fatalError("the bundled drive imports: \(error)") }
    }()

    /// Great-circle metres between two fixes.
    static func meters(_ a: Fix, _ b: Fix) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * radians
        let dLon = (b.longitude - a.longitude) * radians
        let h =
            sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * radians) * cos(b.latitude * radians) * sin(dLon / 2)
            * sin(dLon / 2)
        return 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
    }

    static func noise(_ specifications: String...) throws -> PhoneNoise {
        try PhoneNoise(specifications: specifications)
    }

    @Test("the bundled drive is what these tests assume")
    func driveShape() {
        #expect(Self.drive.fixes.count == 1654)
        #expect(Self.drive.fixes.allSatisfy { $0.horizontalAccuracyKind == .dilution || $0.horizontalAccuracy == nil })
    }

    @Test("same trace, effects and seed give the same fixes bit for bit; another seed does not")
    func determinism() throws {
        let first = PhoneNoise.phone.apply(to: Self.drive, seed: 7)
        let second = PhoneNoise.phone.apply(to: Self.drive, seed: 7)
        #expect(first.fixes == second.fixes)
        let other = PhoneNoise.phone.apply(to: Self.drive, seed: 8)
        #expect(first.fixes != other.fixes)
        #expect(PhoneNoise().apply(to: Self.drive, seed: 7).fixes == Self.drive.fixes)
    }

    @Test("each effect draws from its own stream: adding one leaves another's fixes where they were")
    func independentStreams() throws {
        let jumpsOnly = try Self.noise("jumps:rate=60").apply(to: Self.drive, seed: 3)
        let withAccuracy = try Self.noise("jumps:rate=60", "accuracy").apply(to: Self.drive, seed: 3)
        #expect(zip(jumpsOnly.fixes, withAccuracy.fixes).allSatisfy { $0.latitude == $1.latitude })
    }

    @Test("jumps: about the rate per hour, each 4 to 6 km, the next fix back on the road, accuracy unchanged")
    func jumps() throws {
        let noisy = try Self.noise("jumps:rate=60").apply(to: Self.drive, seed: 0)
        #expect(noisy.fixes.count == Self.drive.fixes.count)
        let moved = zip(Self.drive.fixes, noisy.fixes).enumerated().filter { $0.element.0 != $0.element.1 }
        // 60 per hour over 28.8 min: 28.8 expected; the seed pins the draw.
        #expect(moved.count == 27)
        for (index, (clean, jumped)) in moved {
            let distance = Self.meters(clean, jumped)
            #expect(distance > 3990 && distance < 6010, "fix \(index) moved \(distance) m")
            #expect(clean.horizontalAccuracy == jumped.horizontalAccuracy)
            #expect(clean.timestamp == jumped.timestamp)
        }
        let defaults = PhoneNoise(jumps: .init()).apply(to: Self.drive, seed: 0)
        let count = zip(Self.drive.fixes, defaults.fixes).filter { Self.meters($0, $1) > 3000 }.count
        // 3.6 per hour over 28.8 min is 1.7 expected.
        #expect((0...6).contains(count))
    }

    @Test("multipath: correlated offsets of tens of metres in episodes; accuracy grows by a third of the error")
    func multipath() throws {
        let noisy = try Self.noise("multipath:rate=20,duration=120").apply(to: Self.drive, seed: 0)
        let offsets = zip(Self.drive.fixes, noisy.fixes).map { Self.meters($0, $1) }
        let displaced = offsets.filter { $0 > 0.01 }
        // 20 episodes an hour of 2 min mean cover a large share of the drive.
        #expect(displaced.count == 899)
        let rms = (displaced.map { $0 * $0 }.reduce(0, +) / Double(displaced.count)).squareRoot()
        // Two axes of σ = 30 m: a radial RMS of 42 m.
        #expect(rms > 25 && rms < 65, "radial RMS \(rms) m")
        #expect(displaced.allSatisfy { $0 < 250 })
        // Correlated: from one second to the next the offset changes by far less than its size.
        var steps: [Double] = []
        for index in 1..<offsets.count where offsets[index] > 0.01 && offsets[index - 1] > 0.01 {
            steps.append(abs(offsets[index] - offsets[index - 1]))
        }
        let meanStep = steps.reduce(0, +) / Double(steps.count)
        #expect(meanStep < 8, "mean change per fix \(meanStep) m")
        // The reported accuracy (HDOP × 6.3 m here) grows by 0.3 of the error: less than the error.
        let uere = UserEquivalentRangeError.standard.horizontalMeters
        for (clean, dirty) in zip(Self.drive.fixes, noisy.fixes) {
            guard case .dilution(let before)? = clean.horizontalAccuracy,
                case .dilution(let after)? = dirty.horizontalAccuracy
            else { continue }
            let error = Self.meters(clean, dirty)
            #expect(abs((after - before) * uere - 0.3 * error) < 0.05)
        }
    }

    @Test("accuracy under-reporting: the share of fixes, each scaled by the factor, positions untouched")
    func accuracyUnderReporting() throws {
        let noisy = try Self.noise("accuracy:factor=0.5,share=0.25").apply(to: Self.drive, seed: 0)
        var scaled = 0
        for (clean, dirty) in zip(Self.drive.fixes, noisy.fixes) {
            #expect(clean.latitude == dirty.latitude && clean.longitude == dirty.longitude)
            guard case .dilution(let before)? = clean.horizontalAccuracy,
                case .dilution(let after)? = dirty.horizontalAccuracy
            else { continue }
            if after != before {
                #expect(after == before * 0.5)
                scaled += 1
            }
        }
        // A quarter of 1,653 fixes with an accuracy is 413 expected (σ ≈ 18); the seed pins the draw.
        #expect(scaled == 452)
        let other = try Self.noise("accuracy:factor=0.5,share=0.25").apply(to: Self.drive, seed: 1)
        let scaledOther = zip(Self.drive.fixes, other.fixes).filter { $0.horizontalAccuracy != $1.horizontalAccuracy }
        #expect((340...490).contains(scaledOther.count))
    }

    @Test("stale first fix: a cached position a second before the start, 1 km off, and the last one before a long gap")
    func staleFirstFix() throws {
        let clean = Self.drive.fixes
        let gaps = clean.indices.dropFirst().filter { clean[$0].timestamp.seconds(since: clean[$0 - 1].timestamp) > 30 }
        #expect(gaps.count == 1)
        let noisy = try Self.noise("stale-first-fix:gap=30").apply(to: Self.drive, seed: 0)
        #expect(noisy.fixes.count == clean.count + 2)
        let cachedStart = noisy.fixes[0]
        #expect(cachedStart.timestamp == clean[0].timestamp.advanced(bySeconds: -1))
        #expect(abs(Self.meters(cachedStart, clean[0]) - 1000) < 1)
        #expect(Array(noisy.fixes[1...gaps[0]]) == Array(clean[0..<gaps[0]]))
        let cached = noisy.fixes[gaps[0] + 1]
        #expect(cached.latitude == clean[gaps[0] - 1].latitude && cached.longitude == clean[gaps[0] - 1].longitude)
        #expect(cached.timestamp == clean[gaps[0]].timestamp.advanced(bySeconds: -1))
        #expect(noisy.fixes[gaps[0] + 2] == clean[gaps[0]])
        // Still strictly in time order.
        #expect(zip(noisy.fixes, noisy.fixes.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
        // The default gap, 60 s, is longer than either of the drive's gaps: only the start.
        #expect(PhoneNoise(staleFirstFix: .init()).apply(to: Self.drive, seed: 0).fixes.count == clean.count + 1)
    }

    @Test("an inserted cached fix joins the segment of the fix it precedes")
    func segments() {
        let start = SimInstant(nanosecondsSinceEpoch: 1_600_000_000_000_000_000)
        let fixes = (0..<6).map { second in
            Fix(timestamp: start.advanced(bySeconds: Double(second < 3 ? second : second + 300)), latitude: 48, longitude: 11)
        }
        let segments = [
            TraceSegment(track: 1, segment: 1, line: 1, fixCount: 3, firstTime: fixes[0].timestamp, lastTime: fixes[2].timestamp),
            TraceSegment(track: 2, segment: 1, line: 9, fixCount: 3, firstTime: fixes[3].timestamp, lastTime: fixes[5].timestamp),
        ]
        let trace = Trace(
            fixes: fixes, provenance: Self.drive.provenance, segments: segments, fixSegments: [0, 0, 0, 1, 1, 1])
        let noisy = PhoneNoise(staleFirstFix: .init()).apply(to: trace, seed: 0)
        #expect(noisy.fixes.count == 8)
        #expect(noisy.fixSegments == [0, 0, 0, 0, 1, 1, 1, 1])
        #expect(noisy.segments.map(\.fixCount) == [4, 4])
    }

    @Test("an empty trace stays empty")
    func empty() {
        let trace = Trace(fixes: [], provenance: Self.drive.provenance)
        #expect(PhoneNoise.phone.apply(to: trace, seed: 0).fixes.isEmpty)
    }
}

@Suite("--noise specifications")
struct PhoneNoiseSpecificationTests {
    @Test("phone turns every effect on at its defaults")
    func phone() throws {
        #expect(try PhoneNoise(specifications: ["phone"]) == .phone)
        #expect(PhoneNoise.phone.jumps?.distanceMeters == 5000)
        #expect(PhoneNoise.phone.multipath?.sigmaMeters == 30)
        #expect(PhoneNoise.phone.staleFirstFix?.gapSeconds == 60)
        #expect(PhoneNoise.phone.accuracyUnderReporting?.factor == 0.3)
    }

    @Test("an effect named with phone replaces phone's version, in either order")
    func override() throws {
        for specifications in [["phone", "jumps:rate=2,distance=800"], ["jumps:rate=2,distance=800", "phone"]] {
            let noise = try PhoneNoise(specifications: specifications)
            #expect(noise.jumps?.ratePerHour == 2 && noise.jumps?.distanceMeters == 800)
            #expect(noise.multipath == PhoneNoise.Multipath())
        }
        let only = try PhoneNoise(specifications: ["jumps"])
        #expect(only == PhoneNoise(jumps: .init()))
    }

    @Test(
        "bad specifications name what is wrong",
        arguments: [
            ([""], "--noise needs a value"),
            (["loud"], "unknown --noise effect 'loud'"),
            (["Phone"], "unknown --noise effect 'Phone'"),
            (["phone", "phone"], "names 'phone' twice"),
            (["jumps", "jumps:rate=1"], "names 'jumps' twice"),
            (["phone:rate=1"], "phone takes no parameters"),
            (["jumps:"], "nothing after ':'"),
            (["jumps:rate"], "'rate' is not NAME=VALUE"),
            (["jumps:=3"], "'=3' is not NAME=VALUE"),
            (["jumps:rate=1,"], "'' is not NAME=VALUE"),
            (["jumps:speed=3"], "unknown parameter 'speed' (names: rate, distance)"),
            (["jumps:rate=1,rate=2"], "'rate' given twice"),
            (
                ["jumps:rate=fast"],
                "rate must be a decimal number (digits with an optional fraction and exponent, such as 2, 0.5 or 1e9; no sign), not 'fast'"
            ),
            (["jumps:rate=nan"], "rate must be a decimal number (digits"),
            (["jumps:rate=inf"], "rate must be a decimal number (digits"),
            (["jumps:rate=0x10"], "rate must be a decimal number (digits"),
            (["jumps:rate=+1"], "rate must be a decimal number (digits"),
            (["jumps:rate=-1"], "rate must be a decimal number (digits"),
            (["jumps:rate=1e999"], "rate must be a decimal number (digits"),
            (["jumps:rate=4e3"], "rate must be within 0...3600 (jumps per hour), not 4e3"),
            (["jumps:distance=0"], "distance must be within 1...100000"),
            (["accuracy:factor=2"], "factor must be within 0.01...1"),
            (["multipath:share=1.5"], "share must be within 0...1"),
            (["multipath:correlation=0"], "correlation must be within 0.1...86400"),
            (["stale-first-fix:gap=0.5"], "gap must be within 1...86400"),
        ])
    func malformed(specifications: [String], message: String) {
        #expect(throws: NoiseSpecificationError.self) { try PhoneNoise(specifications: specifications) }
        do {
            _ = try PhoneNoise(specifications: specifications)
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test("hostile values are quoted short and printable")
    func hostile() {
        let long = String(repeating: "x", count: 10_000)
        for (specification, shown) in [
            (long, String(repeating: "x", count: 40) + "…"), ("jum\u{1B}[2Jps", "jum?[2Jps"), ("jumps\u{0}", "jumps?"),
        ] {
            do {
                _ = try PhoneNoise(specifications: [specification])
                Issue.record("accepted \(specification.prefix(20))")
            } catch {
                #expect(error.message.contains("'\(shown)'"), "\(error.message)")
                #expect(error.message.count < 200)
            }
        }
    }

    @Test("every parameter's default lies in its range")
    func defaultsInRange() {
        for effect in PhoneNoise.Effect.allCases {
            for parameter in PhoneNoise.parameters(of: effect) {
                #expect(parameter.range.contains(PhoneNoise.defaultValue(of: parameter)), "\(effect) \(parameter.name)")
            }
        }
    }
}
