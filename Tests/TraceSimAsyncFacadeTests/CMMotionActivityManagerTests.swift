import CoreMotionShim
import Device
import Foundation
import Scenarios
import SimulationCore
import Testing
import TraceSimCoreLocation
import Traces

/// The options of a tracker that keeps running in the background.
let backgroundUpdates = LocationUpdateOptions(allowsBackgroundLocationUpdates: true)

/// An app that starts location updates (so it keeps running) and motion activity updates
/// when it launches, and keeps the activities it hears.
private final class MotionApp {
    let manager = CMMotionActivityManager()
    let available = CMMotionActivityManager.isActivityAvailable()
    let status = CMMotionActivityManager.authorizationStatus()
    let heard = Log<(activity: CMMotionActivity, now: Date)>()

    init() {
        SimulationHost.current?.perform(.startedLocationUpdates(backgroundUpdates))
        manager.startActivityUpdates(to: OperationQueue.main) { [heard] activity in
            guard let activity else { return }
            heard.append((activity, AppClock.now))
        }
    }
}

@Suite("CMMotionActivityManager")
struct CMMotionActivityManagerTests {
    @Test("the handler hears exactly the activities the phone delivers under always-precise, at their instants")
    func handlerHearsTheDeliveredActivities() throws {
        let scenario = try preset("always-precise")
        let reference = ScenarioRunner.replay(drive, scenario, client: ReferenceClient(options: backgroundUpdates, startsMotion: true))
            .replay
            .client.motion
        var app: MotionApp?
        _ = replayApp(scenario) {
            let made = MotionApp()
            app = made
            return made
        }
        let motionApp = try #require(app)
        #expect(motionApp.available)
        #expect(motionApp.status == .authorized)
        let heard = motionApp.heard.entries
        // The drive records no activity, so the phone derives 49 changes from its speed.
        #expect(reference.count == 49)
        #expect(heard.count == reference.count)
        for (got, expected) in zip(heard, reference) {
            #expect(got.activity.startDate == Date(timeIntervalSince1970: expected.sample.timestamp.secondsSinceEpoch))
            #expect(got.activity.automotive == expected.sample.activity.contains(.automotive))
            #expect(got.activity.stationary == expected.sample.activity.contains(.stationary))
            #expect(got.activity.walking == expected.sample.activity.contains(.walking))
            #expect(got.activity.confidence.rawValue == Int(expected.sample.confidence.rawValue))
            #expect(got.now == Date(timeIntervalSince1970: expected.at.secondsSinceEpoch))
        }
        #expect(heard.first?.activity.stationary == true)
        #expect(heard.contains { $0.activity.automotive })
    }

    @Test("under always-motion-denied the handler is never called and the status reads denied")
    func deniedMotionNeverCallsTheHandler() throws {
        var app: MotionApp?
        _ = replayApp(try preset("always-motion-denied")) {
            let made = MotionApp()
            app = made
            return made
        }
        let motionApp = try #require(app)
        #expect(motionApp.status == .denied)
        #expect(motionApp.status.rawValue == 2)
        #expect(motionApp.heard.entries.isEmpty)
    }

    @Test("a query answers from the activities the manager has seen, oldest first, within [from, to)")
    func queryAnswersFromWhatWasSeen() throws {
        var app: MotionApp?
        _ = replayApp(try preset("always-precise")) {
            let made = MotionApp()
            app = made
            return made
        }
        let motionApp = try #require(app)
        let heard = motionApp.heard.entries.map(\.activity)
        try #require(heard.count >= 2)
        let answers = Log<[CMMotionActivity]>()
        motionApp.manager.queryActivityStarting(
            from: heard[0].startDate, to: heard[1].startDate, to: OperationQueue()
        ) { activities, error in
            #expect(error == nil)
            answers.append(activities ?? [])
        }
        #expect(answers.entries.map { $0.map(\.startDate) } == [[heard[0].startDate]])
    }

    @Test("outside a replay the manager is inert: no activity, not determined, no handler call")
    func inertOutsideAReplay() {
        #expect(!CMMotionActivityManager.isActivityAvailable())
        #expect(CMMotionActivityManager.authorizationStatus() == .notDetermined)
        let manager = CMMotionActivityManager()
        let calls = Log<Int>()
        manager.startActivityUpdates(to: OperationQueue()) { _ in calls.append(1) }
        manager.stopActivityUpdates()
        #expect(calls.entries.isEmpty)
    }

    @Test("a manager kept from another run does nothing in this one and says so")
    func managerFromAnotherRunIsInert() throws {
        let kept = CMMotionActivityManager()
        let calls = Log<Int>()
        let outcome = replayApp(try preset("always-precise")) {
            SimulationHost.current?.perform(.startedLocationUpdates(backgroundUpdates))
            kept.startActivityUpdates(to: OperationQueue.main) { _ in calls.append(1) }
            return NSObject()
        }
        #expect(calls.entries.isEmpty)
        #expect(
            outcome.diagnostics.map(\.message) == [
                "startActivityUpdates(to:withHandler:) was called on a CMMotionActivityManager made outside any run, "
                    + "which does nothing"
            ])
    }
}
