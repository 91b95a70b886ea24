/// The largest distance Core Location reports. Models `CLLocationDistanceMax`.
public let CLLocationDistanceMax: CLLocationDistance = .greatestFiniteMagnitude
/// The largest time interval Core Location reports. Models `CLTimeIntervalMax`.
public let CLTimeIntervalMax: Double = .greatestFiniteMagnitude

/// `distanceFilter`'s default: every movement is reported. Models `kCLDistanceFilterNone`.
public let kCLDistanceFilterNone: CLLocationDistance = -1
/// `headingFilter`'s "every change". Models `kCLHeadingFilterNone`.
public let kCLHeadingFilterNone: CLLocationDirection = -1

/// Models `kCLLocationAccuracyBestForNavigation`. Stored only: see `CLLocationManager.desiredAccuracy`.
public let kCLLocationAccuracyBestForNavigation: CLLocationAccuracy = -2
/// Models `kCLLocationAccuracyBest`, the default `desiredAccuracy`.
public let kCLLocationAccuracyBest: CLLocationAccuracy = -1
/// Models `kCLLocationAccuracyNearestTenMeters`.
public let kCLLocationAccuracyNearestTenMeters: CLLocationAccuracy = 10
/// Models `kCLLocationAccuracyHundredMeters`.
public let kCLLocationAccuracyHundredMeters: CLLocationAccuracy = 100
/// Models `kCLLocationAccuracyKilometer`.
public let kCLLocationAccuracyKilometer: CLLocationAccuracy = 1000
/// Models `kCLLocationAccuracyThreeKilometers`.
public let kCLLocationAccuracyThreeKilometers: CLLocationAccuracy = 3000
/// Models `kCLLocationAccuracyReduced`: the accuracy an app with reduced accuracy
/// authorization gets, whatever it asks for.
public let kCLLocationAccuracyReduced: CLLocationAccuracy = 3000
