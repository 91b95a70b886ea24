import Foundation
import SimulationCore

/// Reads Android GnssLogger CSV logs: the `Fix` records, in the 1.4 layout
/// (`Fix,Provider,Latitude,Longitude,Altitude,Speed,Accuracy,(UTC)TimeInMs`) and the v3
/// layout (`LatitudeDegrees`, ..., `UnixTimeMillis`, `SpeedAccuracyMps`, `BearingDegrees`,
/// `VerticalAccuracyMeters`, ...).
///
/// The layout comes from the `# Fix,...` header line; a log without one is read in the 1.4
/// layout if its records have that field count. Every provider is kept: `GPS` → gps,
/// `FLP` → fused, `NLP` → network. Empty fields are absent, never zero. Other record types
/// (`Raw`, `Status`, sensors, `NMEA`) are passed over. A `Fix` record with the layout's field
/// count but an impossible value is skipped and counted (see `TextSource+LenientRecords`).
struct GnssLoggerImporter {
    private static let legacyLayout = [
        "Fix", "Provider", "Latitude", "Longitude", "Altitude", "Speed", "Accuracy",
        "(UTC)TimeInMs",
    ]

    /// Where each field sits in a `Fix` record.
    private struct Layout {
        let fieldCount: Int
        let provider: Int
        let latitude: Int
        let longitude: Int
        let time: Int
        let altitude: Int?
        let speed: Int?
        let accuracy: Int?
        let bearing: Int?
        let speedAccuracy: Int?
        let bearingAccuracy: Int?
        let verticalAccuracy: Int?

        init(columns: ColumnMap, source: TextSource, line: Int) throws(TraceFormatError) {
            fieldCount = columns.count
            guard let provider = columns.position(of: "Provider"),
                let latitude = columns.position(of: "LatitudeDegrees", "Latitude"),
                let longitude = columns.position(of: "LongitudeDegrees", "Longitude"),
                let time = columns.position(of: "UnixTimeMillis", "(UTC)TimeInMs")
            else { throw source.error(line: line, .missingColumn("Provider, Latitude, Longitude or time")) }
            self.provider = provider
            self.latitude = latitude
            self.longitude = longitude
            self.time = time
            altitude = columns.position(of: "AltitudeMeters", "Altitude")
            speed = columns.position(of: "SpeedMps", "Speed")
            accuracy = columns.position(of: "AccuracyMeters", "Accuracy")
            bearing = columns.position(of: "BearingDegrees", "Bearing")
            speedAccuracy = columns.position(of: "SpeedAccuracyMps")
            bearingAccuracy = columns.position(of: "BearingAccuracyDegrees")
            verticalAccuracy = columns.position(of: "VerticalAccuracyMeters")
        }
    }

    static func read(_ source: TextSource, startDate: CalendarDate?) throws(TraceFormatError) -> Trace {
        var builder = TraceBuilder(expectedFixes: source.bytes.count / 400)
        var splitter = FieldSplitter()
        var layout: Layout?
        var device: String?
        var sawRecord = false
        var sawFixRecord = false
        var sawNMEARecord = false
        let bytes = source.bytes

        for line in source.lines where !line.isEmpty {
            if bytes[line.start] == UInt8(ascii: "#") {
                let text = source.string(line.start, line.end)
                if let header = text.range(of: "Fix,"),
                    text[..<header.lowerBound].allSatisfy({ $0 == "#" || $0 == " " })
                {
                    let headerLine = TextLine(
                        number: line.number,
                        start: line.start
                            + text.utf8.distance(
                                from: text.startIndex, to: header.lowerBound), end: line.end)
                    let columns = try ColumnMap(source: source, line: headerLine, splitter: &splitter)
                    layout = try Layout(columns: columns, source: source, line: line.number)
                } else if device == nil {
                    device = Self.device(fromHeader: text)
                }
                continue
            }
            splitter.split(bytes, line.start, line.end, separator: UInt8(ascii: ","))
            let record = source.string(splitter.start(0), splitter.end(0))
            guard FormatDetector.gnssLoggerRecords.contains(record) || record == "NMEA" else {
                throw source.error(
                    line: line.number, column: 1,
                    .unexpectedContent("'\(record)' is not a GnssLogger record type"))
            }
            sawRecord = true
            sawNMEARecord = sawNMEARecord || record == "NMEA"
            guard record == "Fix" else { continue }
            sawFixRecord = true
            if layout == nil, splitter.count == legacyLayout.count {
                layout = try Layout(columns: ColumnMap(names: legacyLayout), source: source, line: line.number)
            }
            guard let layout else {
                throw source.error(line: line.number, .unexpectedContent("Fix record before any '# Fix,...' header"))
            }
            do throws(TraceFormatError) {
                try readFix(source, line: line, fields: splitter, layout: layout, into: &builder)
            } catch {
                let skipped = try source.skippable(error, on: line)
                builder.diagnostics.skip(skipped.reason, because: skipped.error)
            }
        }
        guard sawRecord else {
            throw TraceFormatError(file: source.file, problem: .unexpectedContent("no GnssLogger records found"))
        }
        if !sawFixRecord && sawNMEARecord {
            // Logged with Fix records switched off: the NMEA records are the positions.
            return try NMEAImporter.read(source, format: .gnssLoggerNMEA, startDate: startDate)
        }
        return try source.requireSomethingValid(
            builder.build(provenance: TraceProvenance(format: .gnssLogger, device: device)))
    }

    private static func readFix(
        _ source: TextSource, line: TextLine, fields: FieldSplitter, layout: Layout, into builder: inout TraceBuilder
    ) throws(TraceFormatError) {
        guard fields.count == layout.fieldCount else {
            throw source.error(
                line: line.number, .wrongFieldCount(expected: "\(layout.fieldCount)", found: fields.count))
        }
        func range(_ index: Int?) -> (Int, Int) {
            guard let index else { return (0, 0) }
            return (fields.start(index), fields.end(index))
        }
        let (timeStart, timeEnd) = range(layout.time)
        guard timeStart < timeEnd else {
            builder.untimed(line: line.number)
            return
        }
        guard let milliseconds = NumberParser.int64(source.slice(timeStart, timeEnd)),
            let timestamp = SimInstant(millisecondsSinceEpoch: milliseconds)
        else { throw source.error(atOffset: timeStart, .invalidTimestamp(field: "time")) }

        let (providerStart, providerEnd) = range(layout.provider)
        let latitude = try source.latitude(range(layout.latitude).0, range(layout.latitude).1)
        let longitude = try source.longitude(range(layout.longitude).0, range(layout.longitude).1)
        var fix = Fix(
            timestamp: timestamp,
            latitude: latitude,
            longitude: longitude,
            altitudeMeters: try source.optionalDouble(
                range(layout.altitude).0, range(layout.altitude).1, field: "altitude"),
            speedMetersPerSecond: try source.nonNegativeFloat(
                range(layout.speed).0, range(layout.speed).1, field: "speed"),
            speedAccuracyMetersPerSecond: try source.nonNegativeFloat(
                range(layout.speedAccuracy).0, range(layout.speedAccuracy).1, field: "speed accuracy"),
            courseDegrees: try source.course(range(layout.bearing).0, range(layout.bearing).1, field: "bearing"),
            courseAccuracyDegrees: try source.nonNegativeFloat(
                range(layout.bearingAccuracy).0, range(layout.bearingAccuracy).1, field: "bearing accuracy"),
            provider: Self.provider(source.string(providerStart, providerEnd))
        )
        if let accuracy = try source.nonNegativeDouble(
            range(layout.accuracy).0, range(layout.accuracy).1, field: "accuracy")
        {
            fix.horizontalAccuracy = .meters(accuracy)
        }
        if let accuracy = try source.nonNegativeFloat(
            range(layout.verticalAccuracy).0, range(layout.verticalAccuracy).1, field: "vertical accuracy")
        {
            fix.verticalAccuracy = .meters(Double(accuracy))
        }
        builder.add(fix, line: line.number)
    }

    private static func provider(_ name: String) -> Provider {
        switch name.lowercased() {
        case "gps": .gps
        case "flp", "fused": .fused
        case "nlp", "network": .network
        default: .unknown
        }
    }

    /// "# Version: v3.0.6.4 Platform: 14 Manufacturer: Google Model: Pixel 7" → "Google Pixel 7".
    private static func device(fromHeader text: String) -> String? {
        guard let manufacturer = text.range(of: "Manufacturer: "), let model = text.range(of: " Model: ") else {
            return nil
        }
        let maker = text[manufacturer.upperBound..<model.lowerBound].trimmed()
        let name = text[model.upperBound...].trimmed()
        return maker.isEmpty ? name : "\(maker) \(name)"
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmed() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
