import Device
import Geometry
import SimulationCore
import Traces

/// Long Weekend Mobile's significant-change test, replayed: how likely a significant-change
/// event is after the phone moved a given distance from the last one.
///
/// Each trial is one phone with Always, the app in the foreground monitoring significant
/// changes. The first fix is the service's initial event; after waiting out the 5-minute
/// minimum interval the phone moves in a straight line, a fix every `stepMeters`, until the
/// next event or `longestMoveMeters`. The distance moved at that event is the trial's trigger
/// distance; P(trigger within d) is the share of trials triggered by d.
package enum SignificantChangeExperiment {
    /// How many phones: the figures' sampling error at 50 % is about 1.1 points.
    package static let trials = 2_000
    /// Metres between fixes: the resolution of each trigger distance.
    static let stepMeters = 10.0
    /// The longest move of a trial: past the 2014 study's 5 km.
    static let longestMoveMeters = 6_000.0
    /// How far from a published figure a simulated probability may stray: about four sampling
    /// errors at 2,000 trials, so a seed never fails it but a changed rule does.
    package static let tolerancePoints = 5.0

    static let experiment = "significant change"
    static let longWeekend =
        "Long Weekend Mobile (2010): 8 phones, 12 days, three cities; P(trigger) after moving a set distance"
    static let study2014 = "2014 field study (cited in issue 31): trigger distances, half within 1 km, 90 % within 5 km"

    /// The experiment's figures, from `trials` phones seeded from `seed` on.
    package static func figures(
        seed: UInt64, parameters: DeviceParameters = DeviceParameters(), trials: Int = trials
    ) -> [CalibrationFigure] {
        let distances = triggerDistances(seed: seed, parameters: parameters, trials: trials)
        func percentWithin(_ meters: Double) -> Double {
            Double(distances.filter { $0 <= meters }.count) * 100 / Double(distances.count)
        }
        func figure(_ meters: Double, published: Double?, tolerance: Double?, source: String, note: String)
            -> CalibrationFigure
        {
            CalibrationFigure(
                experiment: experiment, quantity: "P(trigger) within \(Int(meters)) m", unit: "%",
                simulated: percentWithin(meters), published: published, tolerance: tolerance, source: source,
                note: note)
        }
        let era = "iOS 4 era (2010)"
        return [
            figure(
                250, published: nil, tolerance: nil, source: longWeekend,
                note: "no published value; below Apple's 500 m floor, so 0 by construction"),
            figure(
                500, published: nil, tolerance: nil, source: longWeekend,
                note: "no published value; the mass at Apple's 500 m floor"),
            figure(750, published: 50, tolerance: tolerancePoints, source: longWeekend, note: era),
            figure(
                1_000, published: 50, tolerance: nil, source: study2014,
                note: "not asserted: disagrees with Long Weekend Mobile's 750 m median (iOS 7-8 era)"),
            figure(2_500, published: 95, tolerance: tolerancePoints, source: longWeekend, note: era),
            figure(
                5_000, published: 90, tolerance: nil, source: study2014,
                note: "not asserted: the 2014 tail is longer than Long Weekend Mobile's (iOS 7-8 era)"),
        ]
    }

    /// Each trial's trigger distance in metres; a trial that moved `longestMoveMeters` without an
    /// event counts as infinitely far.
    static func triggerDistances(seed: UInt64, parameters: DeviceParameters, trials: Int) -> [Double] {
        (0..<max(trials, 1)).map { trial in
            triggerDistance(seed: seed &+ UInt64(trial), parameters: parameters)
        }
    }

    /// One phone's distance moved until its first significant change after the initial one.
    static func triggerDistance(seed: UInt64, parameters: DeviceParameters) -> Double {
        var configuration = Device.Configuration()
        configuration.parameters = parameters
        configuration.authorization.storedStatus = .authorizedAlways
        configuration.seed = seed
        var device = Device(configuration: configuration)
        let start = SimInstant(nanosecondsSinceEpoch: 0)
        let origin = Coordinate(latitude: 37.4, longitude: -122.1)
        var actions: [DeviceAction] = []
        actions.reserveCapacity(8)
        device.handle(.user(.launchedApp), at: start, into: &actions)
        device.handle(.app(.startedSignificantChanges), at: start, into: &actions)
        device.handleRecordedFix(fix(at: origin, time: start), at: start, into: &actions)
        // After the minimum interval, so only the distance decides.
        let moving = start.advanced(bySeconds: parameters.significantChangeIntervalSeconds)
        let steps = Int(longestMoveMeters / stepMeters)
        for step in 1...steps {
            let moved = Double(step) * stepMeters
            let time = moving.advanced(bySeconds: Double(step))
            // A centimetre past each mark, so rounding in the distance check never moves a
            // trigger to the next fix.
            let position = Geodesy.destination(from: origin, bearingDegrees: 0, distanceMeters: moved + 0.01)
            actions.removeAll(keepingCapacity: true)
            device.handleRecordedFix(fix(at: position, time: time), at: time, into: &actions)
            if actions.contains(where: { if case .significantChange = $0 { true } else { false } }) { return moved }
        }
        return .infinity
    }

    private static func fix(at position: Coordinate, time: SimInstant) -> Fix {
        Fix(
            timestamp: time, latitude: position.latitude, longitude: position.longitude,
            horizontalAccuracy: .meters(5))
    }
}
