import SimulationCore

/// The fields of TraceSim's own formats, shared by the CSV header, the JSON Lines keys and
/// their readers and writers, so the three can never drift apart.
///
/// | Name | Meaning | Unit |
/// |---|---|---|
/// | `time` | timestamp, ISO-8601 UTC | — |
/// | `lat`, `lon` | WGS-84 position (required) | degrees |
/// | `alt_m` | altitude | metres |
/// | `h_acc_m` | measured horizontal accuracy | metres |
/// | `hdop` | horizontal dilution of precision (exclusive with `h_acc_m`) | unitless |
/// | `v_acc_m` | measured vertical accuracy | metres |
/// | `vdop` | vertical dilution of precision (exclusive with `v_acc_m`) | unitless |
/// | `speed_mps`, `speed_acc_mps` | ground speed and its accuracy | m/s |
/// | `course_deg`, `course_acc_deg` | course over ground and its accuracy | degrees |
/// | `provider` | `gps`, `fused`, `network` or `unknown` | — |
/// | `segment` | `TRACK.SEGMENT`, like `2.1`: the file's track and segment numbers | — |
///
/// An empty CSV cell, or a key left out of a JSON line, means "absent". `segment` is written
/// only for traces of more than one segment (`fixFields` lists the others); when a file gives
/// it, every fix must carry it.
public enum CanonicalField: String, CaseIterable, Sendable {
    case time
    case latitude = "lat"
    case longitude = "lon"
    case altitudeMeters = "alt_m"
    case horizontalAccuracyMeters = "h_acc_m"
    case hdop
    case verticalAccuracyMeters = "v_acc_m"
    case vdop
    case speedMetersPerSecond = "speed_mps"
    case speedAccuracyMetersPerSecond = "speed_acc_mps"
    case courseDegrees = "course_deg"
    case courseAccuracyDegrees = "course_acc_deg"
    case provider
    case segment

    /// Every field but `segment`: the columns of every export.
    public static let fixFields = allCases.filter { $0 != .segment }

    /// The header or key as written.
    public var name: String { rawValue }

    /// The field a JSON key or CSV header spells, read from bytes without building a string.
    /// Decided by length and first letters, then confirmed in full.
    init?(bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count >= 3 else { return nil }
        let candidate: CanonicalField?
        switch (bytes.count, bytes[0]) {
        case (4, UInt8(ascii: "t")): candidate = .time
        case (3, UInt8(ascii: "l")): candidate = bytes[1] == UInt8(ascii: "a") ? .latitude : .longitude
        case (5, UInt8(ascii: "a")): candidate = .altitudeMeters
        case (7, UInt8(ascii: "h")): candidate = .horizontalAccuracyMeters
        case (4, UInt8(ascii: "h")): candidate = .hdop
        case (7, UInt8(ascii: "v")): candidate = .verticalAccuracyMeters
        case (4, UInt8(ascii: "v")): candidate = .vdop
        case (9, UInt8(ascii: "s")): candidate = .speedMetersPerSecond
        case (13, UInt8(ascii: "s")): candidate = .speedAccuracyMetersPerSecond
        case (10, UInt8(ascii: "c")): candidate = .courseDegrees
        case (14, UInt8(ascii: "c")): candidate = .courseAccuracyDegrees
        case (8, UInt8(ascii: "p")): candidate = .provider
        case (7, UInt8(ascii: "s")): candidate = .segment
        default: candidate = nil
        }
        guard let candidate, bytes.equals(candidate.staticName) else { return nil }
        self = candidate
    }

    /// The name as a `StaticString`, for comparing with bytes without allocating.
    var staticName: StaticString {
        switch self {
        case .time: "time"
        case .latitude: "lat"
        case .longitude: "lon"
        case .altitudeMeters: "alt_m"
        case .horizontalAccuracyMeters: "h_acc_m"
        case .hdop: "hdop"
        case .verticalAccuracyMeters: "v_acc_m"
        case .vdop: "vdop"
        case .speedMetersPerSecond: "speed_mps"
        case .speedAccuracyMetersPerSecond: "speed_acc_mps"
        case .courseDegrees: "course_deg"
        case .courseAccuracyDegrees: "course_acc_deg"
        case .provider: "provider"
        case .segment: "segment"
        }
    }
}

/// One canonical record's values before they become a `Fix`: the CSV and JSON Lines
/// readers fill it, and one function checks it, so both formats obey identical rules.
struct CanonicalRecord {
    var time: SimInstant?
    var latitude: Double?
    var longitude: Double?
    var altitudeMeters: Double?
    var horizontalAccuracyMeters: Double?
    var hdop: Double?
    var verticalAccuracyMeters: Float?
    var vdop: Float?
    var speed: Float?
    var speedAccuracy: Float?
    var course: Float?
    var courseAccuracy: Float?
    var provider: Provider = .unknown
    /// `track.segment`, parsed.
    var segment: (track: Int, segment: Int)?

    /// The fix, or `nil` when the record has no timestamp (the caller counts it untimed).
    /// - Throws: when a required field is missing or values break the fix rules.
    func makeFix(_ source: TextSource, recordOffset: Int) throws(TraceFormatError) -> Fix? {
        func fail(_ problem: TraceFormatError.Problem) -> TraceFormatError {
            source.error(atOffset: recordOffset, problem)
        }
        guard let latitude else { throw fail(.missingField(CanonicalField.latitude.name)) }
        guard let longitude else { throw fail(.missingField(CanonicalField.longitude.name)) }
        if let problem = FixRules.latitudeProblem(latitude) ?? FixRules.longitudeProblem(longitude) {
            throw fail(problem)
        }
        if horizontalAccuracyMeters != nil && hdop != nil {
            throw fail(.unexpectedContent("h_acc_m and hdop are exclusive: a fix has one horizontal accuracy"))
        }
        if verticalAccuracyMeters != nil && vdop != nil {
            throw fail(.unexpectedContent("v_acc_m and vdop are exclusive: a fix has one vertical accuracy"))
        }
        // Explicit checks rather than a table: this runs once per record on the import hot path.
        func checkNotNegative(_ value: Double?, _ field: CanonicalField) throws(TraceFormatError) {
            if let value, let problem = FixRules.negativeProblem(value, field: field.name) { throw fail(problem) }
        }
        try checkNotNegative(horizontalAccuracyMeters, .horizontalAccuracyMeters)
        try checkNotNegative(hdop, .hdop)
        try checkNotNegative(verticalAccuracyMeters.map(Double.init), .verticalAccuracyMeters)
        try checkNotNegative(vdop.map(Double.init), .vdop)
        try checkNotNegative(speed.map(Double.init), .speedMetersPerSecond)
        try checkNotNegative(speedAccuracy.map(Double.init), .speedAccuracyMetersPerSecond)
        try checkNotNegative(courseAccuracy.map(Double.init), .courseAccuracyDegrees)
        if let course, let problem = FixRules.courseProblem(course, field: CanonicalField.courseDegrees.name) {
            throw fail(problem)
        }
        guard let time else { return nil }
        var fix = Fix(
            timestamp: time, latitude: latitude, longitude: longitude, altitudeMeters: altitudeMeters,
            speedMetersPerSecond: speed, speedAccuracyMetersPerSecond: speedAccuracy,
            courseDegrees: course, courseAccuracyDegrees: courseAccuracy, provider: provider
        )
        if let horizontalAccuracyMeters { fix.horizontalAccuracy = .meters(horizontalAccuracyMeters) }
        if let hdop { fix.horizontalAccuracy = .dilution(hdop) }
        if let verticalAccuracyMeters { fix.verticalAccuracy = .meters(Double(verticalAccuracyMeters)) }
        if let vdop { fix.verticalAccuracy = .dilution(Double(vdop)) }
        return fix
    }
}
