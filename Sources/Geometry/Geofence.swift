/// A geofence: an identifier, a circle or a polygon, and its dwell settings.
public struct Geofence: Sendable, Equatable {
    /// A fence's shape.
    public enum Shape: Sendable, Equatable {
        /// A circle of `radiusMeters` around `center`.
        case circle(center: Coordinate, radiusMeters: Double)
        /// A polygon in longitude/latitude.
        case polygon(PolygonShape)
    }

    /// The identifier events carry.
    public var identifier: String
    public var shape: Shape
    /// Whether a DWELL event follows after `loiteringDelaySeconds` inside.
    public var notifyOnDwell: Bool
    /// Seconds inside before DWELL.
    public var loiteringDelaySeconds: Double

    /// Creates a geofence.
    public init(identifier: String, shape: Shape, notifyOnDwell: Bool = false, loiteringDelaySeconds: Double = 0) {
        self.identifier = identifier
        self.shape = shape
        self.notifyOnDwell = notifyOnDwell
        self.loiteringDelaySeconds = loiteringDelaySeconds
    }
}
