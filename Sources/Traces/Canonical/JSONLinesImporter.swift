import SimulationCore

/// Reads TraceSim's JSON Lines interchange format: one object per line, either a fix
/// (`CanonicalField` keys, `lat` and `lon` required) or a motion sample
/// (`{"time": ..., "activity": ["automotive"], "confidence": "high", "coarse": false}`).
/// Unknown keys are errors; blank lines are allowed.
struct JSONLinesImporter {
    private static let fieldKeys: [(bytes: [UInt8], field: CanonicalField)] =
        CanonicalField.allCases.map { (Array($0.name.utf8), $0) }

    static func read(_ source: TextSource) throws(TraceFormatError) -> Trace {
        var builder = TraceBuilder(expectedFixes: source.bytes.count / 120)
        for line in TextLines(source.bytes) {
            var scanner = JSONScanner(source: source, start: line.start, end: line.end)
            guard scanner.peek() != nil else { continue }
            try readLine(&scanner, line: line, into: &builder)
            try scanner.expectEnd()
        }
        return builder.build(provenance: TraceProvenance(format: .jsonLines))
    }

    private static func readLine(
        _ scanner: inout JSONScanner, line: TextLine, into builder: inout TraceBuilder
    ) throws(TraceFormatError) {
        let source = scanner.source
        var record = CanonicalRecord()
        var activity: MotionActivity?
        var confidence: MotionConfidence?
        var isCoarse = false
        var object = try scanner.beginObject()
        while let key = try scanner.nextKey(&object) {
            if let field = field(for: key, in: source) {
                try read(field, &scanner, into: &record)
            } else if scanner.matches(key, "activity") {
                var flags = MotionActivity()
                var list = try scanner.beginArray()
                while try scanner.nextElement(&list) {
                    let tokenStart = scanner.position
                    let name = try scanner.readText(field: "activity") ?? ""
                    guard let flag = MotionActivity(name: name) else {
                        throw source.error(atOffset: tokenStart, .unknownToken(field: "activity", token: name))
                    }
                    flags.insert(flag)
                }
                activity = flags
            } else if scanner.matches(key, "confidence") {
                let tokenStart = scanner.position
                let name = try scanner.readText(field: "confidence") ?? ""
                guard let value = MotionConfidence(name: name) else {
                    throw source.error(atOffset: tokenStart, .unknownToken(field: "confidence", token: name))
                }
                confidence = value
            } else if scanner.matches(key, "coarse") {
                isCoarse = try scanner.readBool()
            } else {
                throw source.error(atOffset: key.start, .unknownColumn(try scanner.text(key)))
            }
        }
        if let activity {
            guard let time = record.time else { throw source.error(line: line.number, .missingField("time")) }
            builder.addMotion(MotionSample(timestamp: time, activity: activity, confidence: confidence ?? .low,
                                           isCoarse: isCoarse))
            return
        }
        if let fix = try record.makeFix(source, recordOffset: line.start) {
            builder.add(fix, line: line.number)
        } else {
            builder.untimed(line: line.number)
        }
    }

    private static func field(for key: JSONScanner.StringToken, in source: TextSource) -> CanonicalField? {
        guard !key.hasEscapes else { return nil }
        let length = key.end - key.start
        let bytes = source.bytes
        candidates: for candidate in fieldKeys where candidate.bytes.count == length {
            for offset in 0..<length where bytes[key.start + offset] != candidate.bytes[offset] { continue candidates }
            return candidate.field
        }
        return nil
    }

    private static func read(
        _ field: CanonicalField, _ scanner: inout JSONScanner, into record: inout CanonicalRecord
    ) throws(TraceFormatError) {
        let name = field.name
        switch field {
        case .time:
            let start = scanner.position
            guard scanner.peek() == UInt8(ascii: "\"") else {
                throw scanner.source.error(atOffset: start, .invalidTimestamp(field: name))
            }
            record.time = try scanner.readTimestamp(field: name)
        case .latitude: record.latitude = try scanner.readDouble(field: name)
        case .longitude: record.longitude = try scanner.readDouble(field: name)
        case .altitudeMeters: record.altitudeMeters = try scanner.readDouble(field: name)
        case .horizontalAccuracyMeters: record.horizontalAccuracyMeters = try scanner.readDouble(field: name)
        case .hdop: record.hdop = try scanner.readDouble(field: name)
        case .verticalAccuracyMeters: record.verticalAccuracyMeters = try scanner.readFloat(field: name)
        case .vdop: record.vdop = try scanner.readFloat(field: name)
        case .speedMetersPerSecond: record.speed = try scanner.readFloat(field: name)
        case .speedAccuracyMetersPerSecond: record.speedAccuracy = try scanner.readFloat(field: name)
        case .courseDegrees: record.course = try scanner.readFloat(field: name)
        case .courseAccuracyDegrees: record.courseAccuracy = try scanner.readFloat(field: name)
        case .provider:
            let start = scanner.position
            let token = try scanner.readText(field: name) ?? ""
            guard let provider = Provider(name: token) else {
                throw scanner.source.error(atOffset: start, .unknownToken(field: name, token: token))
            }
            record.provider = provider
        }
    }
}
