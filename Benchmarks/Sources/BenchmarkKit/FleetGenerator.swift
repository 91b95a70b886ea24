import Foundation
import SimulationCore
import Traces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A generated fleet: many seeded 1 Hz drives, each different (its own day and time of the
/// week, depot, route, cruising speeds and delivery stops), with the same blemishes as
/// `TraceGenerator` so every preset has real decisions to make. A drive depends only on the
/// fleet's seed and its own index, so drive 17 of a 2,000-drive fleet is drive 17 of a
/// 10-drive fleet with the same seed, and the same seed writes the same bytes.
public enum FleetGenerator {
    /// Monday 2020-02-03T00:00:00Z: every drive starts in the week that follows.
    public static let weekStart = SimInstant(nanosecondsSinceEpoch: 1_580_688_000 * 1_000_000_000)

    /// Drive `index` of the fleet with `seed`: exactly `minutes` × 60 fixes one second apart.
    public static func drive(index: Int, minutes: Int, seed: UInt64) -> [Fix] {
        // Mixing the index through one SplitMix64 step keeps neighbouring drives unrelated.
        var mixer = SplitMix64(seed: seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
        var random = SplitMix64(seed: mixer.next())
        let count = minutes * 60
        // A working day's start: any day of the week, between 06:00 and 19:00.
        let day = Int64(random.uniform(0...6.999))
        let secondOfDay = Int64(random.uniform(6 * 3600...19 * 3600))
        let start = weekStart.advanced(byNanoseconds: (day * 86_400 + secondOfDay) * 1_000_000_000)
        // A depot somewhere in a 110 km square, so drives neither start nor run together.
        var latitude = random.uniform(37.0...38.0)
        var longitude = random.uniform(-122.6 ... -121.6)
        var heading = random.uniform(0...359.99)
        var speed = 0.0
        var cruise = cruisingSpeed(&random)
        var secondsToTurn = Int(random.uniform(60...300))
        var secondsToStop = Int(random.uniform(240...900))
        var stopSecondsLeft = 0
        let metersPerDegreeLatitude = 111_195.0
        var fixes: [Fix] = []
        fixes.reserveCapacity(count)
        for second in 0..<count {
            if stopSecondsLeft > 0 {
                // Parked for a delivery: no movement, only the receiver's noise.
                stopSecondsLeft -= 1
                speed = 0
            } else {
                secondsToStop -= 1
                secondsToTurn -= 1
                if secondsToStop <= 0 {
                    stopSecondsLeft = Int(random.uniform(20...300))
                    secondsToStop = Int(random.uniform(240...900))
                    cruise = cruisingSpeed(&random)
                }
                if secondsToTurn <= 0 {
                    // A junction: mostly right angles, sometimes a fork.
                    let turn = random.uniform(0...1) < 0.8 ? 90.0 : 35.0
                    heading += random.uniform(0...1) < 0.5 ? turn : -turn
                    secondsToTurn = Int(random.uniform(60...300))
                    if random.uniform(0...1) < 0.3 { cruise = cruisingSpeed(&random) }
                }
                // Speeding up or slowing down towards the road's speed, a couple of m/s² at most.
                speed += max(-3, min(2, cruise - speed)) + random.uniform(-0.5...0.5)
                speed = max(0, min(33, speed))
                heading += random.uniform(-3...3)
            }
            heading = (heading + 360).truncatingRemainder(dividingBy: 360)
            let radians = heading * Double.pi / 180
            latitude += speed * cos(radians) / metersPerDegreeLatitude
            longitude += speed * sin(radians) / (metersPerDegreeLatitude * cos(latitude * Double.pi / 180))
            // Turn back at the edge of the region so the drive stays on the map.
            if latitude > 38.4 || latitude < 36.6 || longitude > -121.2 || longitude < -123.0 {
                heading = (heading + 180).truncatingRemainder(dividingBy: 360)
            }

            let accuracy = TraceGenerator.blemishedAccuracy(&random)
            // The reported position scatters around the true one by about a third of the
            // accuracy, so a parked van still wanders a little.
            let scatter = accuracy / 3
            var reportedLatitude = latitude + random.uniform(-scatter...scatter) / metersPerDegreeLatitude
            let reportedLongitude =
                longitude
                + random.uniform(-scatter...scatter) / (metersPerDegreeLatitude * cos(latitude * Double.pi / 180))
            if second > 1, random.uniform(0...1) < 0.001 { reportedLatitude += 5_000 / metersPerDegreeLatitude }
            fixes.append(
                Fix(
                    timestamp: start.advanced(byNanoseconds: Int64(second) * 1_000_000_000),
                    latitude: TraceGenerator.rounded(reportedLatitude),
                    longitude: TraceGenerator.rounded(reportedLongitude),
                    altitudeMeters: TraceGenerator.rounded(random.uniform(20...40), places: 100),
                    horizontalAccuracy: .meters(TraceGenerator.rounded(accuracy, places: 100)),
                    speedMetersPerSecond: Float(TraceGenerator.rounded(speed, places: 100)),
                    courseDegrees: Float(TraceGenerator.rounded(heading, places: 10)),
                    provider: .gps))
        }
        return fixes
    }

    /// A street, an arterial road or a motorway.
    static func cruisingSpeed(_ random: inout SplitMix64) -> Double {
        switch random.uniform(0...1) {
        case ..<0.5: random.uniform(7...11)
        case ..<0.85: random.uniform(13...18)
        default: random.uniform(25...31)
        }
    }

    /// The file name of drive `index` in a fleet of `drives`: zero-padded, so the byte order
    /// of the names (the order `tracesim matrix` walks a folder in) is the drives' order.
    public static func fileName(index: Int, drives: Int, format: BenchFormat) -> String {
        let width = max(4, String(max(drives - 1, 0)).count)
        let digits = String(index)
        return "drive-" + String(repeating: "0", count: max(0, width - digits.count)) + digits + "."
            + format.fileExtension
    }

    /// Writes drives 0..<`drives` into the folder `directory`, which must be missing or empty
    /// (a file left from another fleet would join this one when the folder is the input).
    /// Returns the paths written, in order.
    public static func write(
        drives: Int, minutes: Int, seed: UInt64, format: BenchFormat, to directory: String
    ) throws -> [String] {
        let manager = FileManager.default
        if let existing = try? manager.contentsOfDirectory(atPath: directory), !existing.isEmpty {
            throw FleetError(description: "\(directory) is not empty; give a new folder")
        }
        try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var paths: [String] = []
        paths.reserveCapacity(drives)
        for index in 0..<drives {
            let path = directory + "/" + fileName(index: index, drives: drives, format: format)
            let fixes = drive(index: index, minutes: minutes, seed: seed)
            try Data(format.render(fixes).utf8).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        return paths
    }

    /// Why a fleet could not be written.
    public struct FleetError: Error, CustomStringConvertible {
        /// What went wrong, naming the folder.
        public var description: String
    }
}
