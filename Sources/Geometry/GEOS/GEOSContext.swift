import CGEOS

/// A geometry problem, worded for the CLI.
public enum GeometryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A polygon GEOS finds invalid, with its reason (self-intersection, ...).
    case invalidPolygon(name: String, reason: String)
    /// A polygon with too few distinct points to be a ring.
    case degeneratePolygon(name: String)
    /// GEOS reported an error.
    case geos(String)

    /// The message the CLI prints.
    public var description: String {
        switch self {
        case .invalidPolygon(let name, let reason): "geofence '\(name)': invalid polygon: \(reason)"
        case .degeneratePolygon(let name): "geofence '\(name)': a polygon ring needs at least 3 distinct points"
        case .geos(let message): "GEOS: \(message)"
        }
    }
}

/// One GEOS context per run (GEOS's re-entrant API). Not `Sendable`: a context and the
/// geometries made with it stay on the thread that made them.
///
/// A class because its address is the error handler's user data: GEOS writes its messages
/// into `lastError`, and `check` takes and clears them per call.
public final class GEOSContext {
    let handle: GEOSContextHandle_t
    fileprivate var lastError: String?

    /// Creates a context.
    public init() {
        // GEOS_init_r fails only when out of memory.
        guard let handle = GEOS_init_r() else { preconditionFailure("GEOS_init_r returned nil") }
        self.handle = handle
        GEOSContext_setErrorMessageHandler_r(
            handle,
            { message, userData in
                guard let userData, let message else { return }
                Unmanaged<GEOSContext>.fromOpaque(userData).takeUnretainedValue().lastError = String(cString: message)
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        GEOS_finish_r(handle)
    }

    /// The one choke point for GEOS's predicate convention: 1 true, 0 false, 2 an exception.
    func check(_ result: CChar) throws(GeometryError) -> Bool {
        defer { lastError = nil }
        switch result {
        case 1: return true
        case 0: return false
        default: throw GeometryError.geos(lastError ?? "unknown error")
        }
    }

    /// Takes the pending error message, if any.
    func takeError() -> String {
        defer { lastError = nil }
        return lastError ?? "unknown error"
    }
}
