import Device
import Dispatch
import Engine
import Foundation
import SimulationCore
import Testing
import TraceSimCoreLocation

/// The three cases of the trial (issue 30, §4), each written the way an iOS app writes it, with
/// Foundation's wall clock, timers and main queue rather than `AppClock`.

/// Drops every location older than 30 s by the wall clock: a common stale-fix check.
private final class StaleFixChecker: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
    let manager = CLLocationManager()
    var kept = 0
    var dropped = 0
    /// `Date()` against `AppClock.now` at every call, seconds apart.
    var clockGaps: [Double] = []

    override init() {
        super.init()
        manager.delegate = self
        manager.allowsBackgroundLocationUpdates = true
        manager.startUpdatingLocation()
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        for location in locations {
            if abs(location.timestamp.timeIntervalSinceNow) <= 30 { kept += 1 } else { dropped += 1 }
        }
        clockGaps.append(abs(Date().timeIntervalSince(AppClock.now)))
    }
}

/// Stops updates two minutes after the first location, with a run-loop timer.
private final class StopTimerTracker: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
    let manager = CLLocationManager()
    var firstLocationAt: Date?
    var stoppedAt: Date?
    var stopTimer: Timer?

    override init() {
        super.init()
        manager.delegate = self
        manager.allowsBackgroundLocationUpdates = true
        manager.startUpdatingLocation()
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        guard stopTimer == nil else { return }
        firstLocationAt = AppClock.now
        stopTimer = Timer.scheduledTimer(withTimeInterval: 120, repeats: false) { [weak self] _ in self?.stop() }
    }

    private func stop() {
        stoppedAt = AppClock.now
        manager.stopUpdatingLocation()
    }
}

/// At the first location, queues a restart of its updates two minutes later on the main queue
/// (the usual cure for updates that stalled), and a note at once. Background updates keep its
/// process running meanwhile, so the work can come due.
private final class RestartTracker: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
    let manager = CLLocationManager()
    var queuedAt: Date?
    var notedAt: Date?
    var restartedAt: Date?

    override init() {
        super.init()
        manager.delegate = self
        manager.allowsBackgroundLocationUpdates = true
        manager.startUpdatingLocation()
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        guard queuedAt == nil else { return }
        queuedAt = AppClock.now
        DispatchQueue.main.async { self.notedAt = AppClock.now }
        DispatchQueue.main.asyncAfter(deadline: .now() + 120) {
            self.restartedAt = AppClock.now
            self.manager.stopUpdatingLocation()
            self.manager.startUpdatingLocation()
        }
    }
}

/// Carries a test app out of the main actor, once its replay is over.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) { self.value = value }
}

/// The diagnostics whose message starts with `prefix`.
private func diagnostics(_ outcome: ReplayOutcome, _ prefix: String) -> [ClientDiagnostic] {
    outcome.diagnostics.filter { $0.message.hasPrefix(prefix) }
}

@Suite("Wall clock, timers and the main queue")
struct WallClockTests {
    @Test("this test binary's Foundation and Dispatch reach the facade's wall clock")
    func interposes() {
        #expect(WallClock.isInterposing)
    }

    @Test("a stale-fix check on the wall clock keeps every location, and each read is noted")
    func staleFixCheckKeepsLocations() throws {
        var app: StaleFixChecker?
        let outcome = replayApp(try preset("always-precise")) {
            let made = StaleFixChecker()
            app = made
            return made
        }
        let checker = try #require(app)
        #expect(checker.dropped == 0)
        #expect(checker.kept == outcome.deliveryTimes.count)
        #expect(checker.kept == 1_654)
        #expect(checker.clockGaps.allSatisfy { $0 < 1e-6 })
        // One read per location (`timeIntervalSinceNow`) and one `Date()` per call.
        let noted = diagnostics(outcome, "wall clock:")
        #expect(noted.count == 1)
        let reads = try #require(noted.first)
        #expect(reads.count == checker.kept + checker.clockGaps.count)
        #expect(reads.message.contains("during locationManager(_:didUpdateLocations:)"))
        #expect(reads.message.contains("use AppClock.now"))
        #expect(reads.message.contains("Swift task"))
    }

    @Test("a stop timer from Timer.scheduledTimer fires in virtual time, and is noted once")
    func stopTimerFiresInVirtualTime() throws {
        var app: StopTimerTracker?
        let outcome = replayApp(try preset("always-precise")) {
            let made = StopTimerTracker()
            app = made
            return made
        }
        let tracker = try #require(app)
        let first = try #require(tracker.firstLocationAt)
        let stopped = try #require(tracker.stoppedAt)
        #expect(stopped.timeIntervalSince(first) == 120)
        #expect(tracker.stopTimer?.isValid == false)
        // Nothing is delivered after the stop.
        let lastDelivery = try #require(outcome.deliveryTimes.last)
        #expect(Date(lastDelivery) <= stopped)
        #expect(outcome.deliveryTimes.count > 100)
        let noted = diagnostics(outcome, "timer:")
        #expect(noted.count == 1)
        #expect(noted.first?.count == 1)
        #expect(noted.first?.message.contains("during locationManager(_:didUpdateLocations:)") == true)
        #expect(noted.first?.message.contains("AppClock.scheduledTimer(withTimeInterval:repeats:block:)") == true)
        // The timer's own `Date()` read is Foundation's, not the app's.
        #expect(diagnostics(outcome, "wall clock:").isEmpty)
    }

    @Test("a restart queued on the main queue runs in virtual time, after its delay, when the replay is on the main thread")
    func mainQueueRestartRuns() async throws {
        let scenario = try preset("always-precise")
        // As `tracesim replay` runs: on the main thread, where main-actor code may run.
        let (outcome, app) = await MainActor.run {
            var app: RestartTracker?
            let outcome = replayApp(scenario) {
                let made = RestartTracker()
                app = made
                return made
            }
            return (outcome, UncheckedBox(app))
        }
        let tracker = try #require(app.value)
        let queued = try #require(tracker.queuedAt)
        #expect(tracker.notedAt == queued)
        let restarted = try #require(tracker.restartedAt)
        #expect(restarted.timeIntervalSince(queued) == 120)
        // Updates went on after the restart.
        #expect(outcome.deliveryTimes.contains { Date($0) > restarted })
        let noted = diagnostics(outcome, "main queue:")
        #expect(noted.count == 1)
        #expect(noted.first?.count == 2)
        #expect(noted.first?.message.contains("run in virtual time") == true)
        #expect(noted.first?.message.contains("AppClock.asyncAfter(seconds:execute:)") == true)
        #expect(diagnostics(outcome, "wall clock:").isEmpty)
    }

    @Test("off the main thread, work queued on the main queue is not run, and the diagnostic says so")
    func mainQueueWorkOffTheMainThreadIsNoted() throws {
        var app: RestartTracker?
        let outcome = replayApp(try preset("always-precise")) {
            let made = RestartTracker()
            app = made
            return made
        }
        let tracker = try #require(app)
        #expect(tracker.queuedAt != nil)
        #expect(tracker.notedAt == nil)
        #expect(tracker.restartedAt == nil)
        let noted = diagnostics(outcome, "main queue:")
        #expect(noted.count == 1)
        #expect(noted.first?.count == 2)
        #expect(noted.first?.message.contains("not run, because this replay is not on the main thread") == true)
    }

    @Test("a repeating run-loop timer fires on its virtual schedule until invalidated")
    func repeatingTimerKeepsItsSchedule() throws {
        let firings = Log<Double>()
        _ = replayApp(try preset("always-precise")) {
            // Background updates keep the app's process running, so its timers fire.
            let tracker = StaleFixChecker()
            let timer = Timer.scheduledTimer(withTimeInterval: 30, repeats: true) { timer in
                firings.append(seconds(AppClock.now))
                if firings.entries.count == 3 { timer.invalidate() }
            }
            // A second mode is the same timer: it fires once per interval.
            RunLoop.current.add(timer, forMode: .common)
            return tracker
        }
        #expect(firings.entries == [30, 60, 90])
    }

    @Test("only the replay's thread reads the virtual clock, and the monotonic clock keeps running")
    func virtualClockIsThreadLocal() {
        let instant = SimInstant(nanosecondsSinceEpoch: 1_600_000_000_123_456_789)
        let clock = ContinuousClock()
        let started = clock.now
        WallClock.begin(at: instant)
        let virtual = Date()
        let seconds = time(nil)
        var moment = timeval()
        gettimeofday(&moment, nil)
        nonisolated(unsafe) var other = Date.distantPast
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            other = Date()
            finished.signal()
        }
        finished.wait()
        let frozen = (DispatchTime.now(), DispatchTime.now())
        usleep(2_000)
        let elapsed = clock.now - started
        let reads = WallClock.end()
        // A `Date` holds a `Double`: a tenth of a microsecond at this size.
        #expect(abs(virtual.timeIntervalSince1970 - 1_600_000_000.123_456_789) < 1e-6)
        #expect(seconds == 1_600_000_000)
        #expect(moment.tv_sec == 1_600_000_000 && moment.tv_usec == 123_456)
        #expect(other.timeIntervalSince1970 > 1_700_000_000)
        #expect(frozen.0 == frozen.1)
        #expect(elapsed >= .milliseconds(2))
        // `Date()`, `time` and `gettimeofday` here; the other thread's read is not counted.
        #expect(reads == 3)
        #expect(Date().timeIntervalSince1970 > 1_700_000_000)
    }

    @Test("main-queue work no run can claim is counted for the command while a run is alive")
    func unclaimedMainQueueWorkIsForTheCommand() {
        let before = WallClock.unclaimedMainQueueWork.load(ordering: .relaxed)
        let launch = LocationClientLaunch(
            authorizationStatus: .authorizedAlways, accuracyAuthorization: .fullAccuracy,
            motionAuthorizationStatus: .authorized, isMotionActivityAvailable: true)
        var app = CoreLocationApp { NSObject() }
        var requests: [LocationClientRequest<Int>] = []
        app.start(launch, at: SimInstant(nanosecondsSinceEpoch: 0), into: &requests)
        DispatchQueue.main.async {}
        // Other suites run in parallel and may add theirs; only this test takes one away.
        #expect(WallClock.unclaimedMainQueueWork.load(ordering: .relaxed) >= before + 1)
        #expect(WallClock.commandFindings.contains { $0.hasPrefix("main queue: ") && $0.contains("tied to no run") })
        _ = app
        // The test's own block: not a warning for the test process to print as it exits.
        WallClock.unclaimedMainQueueWork.subtract(1, ordering: .relaxed)
    }

    @Test("a run-loop timer that is not a Foundation Timer is added to the run loop untouched")
    func foreignRunLoopTimerPassesThrough() throws {
        let runLoop = try #require(CoreFoundationCalls.getCurrentRunLoop())
        var added: UnsafeMutableRawPointer?
        var contained = false
        nonisolated(unsafe) var payload = 7
        _ = replayApp(try preset("always-precise")) {
            // Made and added while the app's host is bound, with an `info` that is not a `Timer`.
            withUnsafeMutablePointer(to: &payload) { info in
                var context = RunLoopTimerContext(info: UnsafeMutableRawPointer(info))
                added = withUnsafeMutablePointer(to: &context) { pointer in
                    CoreFoundationCalls.createTimer(nil, 1e9, 0, 0, 0, { _, _ in }, UnsafeMutableRawPointer(pointer))
                }
                CoreFoundationCalls.addTimer(runLoop, added, CoreFoundationCalls.defaultMode)
                contained = CoreFoundationCalls.containsTimer(runLoop, added, CoreFoundationCalls.defaultMode) != 0
            }
            return StaleFixChecker()
        }
        let timer = try #require(added)
        #expect(contained)
        CoreFoundationCalls.invalidateTimer(timer)
    }
}

/// `CFRunLoopTimerContext`'s layout (CoreFoundation's CFRunLoop.h): version 0, no callbacks.
private struct RunLoopTimerContext {
    var version = 0
    var info: UnsafeMutableRawPointer?
    var retain: UnsafeRawPointer?
    var release: UnsafeRawPointer?
    var copyDescription: UnsafeRawPointer?
}

/// Core Foundation's run-loop timer functions, found by name as Foundation finds them (the
/// module is not imported by the package).
private enum CoreFoundationCalls {
    typealias Callout = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void

    static func function<T>(_ name: String, _: T.Type) -> T {
        unsafeBitCast(dlsym(UnsafeMutableRawPointer(bitPattern: 0), name), to: T.self)
    }

    static let getCurrentRunLoop = function(
        "CFRunLoopGetCurrent", (@convention(c) () -> UnsafeMutableRawPointer?).self)
    static let createTimer = function(
        "CFRunLoopTimerCreate",
        (@convention(c) (
            UnsafeRawPointer?, Double, Double, UInt, Int, Callout, UnsafeMutableRawPointer?
        ) -> UnsafeMutableRawPointer?).self)
    static let addTimer = function(
        "CFRunLoopAddTimer",
        (@convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeRawPointer?) -> Void).self)
    static let containsTimer = function(
        "CFRunLoopContainsTimer",
        (@convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeRawPointer?) -> UInt8).self)
    static let invalidateTimer = function(
        "CFRunLoopTimerInvalidate", (@convention(c) (UnsafeMutableRawPointer?) -> Void).self)
    /// `kCFRunLoopDefaultMode`: a global holding the mode's string.
    static var defaultMode: UnsafeRawPointer? {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "kCFRunLoopDefaultMode")?.load(as: UnsafeRawPointer?.self)
    }
}
