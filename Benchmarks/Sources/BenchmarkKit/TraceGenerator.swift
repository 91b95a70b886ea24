import SimulationCore
import Traces

/// A seeded 1 Hz drive with the blemishes real traces have, so the accuracy gate and the
/// odometer have real decisions to make: most fixes 3 to 15 m, some 20 to 60 m (no
/// odometer distance), some 120 to 300 m (rejected), and rare one-fix 5 km jumps (rejected
/// as teleports). The same seed and count give the same fixes on every machine.
public enum TraceGenerator {
    /// The first fix's time: 2020-02-07T00:00:00Z, the bundled SPAN drive's date.
    public static let start = SimInstant(nanosecondsSinceEpoch: 1_581_033_600 * 1_000_000_000)

    /// `count` fixes one second apart.
    public static func drive(fixes count: Int, seed: UInt64) -> [Fix] {
        var random = SplitMix64(seed: seed)
        var fixes: [Fix] = []
        fixes.reserveCapacity(count)
        var latitude = 37.40
        var longitude = -122.10
        var heading = 90.0
        var speed = 12.0
        let metersPerDegreeLatitude = 111_195.0
        for second in 0..<count {
            // A drive that speeds up, slows down and sometimes stops, turning gently.
            speed = min(30, max(0, speed + random.uniform(-1.5...1.5)))
            if random.uniform(0...1) < 0.002 { speed = 0 }
            heading = (heading + random.uniform(-8...8)).truncatingRemainder(dividingBy: 360)
            let radians = heading * Double.pi / 180
            latitude += speed * cos(radians) / metersPerDegreeLatitude
            longitude += speed * sin(radians) / (metersPerDegreeLatitude * cos(latitude * Double.pi / 180))
            // Keep the drive within a band of latitudes so the longitude scale stays sane.
            if latitude > 38.5 || latitude < 36.5 { heading = (heading + 180).truncatingRemainder(dividingBy: 360) }

            let accuracy = blemishedAccuracy(&random)
            var reportedLatitude = latitude
            if second > 1, random.uniform(0...1) < 0.001 { reportedLatitude += 5_000 / metersPerDegreeLatitude }
            fixes.append(
                Fix(
                    timestamp: start.advanced(byNanoseconds: Int64(second) * 1_000_000_000),
                    latitude: rounded(reportedLatitude), longitude: rounded(longitude),
                    altitudeMeters: rounded(random.uniform(20...40), places: 100),
                    horizontalAccuracy: .meters(rounded(accuracy, places: 100)),
                    speedMetersPerSecond: Float(rounded(speed, places: 100)),
                    courseDegrees: Float(rounded(heading < 0 ? heading + 360 : heading, places: 10)),
                    provider: .gps))
        }
        return fixes
    }

    /// Seven decimals of a degree (about a centimetre), the precision receivers report.
    static func rounded(_ value: Double, places: Double = 10_000_000) -> Double {
        (value * places).rounded() / places
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension TraceGenerator {
    /// A fix's reported accuracy, metres: mostly 3 to 15 m, 5 % of fixes 20 to 60 m and 2 %
    /// 120 to 300 m, the blemishes every generated drive shares.
    static func blemishedAccuracy(_ random: inout SplitMix64) -> Double {
        switch random.uniform(0...1) {
        case ..<0.02: return random.uniform(120...300)
        case ..<0.07: return random.uniform(20...60)
        default: return random.uniform(3...15)
        }
    }
}
