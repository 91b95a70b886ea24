import Device
import Foundation
import Geometry
import TraceSimCoreLocation
import SimulationCore
import Testing
import Traces

/// The value types: Apple's raw values and sentinels, coding, and the exact way back to `Fix`.
@Suite("Core Location types")
struct TypesTests {
    static let instant = SimInstant(nanosecondsSinceEpoch: 1_580_993_674_123_456_789)

    /// A fix with every kind of field: a dilution, Float measurements, absent ones.
    static let fullFix = Fix(
        timestamp: instant, latitude: 37.426_393_666_666_67, longitude: -122.093_652_5, altitudeMeters: 31.4,
        horizontalAccuracy: .dilution(0.76), verticalAccuracy: .meters(2.5), speedMetersPerSecond: 0.014_404_446,
        speedAccuracyMetersPerSecond: 0.3, courseDegrees: 271.25, courseAccuracyDegrees: nil, provider: .gps)
    static let bareFix = Fix(timestamp: instant, latitude: -33.9, longitude: 151.2)

    @Test("a simulated CLLocation gives back its Fix bit for bit, and reports absent values as Core Location does")
    func fixRoundTrip() {
        for fix in [Self.fullFix, Self.bareFix] {
            let location = CLLocation(fix, deliveredAt: Self.instant.advanced(bySeconds: 2))
            #expect(location.fix == fix)
            #expect(location.deliveredAt == Self.instant.advanced(bySeconds: 2))
        }
        let bare = CLLocation(Self.bareFix, deliveredAt: nil)
        #expect(bare.horizontalAccuracy == -1)
        #expect(bare.verticalAccuracy == -1)
        #expect(bare.altitude == 0)
        #expect(bare.speed == -1 && bare.speedAccuracy == -1)
        #expect(bare.course == -1 && bare.courseAccuracy == -1)
        #expect(bare.timestamp == Date(Self.instant))
        #expect(bare.sourceInformation?.isSimulatedBySoftware == false)
        #expect(bare.sourceInformation?.isProducedByAccessory == false)
        #expect(CLLocation(latitude: 1, longitude: 2).sourceInformation == nil)
        let full = CLLocation(Self.fullFix, deliveredAt: nil)
        // HDOP 0.76 through the standard range-error model.
        #expect(full.horizontalAccuracy == Self.fullFix.horizontalAccuracyMeters()?.meters)
        #expect(full.verticalAccuracy == 2.5)
        #expect(full.speed == Double(Float(0.014_404_446)))
        #expect(full.course == 271.25)
        #expect(full.courseAccuracy == -1)
    }

    @Test("every fix of the bundled drive survives CLLocation and back bit for bit")
    func driveRoundTrip() {
        for fix in Drive.trace.fixes { #expect(CLLocation(fix, deliveredAt: fix.timestamp).fix == fix) }
    }

    @Test("NSSecureCoding: a simulated location decodes to the same values and the same Fix")
    func secureCodingRoundTrip() throws {
        for fix in [Self.fullFix, Self.bareFix] {
            let location = CLLocation(fix, deliveredAt: Self.instant)
            let data = try NSKeyedArchiver.archivedData(withRootObject: location, requiringSecureCoding: true)
            let decoded = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CLLocation.self, from: data))
            #expect(decoded.fix == fix)
            #expect(decoded.deliveredAt == Self.instant)
            #expect(decoded == location)
            #expect(decoded.description == location.description)
            #expect(decoded.sourceInformation?.isSimulatedBySoftware == false)
        }
        let made = CLLocation(
            coordinate: CLLocationCoordinate2D(latitude: 1.5, longitude: 2.5), altitude: 10, horizontalAccuracy: 5,
            verticalAccuracy: 3, course: 90, courseAccuracy: 1, speed: 4, speedAccuracy: 0.5,
            timestamp: Date(timeIntervalSince1970: 1_000_000))
        let data = try NSKeyedArchiver.archivedData(withRootObject: made, requiringSecureCoding: true)
        let decoded = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CLLocation.self, from: data))
        #expect(decoded == made)
        #expect(decoded.deliveredAt == nil)
        #expect(decoded.fix == made.fix)
        #expect(CLLocation.supportsSecureCoding)
    }

    @Test("a location made by app code becomes a Fix with its invalid values absent")
    func madeLocationToFix() {
        let location = CLLocation(
            coordinate: CLLocationCoordinate2D(latitude: 1.5, longitude: 2.5), altitude: 10, horizontalAccuracy: 5,
            verticalAccuracy: -1, course: 90, speed: -1, timestamp: Date(timeIntervalSince1970: 1_000_000))
        let fix = location.fix
        #expect(fix.timestamp == SimInstant(nanosecondsSinceEpoch: 1_000_000_000_000_000))
        #expect(fix.horizontalAccuracy == .meters(5))
        #expect(fix.altitudeMeters == nil && fix.verticalAccuracy == nil)
        #expect(fix.speedMetersPerSecond == nil)
        #expect(fix.courseDegrees == 90)
        #expect(location.copy() as? CLLocation === location)
    }

    @Test("distance(from:) is the great-circle distance, ignoring altitude")
    func distance() {
        let a = CLLocation(latitude: 37.4264, longitude: -122.0937)
        let b = CLLocation(
            coordinate: CLLocationCoordinate2D(latitude: 37.4248, longitude: -122.0723), altitude: 500,
            horizontalAccuracy: 5, verticalAccuracy: 5, timestamp: Date(timeIntervalSince1970: 0))
        let expected = Geodesy.distanceMeters(
            Coordinate(latitude: 37.4264, longitude: -122.0937), Coordinate(latitude: 37.4248, longitude: -122.0723))
        #expect(a.distance(from: b) == expected)
        #expect(abs(expected - 1_898) < 5)
    }

    @Test("Apple's raw values, sentinels and constants")
    func rawValues() {
        #expect(CLAuthorizationStatus.notDetermined.rawValue == 0 && CLAuthorizationStatus.authorizedWhenInUse.rawValue == 4)
        #expect(CLAuthorizationStatus.authorizedAlways.rawValue == 3)
        #expect(CLAccuracyAuthorization.reducedAccuracy.rawValue == 1)
        #expect(CLActivityType.airborne.rawValue == 5 && CLActivityType.other.rawValue == 1)
        #expect(CLRegionState.outside.rawValue == 2)
        #expect(CLError.Code.regionMonitoringDenied.rawValue == 4 && CLError.Code.regionMonitoringFailure.rawValue == 5)
        #expect(CLError.Code.deferredFailed.rawValue == 11 && CLError.Code.promptDeclined.rawValue == 18)
        #expect(kCLDistanceFilterNone == -1 && kCLLocationAccuracyBestForNavigation == -2 && kCLLocationAccuracyBest == -1)
        #expect(kCLLocationAccuracyThreeKilometers == 3000)
        #expect(!CLLocationCoordinate2DIsValid(kCLLocationCoordinate2DInvalid))
        #expect(CLLocationCoordinate2DIsValid(CLLocationCoordinate2DMake(90, -180)))
        #expect(!CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: .nan, longitude: 0)))
        #expect(CLLocationCoordinate2D().latitude == 0)
    }

    @Test("CLError bridges to NSError with Core Location's domain and code")
    func errorBridging() {
        let error: any Error = CLError(.regionMonitoringDenied)
        let bridged = error as NSError
        #expect(bridged.domain == kCLErrorDomain)
        #expect(bridged.code == 4)
        #expect((error as? CLError)?.code == .regionMonitoringDenied)
        #expect(CLError(.denied) == CLError(.denied, userInfo: ["why": "test"]))
    }

    @Test("CLVisit: an arrival has departureDate distantFuture; a precise visit's accuracy is unknown")
    func visit() {
        let arrival = CLVisit(
            VisitEvent(kind: .arrival, coordinate: Coordinate(latitude: 1, longitude: 2), arrival: Self.instant))
        #expect(arrival.departureDate == .distantFuture)
        #expect(arrival.arrivalDate == Date(Self.instant))
        #expect(arrival.horizontalAccuracy == -1)
        let departure = CLVisit(
            VisitEvent(
                kind: .departure, coordinate: Coordinate(latitude: 1, longitude: 2), arrival: Self.instant,
                departure: Self.instant.advanced(bySeconds: 600), reducedHorizontalAccuracyMeters: 1500))
        #expect(departure.departureDate == Date(Self.instant.advanced(bySeconds: 600)))
        #expect(departure.horizontalAccuracy == 1500)
        #expect(CLVisit().arrivalDate == .distantPast)
    }

    @Test("CLCircularRegion: contains by great-circle distance; copies and codes with its switches")
    func circularRegion() throws {
        let region = CLCircularRegion(
            center: CLLocationCoordinate2D(latitude: 37.4, longitude: -122.08), radius: 100, identifier: "r")
        region.notifyOnExit = false
        #expect(region.contains(CLLocationCoordinate2D(latitude: 37.4 + 99 / 111_195.0, longitude: -122.08)))
        #expect(!region.contains(CLLocationCoordinate2D(latitude: 37.4 + 101 / 111_195.0, longitude: -122.08)))
        let copy = try #require(region.copy() as? CLCircularRegion)
        #expect(copy !== region && copy == region && !copy.notifyOnExit && copy.radius == 100)
        let data = try NSKeyedArchiver.archivedData(withRootObject: region, requiringSecureCoding: true)
        let decoded = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CLCircularRegion.self, from: data))
        #expect(decoded.identifier == "r" && decoded.center.latitude == 37.4 && !decoded.notifyOnExit && decoded.notifyOnEntry)
    }
}
