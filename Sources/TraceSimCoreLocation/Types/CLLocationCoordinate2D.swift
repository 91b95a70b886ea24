/// A latitude or longitude in degrees, WGS-84. Models `CLLocationDegrees`.
public typealias CLLocationDegrees = Double
/// A distance in metres. Models `CLLocationDistance`.
public typealias CLLocationDistance = Double
/// An accuracy radius in metres; negative means the value it qualifies is invalid. Models
/// `CLLocationAccuracy`.
public typealias CLLocationAccuracy = Double
/// A speed in metres per second; negative means invalid. Models `CLLocationSpeed`.
public typealias CLLocationSpeed = Double
/// A course or heading in degrees clockwise from true north; negative means invalid. Models
/// `CLLocationDirection`.
public typealias CLLocationDirection = Double
/// A speed's one-sigma accuracy in metres per second; negative means invalid. Models
/// `CLLocationSpeedAccuracy`.
public typealias CLLocationSpeedAccuracy = Double
/// A course's one-sigma accuracy in degrees; negative means invalid. Models
/// `CLLocationDirectionAccuracy`.
public typealias CLLocationDirectionAccuracy = Double

/// A WGS-84 position. Models `CLLocationCoordinate2D`.
///
/// Like Apple's (an imported C struct), it is neither `Equatable` nor `Hashable`, so an app's
/// own `extension CLLocationCoordinate2D: Equatable` compiles against both.
public struct CLLocationCoordinate2D: Sendable {
    /// Degrees north of the equator, -90...90.
    public var latitude: CLLocationDegrees
    /// Degrees east of Greenwich, -180...180.
    public var longitude: CLLocationDegrees

    /// The coordinate (0, 0), as a zero-initialised C struct is.
    public init() {
        latitude = 0
        longitude = 0
    }

    /// A coordinate at `latitude`, `longitude` (not checked: see `CLLocationCoordinate2DIsValid`).
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Whether `coordinate` lies within -90...90 latitude and -180...180 longitude. Models
/// `CLLocationCoordinate2DIsValid`, which is false for `kCLLocationCoordinate2DInvalid` and NaN.
public func CLLocationCoordinate2DIsValid(_ coordinate: CLLocationCoordinate2D) -> Bool {
    (-90.0...90.0).contains(coordinate.latitude) && (-180.0...180.0).contains(coordinate.longitude)
}

/// A coordinate. Models `CLLocationCoordinate2DMake`.
public func CLLocationCoordinate2DMake(
    _ latitude: CLLocationDegrees, _ longitude: CLLocationDegrees
) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}

/// The coordinate Core Location uses for "no position": (-180, -180). Models
/// `kCLLocationCoordinate2DInvalid`.
public let kCLLocationCoordinate2DInvalid = CLLocationCoordinate2D(latitude: -180, longitude: -180)
