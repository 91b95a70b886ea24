import Device
import Geometry
import SimulationCore
import Testing
import Traces

/// Issue 30 §2: the device delivers what an iPhone's receiver would report, whatever the trace
/// recorded: an accuracy in metres on every location, speed and course from the current and
/// earlier fixes where the trace lacks them, and -1 (absent) only where iOS gives it.
@Suite("Device: locations as the receiver reports them")
struct ReceiverReportTests {
    /// A phone delivering standard updates in the foreground from 0 s.
    static func tracking(_ parameters: DeviceParameters = DeviceParameters()) -> DeviceRun {
        var run = DeviceRun.testing(Setup.authorized(.authorizedAlways, parameters: parameters))
        run.at(0, .user(.launchedApp))
        run.at(0, .app(.startedLocationUpdates(LocationUpdateOptions())))
        return run
    }

    /// A fix at `seconds`, `meters` from the origin along `bearing`, with what the trace gave.
    static func fix(
        _ run: DeviceRun, _ seconds: Double, meters: Double, bearing: Double = 0, accuracy: Accuracy? = nil,
        speed: Float? = nil, course: Float? = nil
    ) -> Fix {
        let position = Geodesy.destination(from: DeviceRun.origin, bearingDegrees: bearing, distanceMeters: meters)
        return Fix(
            timestamp: run.time(seconds), latitude: position.latitude, longitude: position.longitude,
            horizontalAccuracy: accuracy, speedMetersPerSecond: speed, courseDegrees: course, provider: .gps)
    }

    /// Records `fix` and returns what was delivered.
    static func deliver(_ run: inout DeviceRun, _ seconds: Double, _ fix: Fix) -> [Fix] {
        run.at(seconds, .sensor(.fixRecorded(fix))).deliveries
    }

    @Test("deliveredLocationsAsReceiverReports: a fix without accuracy is delivered with the assumed 10 m, never -1")
    func assumedAccuracyDefault() throws {
        var run = Self.tracking()
        let delivered = Self.deliver(&run, 1, Self.fix(run, 1, meters: 0))
        #expect(delivered.count == 1)
        #expect(try #require(delivered.first).horizontalAccuracy == .meters(10))
        #expect(run.device.derivedFields == [.horizontalAccuracy])
    }

    @Test("assumedHorizontalAccuracyMeters overrides the default; a measured accuracy is kept")
    func assumedAccuracyOverride() throws {
        var parameters = DeviceParameters()
        parameters.assumedHorizontalAccuracyMeters = 35
        var run = Self.tracking(parameters)
        #expect(try #require(Self.deliver(&run, 1, Self.fix(run, 1, meters: 0)).first).horizontalAccuracy == .meters(35))
        let measured = Self.fix(run, 2, meters: 0, accuracy: .meters(4))
        #expect(try #require(Self.deliver(&run, 2, measured).first).horizontalAccuracy == .meters(4))
    }

    @Test("HDOP and VDOP become metres through the standard range-error model (7.5 m and 11.5 m per unit)")
    func dilutionBecomesMeters() throws {
        var run = Self.tracking()
        var fix = Self.fix(run, 1, meters: 0, accuracy: .dilution(2))
        fix.verticalAccuracy = .dilution(2)
        let delivered = try #require(Self.deliver(&run, 1, fix).first)
        #expect(delivered.horizontalAccuracy == .meters(15))
        #expect(delivered.verticalAccuracy == .meters(23))
        #expect(run.device.derivedFields == [.horizontalAccuracy, .verticalAccuracy])
    }

    @Test("Speed and course come from the previous recorded fix only: none on the first, exact after")
    func speedAndCourseFromEarlierFixes() throws {
        var run = Self.tracking()
        let first = try #require(Self.deliver(&run, 1, Self.fix(run, 1, meters: 0)).first)
        #expect(first.speedMetersPerSecond == nil)
        #expect(first.courseDegrees == nil)
        // 20 m due east in 2 s: 10 m/s at 90°.
        let second = try #require(Self.deliver(&run, 3, Self.fix(run, 3, meters: 20, bearing: 90)).first)
        #expect(abs(try #require(second.speedMetersPerSecond) - 10) < 0.001)
        #expect(abs(try #require(second.courseDegrees) - 90) < 0.01)
        #expect(run.device.derivedFields == [.horizontalAccuracy, .speed, .course])
    }

    @Test("Course stays invalid below courseMinimumSpeedMetersPerSecond (0.5 m/s); speed is still given")
    func courseInvalidWhenNearlyStill() throws {
        var run = Self.tracking()
        _ = Self.deliver(&run, 1, Self.fix(run, 1, meters: 0))
        // 0.4 m in 1 s: nearly still.
        let still = try #require(Self.deliver(&run, 2, Self.fix(run, 2, meters: 0.4, bearing: 45)).first)
        #expect(still.courseDegrees == nil)
        #expect(abs(try #require(still.speedMetersPerSecond) - 0.4) < 0.001)
        // 0.6 m in the next second: moving, so the course is the bearing.
        let moving = try #require(Self.deliver(&run, 3, Self.fix(run, 3, meters: 1.0, bearing: 45)).first)
        #expect(abs(try #require(moving.courseDegrees) - 45) < 0.1)
    }

    @Test("A recorded speed or course is never replaced; a recorded speed decides the course's validity")
    func recordedValuesKept() throws {
        var run = Self.tracking()
        _ = Self.deliver(&run, 1, Self.fix(run, 1, meters: 0, accuracy: .meters(5), speed: 0, course: 10))
        // Positions say 10 m/s north; the receiver recorded 3 m/s and no course.
        let second = try #require(
            Self.deliver(&run, 2, Self.fix(run, 2, meters: 10, accuracy: .meters(5), speed: 3)).first)
        #expect(second.speedMetersPerSecond == 3)
        #expect(abs(try #require(second.courseDegrees)) < 0.01)
        // Recorded still (0.2 m/s) while positions jump: the course stays invalid.
        let third = try #require(
            Self.deliver(&run, 3, Self.fix(run, 3, meters: 20, accuracy: .meters(5), speed: 0.2)).first)
        #expect(third.speedMetersPerSecond == Float(0.2))
        #expect(third.courseDegrees == nil)
        let full = Self.fix(run, 4, meters: 30, accuracy: .meters(5), speed: 7, course: 181)
        #expect(Self.deliver(&run, 4, full) == [full])
        #expect(run.device.derivedFields == [.course])
    }

    @Test("A reduced-accuracy location derives nothing: reduced accuracy, no speed or course, as iOS gives it")
    func reducedDerivesNothing() throws {
        var run = DeviceRun.testing(Setup.authorized(.authorizedAlways, precise: false))
        run.at(0, .user(.launchedApp))
        run.at(0, .app(.startedLocationUpdates(LocationUpdateOptions())))
        let delivered = try #require(Self.deliver(&run, 1, Self.fix(run, 1, meters: 0)).first)
        #expect(delivered.horizontalAccuracy == .meters(DeviceParameters().reducedHorizontalAccuracyMeters))
        #expect(delivered.speedMetersPerSecond == nil)
        #expect(run.device.derivedFields.isEmpty)
    }
}

/// Issue 30 §6: several locations in one `didUpdateLocations` call as a device parameter.
@Suite("Device: several locations per delivery")
struct LocationsPerDeliveryTests {
    @Test("severalLocationsPerCall: locationsPerDelivery 3 holds two fixes and hands over three at the third, in order")
    func batchesOfThree() {
        var parameters = DeviceParameters()
        parameters.locationsPerDelivery = 3
        var run = ReceiverReportTests.tracking(parameters)
        #expect(run.record(1, north: 0).deliveries.isEmpty)
        #expect(run.record(2, north: 10).deliveries.isEmpty)
        #expect(run.device.heldLocationCount == 2)
        let third = run.record(3, north: 20).deliveries
        #expect(third.map(\.timestamp) == [run.time(1), run.time(2), run.time(3)])
        #expect(run.device.heldLocationCount == 0)
        #expect(run.record(4, north: 30).deliveries.isEmpty)
    }

    @Test("Held fixes share the refused fix's fate: dropped for its rule when updates stop")
    func heldFixesDroppedWithRule() {
        var parameters = DeviceParameters()
        parameters.locationsPerDelivery = 3
        var run = ReceiverReportTests.tracking(parameters)
        run.record(1, north: 0)
        run.record(2, north: 10)
        run.at(2.5, .app(.stoppedLocationUpdates))
        #expect(run.record(3, north: 20).drops == [.updatesMustBeRunning, .updatesMustBeRunning, .updatesMustBeRunning])
        #expect(run.device.heldLocationCount == 0)
    }

    @Test("The default, 1, hands each fix over at once")
    func defaultIsOne() {
        var run = ReceiverReportTests.tracking()
        #expect(DeviceParameters().locationsPerDelivery == 1)
        #expect(run.record(1).deliveries.count == 1)
        #expect(run.device.heldLocationCount == 0)
    }
}
