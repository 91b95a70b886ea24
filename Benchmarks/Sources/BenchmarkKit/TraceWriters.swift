import SimulationCore
import Traces

/// The formats the import suite times. TraceSim's own exporters write three of them; NMEA and
/// GnssLogger are written here the way receivers and Android's logger write them.
public enum BenchFormat: String, CaseIterable, Sendable {
    /// GPX 1.1 with TraceSim's accuracy extensions.
    case gpx
    /// TraceSim canonical CSV.
    case csv
    /// TraceSim JSON Lines.
    case jsonl
    /// NMEA 0183: RMC, GGA and GST per epoch.
    case nmea
    /// Android GnssLogger, the v3 `Fix` layout.
    case gnssLogger = "gnsslogger"

    /// The file extension the generated file gets.
    public var fileExtension: String {
        switch self {
        case .gnssLogger: "txt"
        default: rawValue
        }
    }

    /// The file content for `fixes`.
    public func render(_ fixes: [Fix]) -> String {
        let trace = Trace(fixes: fixes, provenance: TraceProvenance(format: .canonicalCSV))
        switch self {
        case .gpx: return TraceExporter.gpx(trace)
        case .csv: return TraceExporter.canonicalCSV(trace)
        case .jsonl: return TraceExporter.jsonLines(trace)
        case .nmea: return NMEAWriter.render(fixes)
        case .gnssLogger: return GnssLoggerWriter.render(fixes)
        }
    }
}

/// Writes RMC, GGA and GST sentences for each fix, with checksums.
enum NMEAWriter {
    static func render(_ fixes: [Fix]) -> String {
        var text = ""
        text.reserveCapacity(fixes.count * 200)
        for fix in fixes {
            let seconds = fix.timestamp.nanosecondsSinceEpoch / 1_000_000_000
            let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
            let date = CivilTime.date(daysSinceEpoch: Int(days))
            let time =
                twoDigits(Int(secondOfDay / 3600)) + twoDigits(Int(secondOfDay / 60 % 60))
                + twoDigits(Int(secondOfDay % 60)) + ".00"
            let latitude = angle(fix.latitude, degreeDigits: 2, positive: "N", negative: "S")
            let longitude = angle(fix.longitude, degreeDigits: 3, positive: "E", negative: "W")
            let accuracy = fix.horizontalAccuracyMeters(uere: .standard)?.meters ?? 5
            let knots = Double(fix.speedMetersPerSecond ?? 0) * 3600 / 1852
            let course = Double(fix.courseDegrees ?? 0)
            let day = twoDigits(date.day) + twoDigits(date.month) + twoDigits(date.year % 100)
            text += sentence(
                "GPRMC,\(time),A,\(latitude),\(longitude),\(fixed(knots, 2)),\(fixed(course, 1)),\(day),,,A")
            text += sentence(
                "GPGGA,\(time),\(latitude),\(longitude),1,09,\(fixed(accuracy / 5, 1)),\(fixed(fix.altitudeMeters ?? 0, 1)),M,-25.0,M,,"
            )
            let sigma = accuracy / 2.squareRoot()
            text += sentence(
                "GPGST,\(time),\(fixed(accuracy, 1)),,,,\(fixed(sigma, 2)),\(fixed(sigma, 2)),\(fixed(accuracy * 1.5, 2))"
            )
        }
        return text
    }

    /// `ddmm.mmmmmm,H`: degrees, then minutes to six decimals (about 2 mm).
    static func angle(_ value: Double, degreeDigits: Int, positive: String, negative: String) -> String {
        let magnitude = abs(value)
        let degrees = Int(magnitude)
        let minutes = (magnitude - Double(degrees)) * 60
        var degreeText = String(degrees)
        while degreeText.count < degreeDigits { degreeText = "0" + degreeText }
        let minuteText = fixed(minutes, 6)
        return degreeText + (minutes < 10 ? "0" : "") + minuteText + "," + (value < 0 ? negative : positive)
    }

    static func sentence(_ body: String) -> String {
        var checksum: UInt8 = 0
        for byte in body.utf8 { checksum ^= byte }
        let hex = Array("0123456789ABCDEF")
        return "$" + body + "*" + String(hex[Int(checksum >> 4)]) + String(hex[Int(checksum & 15)]) + "\r\n"
    }
}

/// Writes GnssLogger's header comments and one `Fix` record per fix.
enum GnssLoggerWriter {
    static func render(_ fixes: [Fix]) -> String {
        var text = """
            # Header Description:
            #
            # Version: v3.0.6.4 Platform: 14 Manufacturer: TraceSim Model: generated
            #
            # Fix,Provider,LatitudeDegrees,LongitudeDegrees,AltitudeMeters,SpeedMps,AccuracyMeters,BearingDegrees,UnixTimeMillis
            #

            """
        text.reserveCapacity(fixes.count * 110)
        for fix in fixes {
            let milliseconds = fix.timestamp.nanosecondsSinceEpoch / 1_000_000
            let accuracy = fix.horizontalAccuracyMeters(uere: .standard)?.meters ?? 5
            text += "Fix,GPS,\(fix.latitude),\(fix.longitude),\(fix.altitudeMeters ?? 0),"
            text += "\(fix.speedMetersPerSecond ?? 0),\(accuracy),\(fix.courseDegrees ?? 0),\(milliseconds)\n"
        }
        return text
    }
}

/// `value` with exactly `places` decimals, without Foundation's locale-dependent formatting.
func fixed(_ value: Double, _ places: Int) -> String {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = Int64((abs(value) * scale).rounded())
    let whole = scaled / Int64(scale)
    var fraction = String(scaled % Int64(scale))
    while fraction.count < places { fraction = "0" + fraction }
    return (value < 0 && scaled != 0 ? "-" : "") + String(whole) + (places > 0 ? "." + fraction : "")
}

func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
