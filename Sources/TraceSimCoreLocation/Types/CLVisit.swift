import Device
import Foundation
import SimulationCore

/// A place the person stayed. Models `CLVisit`: `arrivalDate` is `Date.distantPast` when the
/// arrival was not seen and `departureDate` is `Date.distantFuture` while the person has not
/// left (Apple's documented sentinels).
open class CLVisit: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    /// When the person arrived; `Date.distantPast` when unknown.
    open var arrivalDate: Date { values.arrival }
    /// When the person left; `Date.distantFuture` while still there.
    open var departureDate: Date { values.departure }
    /// The place.
    open var coordinate: CLLocationCoordinate2D { values.coordinate }
    /// The place's uncertainty in metres.
    open var horizontalAccuracy: CLLocationAccuracy { values.horizontalAccuracy }

    private let values: (arrival: Date, departure: Date, coordinate: CLLocationCoordinate2D, horizontalAccuracy: Double)

    /// A visit with unknown dates and place, for test doubles to subclass.
    public override init() {
        values = (.distantPast, .distantFuture, kCLLocationCoordinate2DInvalid, -1)
        super.init()
    }

    /// The visit the simulated phone reports for `visit`. The device models a visit's accuracy
    /// only when it is reduced; a precise visit's reads -1 (unknown) rather than a made-up radius.
    package init(_ visit: VisitEvent) {
        values = (
            Date(visit.arrival), visit.departure.map(Date.init) ?? .distantFuture,
            CLLocationCoordinate2D(latitude: visit.coordinate.latitude, longitude: visit.coordinate.longitude),
            visit.reducedHorizontalAccuracyMeters ?? -1
        )
        super.init()
    }

    /// Decodes a visit `encode(with:)` wrote.
    public required init?(coder: NSCoder) {
        values = (
            Date(timeIntervalSince1970: coder.decodeDouble(forKey: "arrival")),
            Date(timeIntervalSince1970: coder.decodeDouble(forKey: "departure")),
            CLLocationCoordinate2D(
                latitude: coder.decodeDouble(forKey: "latitude"), longitude: coder.decodeDouble(forKey: "longitude")),
            coder.decodeDouble(forKey: "horizontalAccuracy")
        )
        super.init()
    }

    /// Visits are encoded securely.
    public class var supportsSecureCoding: Bool { true }

    /// Encodes the dates, place and accuracy.
    open func encode(with coder: NSCoder) {
        coder.encode(arrivalDate.timeIntervalSince1970, forKey: "arrival")
        coder.encode(departureDate.timeIntervalSince1970, forKey: "departure")
        coder.encode(coordinate.latitude, forKey: "latitude")
        coder.encode(coordinate.longitude, forKey: "longitude")
        coder.encode(horizontalAccuracy, forKey: "horizontalAccuracy")
    }

    /// The visit itself: visits are immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }
}
