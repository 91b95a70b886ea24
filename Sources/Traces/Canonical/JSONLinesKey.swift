#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A key a JSON Lines object may hold: a `CanonicalField`, or one of a motion sample's.
///
/// Read straight from the line's bytes (`match`): one switch on the first letters picks
/// the only candidate, one comparison confirms it with its closing quote and colon, so a key
/// costs no string token, no second lookup and no allocation.
enum JSONLinesKey: UInt8 {
    case time, latitude, longitude, altitudeMeters, horizontalAccuracyMeters, hdop
    case verticalAccuracyMeters, vdop, speedMetersPerSecond, speedAccuracyMetersPerSecond
    case courseDegrees, courseAccuracyDegrees, provider, segment
    case activity, confidence, coarse

    /// The fix field, or `nil` for a motion sample's key.
    var field: CanonicalField? {
        switch self {
        case .time: .time
        case .latitude: .latitude
        case .longitude: .longitude
        case .altitudeMeters: .altitudeMeters
        case .horizontalAccuracyMeters: .horizontalAccuracyMeters
        case .hdop: .hdop
        case .verticalAccuracyMeters: .verticalAccuracyMeters
        case .vdop: .vdop
        case .speedMetersPerSecond: .speedMetersPerSecond
        case .speedAccuracyMetersPerSecond: .speedAccuracyMetersPerSecond
        case .courseDegrees: .courseDegrees
        case .courseAccuracyDegrees: .courseAccuracyDegrees
        case .provider: .provider
        case .segment: .segment
        case .activity, .confidence, .coarse: nil
        }
    }

    private init(_ field: CanonicalField) {
        switch field {
        case .time: self = .time
        case .latitude: self = .latitude
        case .longitude: self = .longitude
        case .altitudeMeters: self = .altitudeMeters
        case .horizontalAccuracyMeters: self = .horizontalAccuracyMeters
        case .hdop: self = .hdop
        case .verticalAccuracyMeters: self = .verticalAccuracyMeters
        case .vdop: self = .vdop
        case .speedMetersPerSecond: self = .speedMetersPerSecond
        case .speedAccuracyMetersPerSecond: self = .speedAccuracyMetersPerSecond
        case .courseDegrees: self = .courseDegrees
        case .courseAccuracyDegrees: self = .courseAccuracyDegrees
        case .provider: self = .provider
        case .segment: self = .segment
        }
    }

    /// A distinct bit for each key, for the duplicate-key check.
    var bit: UInt32 { 1 << UInt32(rawValue) }

    /// The key as written, quotes and colon included: what `match` compares.
    private var quoted: StaticString {
        switch self {
        case .time: "\"time\":"
        case .latitude: "\"lat\":"
        case .longitude: "\"lon\":"
        case .altitudeMeters: "\"alt_m\":"
        case .horizontalAccuracyMeters: "\"h_acc_m\":"
        case .hdop: "\"hdop\":"
        case .verticalAccuracyMeters: "\"v_acc_m\":"
        case .vdop: "\"vdop\":"
        case .speedMetersPerSecond: "\"speed_mps\":"
        case .speedAccuracyMetersPerSecond: "\"speed_acc_mps\":"
        case .courseDegrees: "\"course_deg\":"
        case .courseAccuracyDegrees: "\"course_acc_deg\":"
        case .provider: "\"provider\":"
        case .segment: "\"segment\":"
        case .activity: "\"activity\":"
        case .confidence: "\"confidence\":"
        case .coarse: "\"coarse\":"
        }
    }

    /// The key a string token spells, or `nil` for an unknown one. A key with escapes is
    /// unknown, as it always was: the canonical writers never escape a key.
    init?(_ token: JSONScanner.StringToken, in source: TextSource) {
        guard !token.hasEscapes else { return nil }
        let name = source.slice(token.start, token.end)
        if let field = CanonicalField(bytes: name) {
            self.init(field)
        } else if name.equals("activity") {
            self = .activity
        } else if name.equals("confidence") {
            self = .confidence
        } else if name.equals("coarse") {
            self = .coarse
        } else {
            return nil
        }
    }

    /// The key written exactly as `"name":` at `start`, no whitespace or escape inside, and
    /// how many bytes that takes; `nil` for anything else, which the caller reads as a string
    /// token (`JSONScanner.readKey`) and names in its error.
    @inline(__always)
    static func match(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int) -> (key: JSONLinesKey, length: Int)?
    {
        // The shortest is `"lat":`; each candidate's first letters tell it from the others.
        guard start &+ 6 <= end, bytes[start] == UInt8(ascii: "\"") else { return nil }
        let candidate: JSONLinesKey
        switch bytes[start &+ 1] {
        case UInt8(ascii: "t"): candidate = .time
        case UInt8(ascii: "l"): candidate = bytes[start &+ 2] == UInt8(ascii: "a") ? .latitude : .longitude
        case UInt8(ascii: "a"): candidate = bytes[start &+ 2] == UInt8(ascii: "l") ? .altitudeMeters : .activity
        case UInt8(ascii: "h"): candidate = bytes[start &+ 2] == UInt8(ascii: "_") ? .horizontalAccuracyMeters : .hdop
        case UInt8(ascii: "v"): candidate = bytes[start &+ 2] == UInt8(ascii: "_") ? .verticalAccuracyMeters : .vdop
        case UInt8(ascii: "p"): candidate = .provider
        case UInt8(ascii: "s"):
            // `segment`, `speed_mps`, `speed_acc_mps`: told apart by the second and seventh.
            guard start &+ 8 <= end else { return nil }
            if bytes[start &+ 2] == UInt8(ascii: "e") {
                candidate = .segment
            } else {
                candidate =
                    bytes[start &+ 7] == UInt8(ascii: "m") ? .speedMetersPerSecond : .speedAccuracyMetersPerSecond
            }
        case UInt8(ascii: "c"):
            // `course_deg`, `course_acc_deg`, `coarse`, `confidence`.
            switch bytes[start &+ 3] {
            case UInt8(ascii: "u"):
                guard start &+ 9 <= end else { return nil }
                candidate = bytes[start &+ 8] == UInt8(ascii: "d") ? .courseDegrees : .courseAccuracyDegrees
            case UInt8(ascii: "a"): candidate = .coarse
            default: candidate = .confidence
            }
        default: return nil
        }
        let quoted = candidate.quoted
        let length = quoted.utf8CodeUnitCount
        guard start &+ length <= end, let base = bytes.baseAddress,
            memcmp(base + start, quoted.utf8Start, length) == 0
        else { return nil }
        return (candidate, length)
    }
}
