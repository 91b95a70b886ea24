import SimulationCore

/// Reads Google Takeout "Semantic Location History" (`{"timelineObjects": [...]}`).
///
/// - Every `simplifiedRawPath` point (of activity segments and place visits) is a raw
///   location sample and becomes a fix: `latE7`/`lngE7` (degrees × 10⁷), `accuracyMeters`,
///   and `timestamp` (ISO-8601) or `timestampMs` (older exports). Provider is unknown:
///   the export does not say.
/// - Each activity segment becomes a coarse motion sample at its start: the segment's
///   `activityType`, else its most probable `activities[]` entry, else the waypoint path's
///   `travelMode`; confidence from the segment's `confidence` (LOW/MEDIUM/HIGH).
/// - Each activity segment is closed at its `endTimestamp` by a coarse, low-confidence
///   `stationary` sample, unless another segment or visit starts by then: the timeline says
///   the activity ended there, and a sample holds until the next one, so without the close a
///   drive would hold until the next object, up to half a day later (issue 31). `stationary`
///   is the model's "no movement": what every engine acts on to stop. A segment without an
///   end gets no close (nothing is invented); one that ends before it starts is an error.
/// - Each place visit becomes a coarse `stationary` sample at its start.
/// - Waypoints and place centres carry no timestamp of their own and are not fixes.
struct GoogleTakeoutImporter {
    private var scanner: JSONScanner
    private var builder = TraceBuilder()
    /// When each activity segment with an end started and ended, in file order; closed once
    /// every object is read (`closeSegments()`), since a close only stands when no other
    /// object starts by then.
    private var segments: [(start: SimInstant, end: SimInstant)] = []
    /// When each segment or visit starts, in file order.
    private var objectStarts: [SimInstant] = []

    static func read(_ source: TextSource) throws(TraceFormatError) -> Trace {
        var importer = GoogleTakeoutImporter(scanner: JSONScanner(source: source))
        try importer.readRoot()
        importer.closeSegments()
        return try importer.builder.build(provenance: TraceProvenance(format: .googleTakeout))
    }

    private mutating func readRoot() throws(TraceFormatError) {
        var root = try scanner.beginObject()
        var sawTimeline = false
        while let key = try scanner.nextKey(&root) {
            guard scanner.matches(key, "timelineObjects") else {
                try scanner.skipValue(depth: 1)
                continue
            }
            sawTimeline = true
            var objects = try scanner.beginArray()
            while try scanner.nextElement(&objects) { try readTimelineObject() }
        }
        try scanner.expectEnd()
        guard sawTimeline else {
            throw scanner.source.error(line: 1, .missingField("timelineObjects"))
        }
    }

    private mutating func readTimelineObject() throws(TraceFormatError) {
        var object = try scanner.beginObject()
        while let key = try scanner.nextKey(&object) {
            if scanner.matches(key, "activitySegment") {
                try readSegment(isVisit: false)
            } else if scanner.matches(key, "placeVisit") {
                try readSegment(isVisit: true)
            } else {
                try scanner.skipValue(depth: 2)
            }
        }
    }

    /// What a segment or visit says about motion, gathered while its keys stream past.
    private struct MotionEvidence {
        var start: SimInstant?
        var startOffset = 0
        var end: SimInstant?
        var endOffset = 0
        var endField = "endTimestamp"
        var activityType: MotionActivity?
        var bestProbability = -1.0
        var mostProbable: MotionActivity?
        var travelMode: MotionActivity?
        var confidence: MotionConfidence = .low
    }

    private mutating func readSegment(isVisit: Bool) throws(TraceFormatError) {
        var evidence = MotionEvidence()
        evidence.startOffset = scanner.position
        var object = try scanner.beginObject()
        while let key = try scanner.nextKey(&object) {
            if scanner.matches(key, "duration") {
                var duration = try scanner.beginObject()
                while let field = try scanner.nextKey(&duration) {
                    if scanner.matches(field, "startTimestamp") {
                        evidence.start = try scanner.readTimestamp(field: "startTimestamp")
                    } else if scanner.matches(field, "startTimestampMs") {
                        evidence.start = try scanner.readMillisecondString(field: "startTimestampMs")
                    } else if scanner.matches(field, "endTimestamp") {
                        (evidence.endOffset, evidence.endField) = (scanner.position, "endTimestamp")
                        evidence.end = try scanner.readTimestamp(field: "endTimestamp")
                    } else if scanner.matches(field, "endTimestampMs") {
                        (evidence.endOffset, evidence.endField) = (scanner.position, "endTimestampMs")
                        evidence.end = try scanner.readMillisecondString(field: "endTimestampMs")
                    } else {
                        try scanner.skipValue(depth: 4)
                    }
                }
            } else if scanner.matches(key, "simplifiedRawPath") {
                var path = try scanner.beginObject()
                while let field = try scanner.nextKey(&path) {
                    guard scanner.matches(field, "points") else {
                        try scanner.skipValue(depth: 4)
                        continue
                    }
                    var points = try scanner.beginArray()
                    while try scanner.nextElement(&points) { try readRawPoint() }
                }
            } else if !isVisit && scanner.matches(key, "activityType") {
                evidence.activityType = Self.activity(try scanner.readText(field: "activityType"))
            } else if !isVisit && scanner.matches(key, "activities") {
                var list = try scanner.beginArray()
                while try scanner.nextElement(&list) {
                    var type: MotionActivity?
                    var probability = 0.0
                    var entry = try scanner.beginObject()
                    while let field = try scanner.nextKey(&entry) {
                        if scanner.matches(field, "activityType") {
                            type = Self.activity(try scanner.readText(field: "activityType"))
                        } else if scanner.matches(field, "probability") {
                            probability = try scanner.readDouble(field: "probability") ?? 0
                        } else {
                            try scanner.skipValue(depth: 5)
                        }
                    }
                    if let type, probability > 0, probability > evidence.bestProbability {
                        evidence.bestProbability = probability
                        evidence.mostProbable = type
                    }
                }
            } else if !isVisit && scanner.matches(key, "waypointPath") {
                var path = try scanner.beginObject()
                while let field = try scanner.nextKey(&path) {
                    if scanner.matches(field, "travelMode") {
                        evidence.travelMode = Self.activity(try scanner.readText(field: "travelMode"))
                    } else {
                        try scanner.skipValue(depth: 4)
                    }
                }
            } else if scanner.matches(key, "confidence") || scanner.matches(key, "placeConfidence") {
                evidence.confidence = Self.confidence(try scanner.readText(field: "confidence"))
            } else {
                try scanner.skipValue(depth: 3)
            }
        }
        guard let start = evidence.start else { return }
        let activity: MotionActivity =
            isVisit ? .stationary : (evidence.activityType ?? evidence.mostProbable ?? evidence.travelMode ?? .unknown)
        builder.addMotion(
            MotionSample(timestamp: start, activity: activity, confidence: evidence.confidence, isCoarse: true))
        objectStarts.append(start)
        guard !isVisit, let end = evidence.end else { return }
        guard !(end < start) else {
            throw scanner.source.error(
                atOffset: evidence.endOffset,
                .unexpectedContent("activity segment's \(evidence.endField) is before its start"))
        }
        segments.append((start, end))
    }

    /// Adds a closing `stationary` sample at each segment's end unless a segment or visit
    /// starts after the segment's start and at or before its end: that object's own sample
    /// says what came next (at the end itself, as consecutive timeline objects meet).
    private mutating func closeSegments() {
        let starts = objectStarts.sorted()
        /// How many starts lie at or before `instant`.
        func startsUpTo(_ instant: SimInstant) -> Int {
            var low = 0
            var high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= instant { low = middle + 1 } else { high = middle }
            }
            return low
        }
        for segment in segments where startsUpTo(segment.end) == startsUpTo(segment.start) {
            builder.addMotion(
                MotionSample(timestamp: segment.end, activity: .stationary, confidence: .low, isCoarse: true))
        }
    }

    private mutating func readRawPoint() throws(TraceFormatError) {
        let pointStart = scanner.position
        var latitudeE7: Double?
        var longitudeE7: Double?
        var accuracy: Double?
        var timestamp: SimInstant?
        var object = try scanner.beginObject()
        while let key = try scanner.nextKey(&object) {
            if scanner.matches(key, "latE7") {
                latitudeE7 = try scanner.readDouble(field: "latE7")
            } else if scanner.matches(key, "lngE7") {
                longitudeE7 = try scanner.readDouble(field: "lngE7")
            } else if scanner.matches(key, "accuracyMeters") {
                let offset = scanner.position
                accuracy = try scanner.readDouble(field: "accuracyMeters")
                if let accuracy, let problem = FixRules.negativeProblem(accuracy, field: "accuracyMeters") {
                    throw scanner.source.error(atOffset: offset, problem)
                }
            } else if scanner.matches(key, "timestamp") {
                timestamp = try scanner.readTimestamp(field: "timestamp")
            } else if scanner.matches(key, "timestampMs") {
                timestamp = try scanner.readMillisecondString(field: "timestampMs")
            } else {
                try scanner.skipValue(depth: 6)
            }
        }
        let line = scanner.line(at: pointStart)
        guard let latitudeE7, let longitudeE7 else {
            throw scanner.source.error(atOffset: pointStart, .missingField("latE7 and lngE7"))
        }
        let latitude = latitudeE7 / 1e7
        let longitude = longitudeE7 / 1e7
        if let problem = FixRules.latitudeProblem(latitude) ?? FixRules.longitudeProblem(longitude) {
            throw scanner.source.error(atOffset: pointStart, problem)
        }
        guard let timestamp else {
            builder.untimed(line: line)
            return
        }
        builder.add(
            Fix(
                timestamp: timestamp, latitude: latitude, longitude: longitude,
                horizontalAccuracy: accuracy.map { .meters($0) }),
            line: line
        )
    }

    private static func activity(_ name: String?) -> MotionActivity? {
        switch name {
        case "WALKING", "WALK", "ON_FOOT": .walking
        case "RUNNING", "RUN": .running
        case "CYCLING", "BICYCLE", "ON_BICYCLE": .cycling
        case "IN_VEHICLE", "DRIVE", "IN_PASSENGER_VEHICLE", "IN_CAR", "IN_BUS", "IN_TAXI", "MOTORCYCLING",
            "IN_TRAIN", "IN_SUBWAY", "IN_TRAM", "IN_FERRY", "BUS", "TRAIN":
            .automotive
        case "STILL": .stationary
        case nil, "UNKNOWN_ACTIVITY_TYPE": nil
        default: .unknown
        }
    }

    private static func confidence(_ name: String?) -> MotionConfidence {
        switch name {
        case "HIGH", "HIGH_CONFIDENCE", "USER_CONFIRMED": .high
        case "MEDIUM", "MEDIUM_CONFIDENCE": .medium
        default: .low
        }
    }
}
