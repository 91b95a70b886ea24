import SimulationCore

/// Reads JSON arrays of iOS `CLLocation` dumps, in both key styles of the Mapbox fixtures:
/// `latitude`/`longitude` with Unix-seconds `timestamp`, and `lat`/`lng` with ISO-8601.
///
/// Core Location's own conventions decide what is absent (Models `CLLocation`):
/// a negative `horizontalAccuracy` means the coordinate is invalid, so the record is
/// skipped as `noFix`; a negative `verticalAccuracy` means the altitude is invalid; a
/// negative `speed`, `course`, `speedAccuracy` or `courseAccuracy` means "not available".
/// Keys this reader does not know (`floor`, `sourceInformation`, ...) are passed over.
struct CLLocationJSONImporter {
    static func read(_ source: TextSource) throws(TraceFormatError) -> Trace {
        var scanner = JSONScanner(source: source)
        var builder = TraceBuilder(expectedFixes: source.bytes.count / 200)
        var array = try scanner.beginArray()
        while try scanner.nextElement(&array) {
            guard scanner.peek() == UInt8(ascii: "{") else { throw scanner.error("expected a location object") }
            let recordStart = scanner.position
            let record = try readRecord(&scanner)
            let line = scanner.line(at: recordStart)
            guard let latitude = record.latitude, let longitude = record.longitude else {
                throw source.error(atOffset: recordStart, .missingField("latitude and longitude"))
            }
            if let accuracy = record.horizontalAccuracy, accuracy < 0 {
                builder.skip(.noFix, line: line)
                continue
            }
            if let problem = FixRules.latitudeProblem(latitude) ?? FixRules.longitudeProblem(longitude) {
                throw source.error(atOffset: recordStart, problem)
            }
            guard let timestamp = record.timestamp else {
                builder.untimed(line: line)
                continue
            }
            let altitudeIsValid = (record.verticalAccuracy ?? 0) >= 0
            var fix = Fix(
                timestamp: timestamp,
                latitude: latitude,
                longitude: longitude,
                altitudeMeters: altitudeIsValid ? record.altitude : nil,
                speedMetersPerSecond: record.speed.flatMap { $0 < 0 ? nil : $0 },
                speedAccuracyMetersPerSecond: record.speedAccuracy.flatMap { $0 < 0 ? nil : $0 },
                courseDegrees: record.course.flatMap { $0 < 0 ? nil : $0 },
                courseAccuracyDegrees: record.courseAccuracy.flatMap { $0 < 0 ? nil : $0 },
                provider: .fused
            )
            if let course = fix.courseDegrees, let problem = FixRules.courseProblem(course, field: "course") {
                throw source.error(atOffset: recordStart, problem)
            }
            if let accuracy = record.horizontalAccuracy { fix.horizontalAccuracy = .meters(accuracy) }
            if altitudeIsValid, let accuracy = record.verticalAccuracy { fix.verticalAccuracy = .meters(accuracy) }
            builder.add(fix, line: line)
        }
        try scanner.expectEnd()
        return try builder.build(provenance: TraceProvenance(format: .clLocationJSON))
    }

    private struct Record {
        var latitude: Double?
        var longitude: Double?
        var altitude: Double?
        var horizontalAccuracy: Double?
        var verticalAccuracy: Double?
        var speed: Float?
        var speedAccuracy: Float?
        var course: Float?
        var courseAccuracy: Float?
        var timestamp: SimInstant?
    }

    private static func readRecord(_ scanner: inout JSONScanner) throws(TraceFormatError) -> Record {
        var record = Record()
        var object = try scanner.beginObject()
        while let key = try scanner.nextKey(&object) {
            if scanner.matches(key, "latitude") || scanner.matches(key, "lat") {
                record.latitude = try scanner.readDouble(field: "latitude")
            } else if scanner.matches(key, "longitude") || scanner.matches(key, "lng") || scanner.matches(key, "lon") {
                record.longitude = try scanner.readDouble(field: "longitude")
            } else if scanner.matches(key, "altitude") {
                record.altitude = try scanner.readDouble(field: "altitude")
            } else if scanner.matches(key, "horizontalAccuracy") {
                record.horizontalAccuracy = try scanner.readDouble(field: "horizontalAccuracy")
            } else if scanner.matches(key, "verticalAccuracy") {
                // Single precision in a Fix: a value beyond Float's range is an error here.
                record.verticalAccuracy = try scanner.readFloat(field: "verticalAccuracy").map(Double.init)
            } else if scanner.matches(key, "speed") {
                record.speed = try scanner.readFloat(field: "speed")
            } else if scanner.matches(key, "speedAccuracy") {
                record.speedAccuracy = try scanner.readFloat(field: "speedAccuracy")
            } else if scanner.matches(key, "course") {
                record.course = try scanner.readFloat(field: "course")
            } else if scanner.matches(key, "courseAccuracy") {
                record.courseAccuracy = try scanner.readFloat(field: "courseAccuracy")
            } else if scanner.matches(key, "timestamp") {
                record.timestamp = try scanner.readTimestamp(field: "timestamp")
            } else {
                try scanner.skipValue(depth: 1)
            }
        }
        return record
    }
}
