import Device
import Geometry
import SimulationCore
import Traces

/// The When-In-Use cutoff after the lock, replayed like the field report behind it: an app with
/// When-In-Use and no background mode starts updates in the foreground, the screen locks, and
/// the phone keeps moving; the figure is how long after the lock the app still got fixes.
package enum WhenInUseCutoffExperiment {
    static let experiment = "When-In-Use cutoff"

    /// The figure: seconds from the lock to the first fix the app no longer gets.
    package static func figures(parameters: DeviceParameters = DeviceParameters()) -> [CalibrationFigure] {
        [
            CalibrationFigure(
                experiment: experiment, quantity: "fixes stop after the lock", unit: "s",
                simulated: secondsUntilUpdatesStop(parameters: parameters), published: 13, tolerance: nil,
                source: "adafruit/Bluefruit_LE_Connect_v2#43 (When-In-Use, no background mode: fixes froze about "
                    + "13 s after the lock); Apple, Choosing the Location Services Authorization to Request: "
                    + "\"a few seconds\" after the app leaves the foreground",
                note: "not asserted: the default is the product's 70 s (whenInUseLockCutoffSeconds); "
                    + "field reports of 10-20 min with a background mode are the band's other end")
        ]
    }

    /// Seconds from the lock to the first fix, one a second, that the app does not get.
    static func secondsUntilUpdatesStop(parameters: DeviceParameters) -> Double {
        var configuration = Device.Configuration()
        configuration.parameters = parameters
        configuration.authorization.storedStatus = .authorizedWhenInUse
        configuration.infoPlist.hasLocationBackgroundMode = false
        var run = DeviceRun(device: Device(configuration: configuration))
        let start = SimInstant(nanosecondsSinceEpoch: 0)
        run.open(at: start)
        var actions: [DeviceAction] = []
        run.send(.user(.launchedApp), at: start, into: &actions)
        run.send(.app(.startedLocationUpdates(LocationUpdateOptions())), at: start, into: &actions)
        let lock = start.advanced(bySeconds: 10)
        run.send(.user(.lockedScreen), at: lock, into: &actions)
        let origin = Coordinate(latitude: 37.4, longitude: -122.1)
        // An hour at most: past it the cutoff is longer than the experiment looks.
        for second in 1...3_600 {
            let time = lock.advanced(bySeconds: Double(second))
            // Timers due by now (the cutoff, the suspension) first, as a replay runs them.
            while let due = run.nextDue, due <= time { run.runNext() }
            actions.removeAll(keepingCapacity: true)
            let position = Geodesy.destination(from: origin, bearingDegrees: 90, distanceMeters: Double(second) * 10)
            let fix = Fix(
                timestamp: time, latitude: position.latitude, longitude: position.longitude,
                horizontalAccuracy: .meters(5))
            run.recordFix(fix, at: time, into: &actions)
            if !actions.contains(where: { if case .deliverLocation = $0 { true } else { false } }) {
                return Double(second)
            }
        }
        return .infinity
    }
}
