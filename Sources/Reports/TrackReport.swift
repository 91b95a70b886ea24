import Device
import Engine
import Scenarios
import SimulationCore
import Traces

/// What `tracesim track` prints: the recorder's contents, with times as seconds from the
/// trace's first fix so runs of different traces line up.
public struct TrackReport {
    let file: String
    let trace: Trace
    let engine: TrackingEngine
    let gpsOn: GPSOnTime
    let fenceCount: Int
    let notes: [RunNote]

    /// The report on `engine` after it replayed `trace` (read from `file`) with `fenceCount`
    /// geofences, `gpsOn` being the replay's record of when the receiver ran: the geofence
    /// line appears only when there are some. `notes` are what TraceSim noticed about the run
    /// (`ScenarioRun.notes`), printed after the block and in JSON only when there are some.
    public init(
        file: String, trace: Trace, engine: TrackingEngine, gpsOn: GPSOnTime, fenceCount: Int, notes: [RunNote] = []
    ) {
        self.file = file
        self.trace = trace
        self.engine = engine
        self.gpsOn = gpsOn
        self.fenceCount = fenceCount
        self.notes = notes
    }

    private var start: SimInstant { trace.fixes.first?.timestamp ?? SimInstant(nanosecondsSinceEpoch: 0) }
    private var end: SimInstant { trace.fixes.last?.timestamp ?? start }
    private var recorder: Recorder { engine.recorder }
    private var departure: SimInstant? { Metrics.departure(in: recorder) }

    private func offset(_ instant: SimInstant) -> Double { instant.seconds(since: start) }

    /// A labelled block for a terminal (`track --format text`).
    public var text: String {
        let span = end.seconds(since: start)
        let gpsOnSeconds = gpsOn.seconds(closingAt: end)
        var lines = [file]
        lines.append(
            row(
                "trace",
                "\(trace.fixes.count) fix\(trace.fixes.count == 1 ? "" : "es"), \(ISO8601.format(start, minimumFractionDigits: 0)) to "
                    + "\(ISO8601.format(end, minimumFractionDigits: 0)) (\(Formatting.duration(span)))"))
        lines.append(
            row(
                "fixes",
                "delivered \(recorder.deliveredFixCount) · accepted \(recorder.acceptedFixCount) · "
                    + "recorded \(recorder.recordedFixCount)"))
        let rejections = recorder.rejections.map { "\($0.reason.rawValue) \($0.count)" }
        lines.append(row("rejected", rejections.isEmpty ? "none" : rejections.joined(separator: " · ")))
        lines.append(row("distance", Formatting.fixed(engine.odometerMeters / 1000, 2) + " km"))
        let share = span > 0 ? Formatting.fixed(gpsOnSeconds / span * 100, 1) + " %" : "-"
        lines.append(
            row(
                "GPS on",
                "\(Formatting.duration(gpsOnSeconds)) of \(Formatting.duration(span)) (\(share)) in "
                    + "\(gpsOn.intervals.count) interval\(gpsOn.intervals.count == 1 ? "" : "s")"))
        let motion = recorder.motionTransitions.map { "\($0.state.rawValue) \(Formatting.clock(offset($0.time)))" }
        lines.append(row("motion", motion.isEmpty ? "no transitions" : motion.joined(separator: " · ")))
        // The engine may switch to moving on motion activity alone; the app departed only when a
        // fix was recorded while moving.
        lines.append(
            row(
                "departure",
                departure.map { Formatting.clock(offset($0)) + " (first fix recorded while moving)" }
                    ?? "none (no fix recorded while moving)"))
        if fenceCount > 0 {
            let events = recorder.geofenceEvents
            let counts = [GeofenceEvent.Action.enter, .exit, .dwell].map { action in
                "\(events.filter { $0.action == action }.count) \(action.rawValue)"
            }
            lines.append(row("geofences", "\(fenceCount) fences: " + counts.joined(separator: ", ")))
        }
        if let longest = recorder.gaps.max(by: { $0.seconds < $1.seconds }) {
            lines.append(
                row(
                    "gaps > \(Formatting.fixed(recorder.gapThresholdSeconds, 0)) s",
                    "\(recorder.gaps.count), longest \(Formatting.fixed(longest.seconds, 1)) s at \(Formatting.clock(offset(longest.from)))"
                ))
        } else {
            lines.append(row("gaps > \(Formatting.fixed(recorder.gapThresholdSeconds, 0)) s", "none"))
        }
        for note in notes {
            lines.append(
                "note: \(VisibleText.escapingControls(note.message)) "
                    + "(from +\(Formatting.fixed(offset(note.time), 1)) s)")
        }
        return lines.joined(separator: "\n")
    }

    /// The documented JSON object (`track --format json`).
    public var json: String { jsonValue.rendered }

    package var jsonValue: JSONText {
        var members: [(String, JSONText)] = [
            ("file", .string(file)),
            (
                "fixes",
                .object([
                    ("trace", .integer(trace.fixes.count)), ("delivered", .integer(recorder.deliveredFixCount)),
                    ("accepted", .integer(recorder.acceptedFixCount)),
                    ("recorded", .integer(recorder.recordedFixCount)),
                ])
            ),
            ("rejections", .object(recorder.rejections.map { ($0.reason.rawValue, .integer($0.count)) })),
            ("odometerMeters", .number(Formatting.rounded(engine.odometerMeters, 2))),
            ("gpsOnSeconds", .number(Formatting.rounded(gpsOn.seconds(closingAt: end), 3))),
            (
                "gpsIntervals",
                .array(
                    gpsOn.intervals.map {
                        .object([
                            ("startSeconds", .number(Formatting.rounded(offset($0.start), 3))),
                            ("endSeconds", .number(Formatting.rounded(offset($0.end ?? end), 3))),
                        ])
                    })
            ),
            (
                "motion",
                .array(
                    recorder.motionTransitions.map {
                        .object([
                            ("atSeconds", .number(Formatting.rounded(offset($0.time), 3))),
                            ("state", .string($0.state.rawValue)),
                        ])
                    })
            ),
            ("departureSeconds", departure.map { .number(Formatting.rounded(offset($0), 3)) } ?? .null),
            (
                "geofences",
                .array(
                    recorder.geofenceEvents.map {
                        .object([
                            ("identifier", .string($0.identifier)), ("action", .string($0.action.rawValue)),
                            ("atSeconds", .number(Formatting.rounded(offset($0.time), 3))),
                        ])
                    })
            ),
            (
                "gaps",
                .array(
                    recorder.gaps.map {
                        .object([
                            ("atSeconds", .number(Formatting.rounded(offset($0.from), 3))),
                            ("seconds", .number(Formatting.rounded($0.seconds, 3))),
                        ])
                    })
            ),
        ]
        if !notes.isEmpty {
            members.append(
                (
                    "notes",
                    .array(
                        notes.map {
                            .object([
                                ("message", .string($0.message)),
                                ("atSeconds", .number(Formatting.rounded(offset($0.time), 3))),
                            ])
                        })
                ))
        }
        return .object(members)
    }

    private func row(_ label: String, _ value: String) -> String {
        "  " + label + String(repeating: " ", count: max(1, 16 - label.count)) + value
    }
}
