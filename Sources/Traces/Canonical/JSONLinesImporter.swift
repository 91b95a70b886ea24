import SimulationCore

/// Reads TraceSim's JSON Lines interchange format: one object per line, either a fix
/// (`CanonicalField` keys, `lat` and `lon` required) or a motion sample
/// (`{"time": ..., "activity": ["automotive"], "confidence": "high", "coarse": false}`).
/// Unknown keys are errors, and so is a line that is not one JSON object; blank lines are
/// allowed. A line that is one object but holds an impossible value is skipped and counted
/// (see `TextSource+LenientRecords`).
struct JSONLinesImporter {
    static func read(_ source: TextSource, trackOrder: TrackOrder = .time) throws(TraceFormatError) -> Trace {
        var builder = TraceBuilder(expectedFixes: source.bytes.count / 60, trackOrder: trackOrder)
        var segments = CanonicalSegments()
        var timestamps = ISO8601.Reader()
        for line in source.lines {
            var scanner = JSONScanner(source: source, start: line.start, end: line.end)
            guard scanner.peek() != nil else { continue }
            do throws(TraceFormatError) {
                try readLine(&scanner, line: line, timestamps: &timestamps, segments: &segments, into: &builder)
                try scanner.expectEnd()
            } catch {
                let skipped = try source.skippable(error, on: line)
                try checkFraming(line, source)
                builder.diagnostics.skip(skipped.reason, because: skipped.error)
            }
        }
        return try source.requireSomethingValid(builder.build(provenance: TraceProvenance(format: .jsonLines)))
    }

    /// Throws unless `line` is one JSON object whose keys are all known: only then is a bad
    /// value a skipped record rather than a line the reader cannot trust (truncated, two
    /// objects run together, a misspelt key).
    private static func checkFraming(_ line: TextLine, _ source: TextSource) throws(TraceFormatError) {
        var scanner = JSONScanner(source: source, start: line.start, end: line.end)
        var object = try scanner.beginObject()
        while let key = try scanner.nextKey(&object) {
            let isKnown =
                (!key.hasEscapes && CanonicalField(bytes: source.slice(key.start, key.end)) != nil)
                || scanner.matches(key, "activity") || scanner.matches(key, "confidence")
                || scanner.matches(key, "coarse")
            guard isKnown else { throw source.error(atOffset: key.start, .unknownColumn(try scanner.text(key))) }
            try scanner.skipValue()
        }
        try scanner.expectEnd()
    }

    private static func readLine(
        _ scanner: inout JSONScanner, line: TextLine, timestamps: inout ISO8601.Reader,
        segments: inout CanonicalSegments, into builder: inout TraceBuilder
    ) throws(TraceFormatError) {
        let source = scanner.source
        var record = CanonicalRecord()
        var activity: MotionActivity?
        var confidence: MotionConfidence?
        var isCoarse = false
        // One bit per known key: a key given twice is refused, as CSV refuses a repeated
        // column, rather than letting the last value silently win.
        var seen: UInt32 = 0
        func once(_ bit: UInt32, _ key: JSONScanner.StringToken) throws(TraceFormatError) {
            guard seen & bit == 0 else {
                throw source.error(
                    atOffset: key.start - 1,
                    .unexpectedContent("key '\(source.string(key.start, key.end))' appears twice"))
            }
            seen |= bit
        }
        var object = try scanner.beginObject()
        while let key = try scanner.nextKey(&object) {
            if !key.hasEscapes, let field = CanonicalField(bytes: source.slice(key.start, key.end)) {
                try once(bit(field), key)
                try read(field, &scanner, timestamps: &timestamps, into: &record)
            } else if scanner.matches(key, "activity") {
                try once(1 << 29, key)
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
                try once(1 << 30, key)
                let tokenStart = scanner.position
                let name = try scanner.readText(field: "confidence") ?? ""
                guard let value = MotionConfidence(name: name) else {
                    throw source.error(atOffset: tokenStart, .unknownToken(field: "confidence", token: name))
                }
                confidence = value
            } else if scanner.matches(key, "coarse") {
                try once(1 << 31, key)
                isCoarse = try scanner.readBool()
            } else {
                throw source.error(atOffset: key.start, .unknownColumn(try scanner.text(key)))
            }
        }
        if let activity {
            guard let time = record.time else { throw source.error(line: line.number, .missingField("time")) }
            builder.addMotion(
                MotionSample(
                    timestamp: time, activity: activity, confidence: confidence ?? .low,
                    isCoarse: isCoarse))
            return
        }
        let fix = try record.makeFix(source, recordOffset: line.start)
        // After the record is known good, so a skipped line declares no segment.
        try segments.enter(record.segment, line: line.number, source: source, into: &builder)
        if let fix {
            builder.add(fix, line: line.number)
        } else {
            builder.untimed(line: line.number)
        }
    }

    /// A distinct bit for each field, for the duplicate-key check.
    @inline(__always)
    private static func bit(_ field: CanonicalField) -> UInt32 {
        switch field {
        case .time: 1 << 0
        case .latitude: 1 << 1
        case .longitude: 1 << 2
        case .altitudeMeters: 1 << 3
        case .horizontalAccuracyMeters: 1 << 4
        case .hdop: 1 << 5
        case .verticalAccuracyMeters: 1 << 6
        case .vdop: 1 << 7
        case .speedMetersPerSecond: 1 << 8
        case .speedAccuracyMetersPerSecond: 1 << 9
        case .courseDegrees: 1 << 10
        case .courseAccuracyDegrees: 1 << 11
        case .provider: 1 << 12
        case .segment: 1 << 13
        }
    }

    private static func read(
        _ field: CanonicalField, _ scanner: inout JSONScanner, timestamps: inout ISO8601.Reader,
        into record: inout CanonicalRecord
    ) throws(TraceFormatError) {
        let name = field.name
        let start = scanner.position
        let source = scanner.source
        func checked<Value>(
            _ value: Value?, at offset: Int, _ problem: (Value) -> TraceFormatError.Problem?
        ) throws(TraceFormatError) -> Value? {
            if let value, let found = problem(value) { throw source.error(atOffset: offset, found) }
            return value
        }
        func notNegative(_ value: some BinaryFloatingPoint) -> TraceFormatError.Problem? {
            FixRules.negativeProblem(Double(value), field: name)
        }
        switch field {
        case .time:
            guard scanner.peek() == UInt8(ascii: "\"") else {
                throw scanner.source.error(atOffset: scanner.position, .invalidTimestamp(field: name))
            }
            let token = try scanner.readString()
            guard !token.hasEscapes, let instant = timestamps.parse(scanner.source.slice(token.start, token.end)) else {
                throw scanner.source.error(atOffset: token.start, .invalidTimestamp(field: name))
            }
            record.time = instant
        // Values are checked here, at their key, so errors name the exact column.
        case .latitude:
            record.latitude = try checked(scanner.readDouble(field: name), at: start, FixRules.latitudeProblem)
        case .longitude:
            record.longitude = try checked(scanner.readDouble(field: name), at: start, FixRules.longitudeProblem)
        case .altitudeMeters: record.altitudeMeters = try scanner.readDouble(field: name)
        case .horizontalAccuracyMeters:
            record.horizontalAccuracyMeters = try checked(scanner.readDouble(field: name), at: start, notNegative)
        case .hdop: record.hdop = try checked(scanner.readDouble(field: name), at: start, notNegative)
        case .verticalAccuracyMeters:
            record.verticalAccuracyMeters = try checked(scanner.readFloat(field: name), at: start, notNegative)
        case .vdop: record.vdop = try checked(scanner.readFloat(field: name), at: start, notNegative)
        case .speedMetersPerSecond: record.speed = try checked(scanner.readFloat(field: name), at: start, notNegative)
        case .speedAccuracyMetersPerSecond:
            record.speedAccuracy = try checked(scanner.readFloat(field: name), at: start, notNegative)
        case .courseDegrees:
            record.course = try checked(scanner.readFloat(field: name), at: start) {
                FixRules.courseProblem($0, field: name)
            }
        case .courseAccuracyDegrees:
            record.courseAccuracy = try checked(scanner.readFloat(field: name), at: start, notNegative)
        case .provider:
            let token = try scanner.readText(field: name) ?? ""
            guard let provider = Provider(name: token) else {
                throw scanner.source.error(atOffset: start, .unknownToken(field: name, token: token))
            }
            record.provider = provider
        case .segment:
            // A label is text: 2.1 as a number could not tell segment 10 from segment 1.
            if let next = scanner.peek(), next != UInt8(ascii: "\""), next != UInt8(ascii: "n") {
                throw scanner.source.error(
                    atOffset: start, .unexpectedContent(#"segment must be a string, like "2.1""#))
            }
            guard let token = try scanner.readText(field: name) else { return }
            guard let label = Array(token.utf8).withUnsafeBufferPointer(TraceSegment.parseLabel) else {
                throw scanner.source.error(atOffset: start, CanonicalSegments.invalidLabel(token))
            }
            record.segment = label
        }
    }
}
