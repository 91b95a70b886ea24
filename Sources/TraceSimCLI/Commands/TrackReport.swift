import Engine
import Scenarios
import SimulationCore
import Traces

/// What `tracesim track` prints: the recorder's contents, with times as seconds from the
/// trace's first fix so runs of different traces line up.
struct TrackReport {
    let file: String
    let trace: Trace
    let engine: TrackingEngine
    let gpsOn: GPSOnTime
    let fenceCount: Int

    private var start: SimInstant { trace.fixes.first?.timestamp ?? SimInstant(nanosecondsSinceEpoch: 0) }
    private var end: SimInstant { trace.fixes.last?.timestamp ?? start }
    private var recorder: Recorder { engine.recorder }

    private func offset(_ instant: SimInstant) -> Double { instant.seconds(since: start) }

    var text: String {
        let span = end.seconds(since: start)
        let gpsOnSeconds = gpsOn.seconds(closingAt: end)
        var lines = [file]
        lines.append(
            row(
                "trace",
                "\(trace.fixes.count) fix\(trace.fixes.count == 1 ? "" : "es"), \(ISO8601.format(start, minimumFractionDigits: 0)) to "
                    + "\(ISO8601.format(end, minimumFractionDigits: 0)) (\(Self.duration(span)))"))
        lines.append(
            row(
                "fixes",
                "delivered \(recorder.deliveredFixCount) · accepted \(recorder.acceptedFixCount) · "
                    + "recorded \(recorder.recordedFixCount)"))
        let rejections = recorder.rejections.map { "\($0.reason.rawValue) \($0.count)" }
        lines.append(row("rejected", rejections.isEmpty ? "none" : rejections.joined(separator: " · ")))
        lines.append(row("distance", Self.fixed(engine.odometerMeters / 1000, 2) + " km"))
        let share = span > 0 ? Self.fixed(gpsOnSeconds / span * 100, 1) + " %" : "-"
        lines.append(
            row(
                "GPS on",
                "\(Self.duration(gpsOnSeconds)) of \(Self.duration(span)) (\(share)) in "
                    + "\(gpsOn.intervals.count) interval\(gpsOn.intervals.count == 1 ? "" : "s")"))
        let motion = recorder.motionTransitions.map { "\($0.state.rawValue) \(Self.clock(offset($0.time)))" }
        lines.append(row("motion", motion.isEmpty ? "no transitions" : motion.joined(separator: " · ")))
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
                    "gaps > \(Self.fixed(recorder.gapThresholdSeconds, 0)) s",
                    "\(recorder.gaps.count), longest \(Self.fixed(longest.seconds, 1)) s at \(Self.clock(offset(longest.from)))"
                ))
        } else {
            lines.append(row("gaps > \(Self.fixed(recorder.gapThresholdSeconds, 0)) s", "none"))
        }
        return lines.joined(separator: "\n")
    }

    var json: JSONText {
        .object([
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
            ("odometerMeters", .number(Self.rounded(engine.odometerMeters, 2))),
            ("gpsOnSeconds", .number(Self.rounded(gpsOn.seconds(closingAt: end), 3))),
            (
                "gpsIntervals",
                .array(
                    gpsOn.intervals.map {
                        .object([
                            ("startSeconds", .number(Self.rounded(offset($0.start), 3))),
                            ("endSeconds", .number(Self.rounded(offset($0.end ?? end), 3))),
                        ])
                    })
            ),
            (
                "motion",
                .array(
                    recorder.motionTransitions.map {
                        .object([
                            ("atSeconds", .number(Self.rounded(offset($0.time), 3))),
                            ("state", .string($0.state.rawValue)),
                        ])
                    })
            ),
            (
                "geofences",
                .array(
                    recorder.geofenceEvents.map {
                        .object([
                            ("identifier", .string($0.identifier)), ("action", .string($0.action.rawValue)),
                            ("atSeconds", .number(Self.rounded(offset($0.time), 3))),
                        ])
                    })
            ),
            (
                "gaps",
                .array(
                    recorder.gaps.map {
                        .object([
                            ("atSeconds", .number(Self.rounded(offset($0.from), 3))),
                            ("seconds", .number(Self.rounded($0.seconds, 3))),
                        ])
                    })
            ),
        ])
    }

    private func row(_ label: String, _ value: String) -> String {
        "  " + label + String(repeating: " ", count: max(1, 16 - label.count)) + value
    }

    /// `+h:mm:ss` from the first fix.
    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.down))
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        return "+\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes):" + (secs < 10 ? "0" : "") + "\(secs)"
    }

    /// `1 h 02 min`, `12 min 05 s` or `41 s`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        if total >= 3600 { return "\(total / 3600) h \(String(format2: total / 60 % 60)) min" }
        if total >= 60 { return "\(total / 60) min \(String(format2: total % 60)) s" }
        return "\(total) s"
    }

    /// Fixed decimals without Foundation's locale-dependent formatting.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale)
        var text = (value < 0 && scaled != 0 ? "-" : "") + String(whole)
        if digits > 0 {
            let fraction = String(scaled % Int64(scale))
            text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        return text
    }

    static func rounded(_ value: Double, _ digits: Int) -> Double {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}

extension String {
    /// Two digits, zero-padded.
    fileprivate init(format2 value: Int) { self = (value < 10 ? "0" : "") + String(value) }
}
