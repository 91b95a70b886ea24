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
        // One scanner for the whole file, moved from line to line: a new one per line would
        // copy (retain and release) the source's name and mapping a million times.
        var scanner = JSONScanner(source: source)
        for line in source.lines {
            scanner.restart(at: line.start, end: line.end)
            guard scanner.peek() != nil else { continue }
            do throws(TraceFormatError) {
                try readLine(
                    &scanner, source: source, line: line, timestamps: &timestamps, segments: &segments, into: &builder)
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
            guard JSONLinesKey(key, in: source) != nil else {
                throw source.error(atOffset: key.start, .unknownColumn(try scanner.text(key)))
            }
            try scanner.skipValue()
        }
        try scanner.expectEnd()
    }

    /// Reads one line's object into a fix, an untimed record or a motion sample.
    ///
    /// `source` is the scanner's, passed on rather than read from it: a copy of the source
    /// taken per line or per field costs a retain and a release of its name and mapping.
    private static func readLine(
        _ scanner: inout JSONScanner, source: TextSource, line: TextLine, timestamps: inout ISO8601.Reader,
        segments: inout CanonicalSegments, into builder: inout TraceBuilder
    ) throws(TraceFormatError) {
        var record = CanonicalRecord()
        var activity: MotionActivity?
        var confidence: MotionConfidence?
        var isCoarse = false
        // One bit per known key: a key given twice is refused, as CSV refuses a repeated
        // column, rather than letting the last value silently win.
        var seen: UInt32 = 0
        var object = try scanner.beginObject()
        while try scanner.nextMember(&object) {
            let key: JSONLinesKey
            // The key's bytes between its quotes, for the duplicate-key message.
            let keyStart: Int
            let keyEnd: Int
            scanner.skipWhitespace()
            if let known = JSONLinesKey.match(source.bytes, at: scanner.position, end: scanner.end) {
                key = known.key
                keyStart = scanner.position &+ 1
                keyEnd = scanner.position &+ known.length &- 2
                scanner.position &+= known.length
            } else {
                // Whitespace around the key or its colon, an escape, or a key TraceSim does
                // not know: read as any string token, so errors stay exactly as they were.
                let token = try scanner.readKey()
                guard let known = JSONLinesKey(token, in: source) else {
                    throw source.error(atOffset: token.start, .unknownColumn(try scanner.text(token)))
                }
                key = known
                keyStart = token.start
                keyEnd = token.end
            }
            guard seen & key.bit == 0 else {
                throw source.error(
                    atOffset: keyStart - 1,
                    .unexpectedContent("key '\(source.string(keyStart, keyEnd))' appears twice"))
            }
            seen |= key.bit
            if let field = key.field {
                try read(field, &scanner, source: source, timestamps: &timestamps, into: &record)
                continue
            }
            switch key {
            case .activity:
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
            case .confidence:
                let tokenStart = scanner.position
                let name = try scanner.readText(field: "confidence") ?? ""
                guard let value = MotionConfidence(name: name) else {
                    throw source.error(atOffset: tokenStart, .unknownToken(field: "confidence", token: name))
                }
                confidence = value
            default:
                isCoarse = try scanner.readBool()
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

    private static func read(
        _ field: CanonicalField, _ scanner: inout JSONScanner, source: TextSource,
        timestamps: inout ISO8601.Reader, into record: inout CanonicalRecord
    ) throws(TraceFormatError) {
        let name = field.name
        let start = scanner.position
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
                throw source.error(atOffset: scanner.position, .invalidTimestamp(field: name))
            }
            let token = try scanner.readString()
            guard !token.hasEscapes, let instant = timestamps.parse(source.slice(token.start, token.end)) else {
                throw source.error(atOffset: token.start, .invalidTimestamp(field: name))
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
            // Matched from its bytes; anything else (an escape, `null`, an unknown name) is
            // read again as text, for the error that names it.
            if scanner.peek() == UInt8(ascii: "\"") {
                let token = try scanner.readString()
                if !token.hasEscapes, let provider = Provider(bytes: source.slice(token.start, token.end)) {
                    record.provider = provider
                    return
                }
                scanner.position = start
            }
            let token = try scanner.readText(field: name) ?? ""
            guard let provider = Provider(name: token) else {
                throw source.error(atOffset: start, .unknownToken(field: name, token: token))
            }
            record.provider = provider
        case .segment:
            // A label is text: 2.1 as a number could not tell segment 10 from segment 1.
            if let next = scanner.peek(), next != UInt8(ascii: "\""), next != UInt8(ascii: "n") {
                throw source.error(
                    atOffset: start, .unexpectedContent(#"segment must be a string, like "2.1""#))
            }
            guard let token = try scanner.readText(field: name) else { return }
            guard let label = Array(token.utf8).withUnsafeBufferPointer(TraceSegment.parseLabel) else {
                throw source.error(atOffset: start, CanonicalSegments.invalidLabel(token))
            }
            record.segment = label
        }
    }
}
