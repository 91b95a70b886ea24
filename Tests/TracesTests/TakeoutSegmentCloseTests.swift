import SimulationCore
import TestSupport
import Testing
import Traces

/// Issue 31: a Takeout activity segment ends at its `endTimestamp`, so a drive no longer holds
/// until the next timeline object, up to half a day later.
@Suite("Takeout activity segments close at their end")
struct TakeoutSegmentCloseTests {
    private func read(_ json: String) throws(TraceFormatError) -> Trace {
        try TraceImporter.read(Array(json.utf8), name: "timeline.json")
    }

    /// One raw point, so the file has a fix.
    private let point =
        #""simplifiedRawPath":{"points":[{"latE7":374268570,"lngE7":-1221441574,"#
        + #""timestamp":"2013-06-01T16:10:00Z"}]}"#

    private func segment(start: String, end: String?, type: String = "IN_VEHICLE") -> String {
        let endMember = end.map { #","endTimestamp":"\#($0)""# } ?? ""
        return #"{"activitySegment":{"duration":{"startTimestamp":"\#(start)"\#(endMember)},"#
            + #""activityType":"\#(type)",\#(point)}}"#
    }

    private func visit(start: String) -> String {
        #"{"placeVisit":{"duration":{"startTimestamp":"\#(start)"}}}"#
    }

    private func timeline(_ objects: String...) -> String {
        #"{"timelineObjects":["# + objects.joined(separator: ",") + "]}"
    }

    @Test("2013_JUNE.json: 74 of its 167 activity segments end before anything else starts and get a close")
    func bundledExport() throws {
        let trace = try TraceImporter.load(path: Repository.trace("gpsbabel/2013_JUNE.json"))
        #expect(trace.motionSamples.count == 301)
        // 60 visits and 74 closes; 31 of the visits are low-confidence too.
        #expect(trace.motionSamples.filter { $0.activity == .stationary }.count == 134)
        #expect(trace.motionSamples.filter { $0.activity == .stationary && $0.confidence == .low }.count == 105)
        // The first close: the drive that began at 17:56:06 ended at 18:07:39, and the next
        // object starts 90 s later.
        let close = try #require(
            trace.motionSamples.firstIndex { ISO8601.format($0.timestamp) == "2013-06-01T18:07:39.703Z" })
        #expect(trace.motionSamples[close].activity == .stationary)
        #expect(trace.motionSamples[close].confidence == .low)
        #expect(trace.motionSamples[close].isCoarse)
        #expect(ISO8601.format(trace.motionSamples[close - 1].timestamp) == "2013-06-01T17:56:06.456Z")
        #expect(trace.motionSamples[close + 1].timestamp.seconds(since: trace.motionSamples[close].timestamp) == 90.148)
    }

    @Test("A segment followed by a gap gets a low-confidence stationary sample at its end")
    func gapAfterSegment() throws {
        let trace = try read(
            timeline(
                segment(start: "2013-06-01T16:00:00Z", end: "2013-06-01T16:20:00Z"),
                visit(start: "2013-06-01T20:00:00Z")))
        #expect(trace.motionSamples.map(\.activity) == [.automotive, .stationary, .stationary])
        #expect(ISO8601.format(trace.motionSamples[1].timestamp) == "2013-06-01T16:20:00.000Z")
        #expect(trace.motionSamples[1].confidence == .low)
    }

    @Test("A segment the next object starts at its end, or before, gets no close")
    func adjoiningObjects() throws {
        let adjoining = try read(
            timeline(
                segment(start: "2013-06-01T16:00:00Z", end: "2013-06-01T16:20:00Z"),
                segment(start: "2013-06-01T16:20:00Z", end: "2013-06-01T16:30:00Z", type: "WALKING"),
                visit(start: "2013-06-01T16:30:00Z")))
        #expect(adjoining.motionSamples.map(\.activity) == [.automotive, .walking, .stationary])
        let overlapping = try read(
            timeline(
                segment(start: "2013-06-01T16:00:00Z", end: "2013-06-01T16:40:00Z"),
                segment(start: "2013-06-01T16:20:00Z", end: "2013-06-01T16:30:00Z", type: "WALKING")))
        // The first segment's end falls after the second starts: closing it would overrule the
        // walk; the walk, which nothing follows, is closed.
        #expect(overlapping.motionSamples.map(\.activity) == [.automotive, .walking, .stationary])
        #expect(ISO8601.format(overlapping.motionSamples[2].timestamp) == "2013-06-01T16:30:00.000Z")
    }

    @Test("A segment without an end gets no close: nothing is invented")
    func missingEnd() throws {
        let trace = try read(timeline(segment(start: "2013-06-01T16:00:00Z", end: nil)))
        #expect(trace.motionSamples.map(\.activity) == [.automotive])
        let nullEnd = try read(
            timeline(
                #"{"activitySegment":{"duration":{"startTimestamp":"2013-06-01T16:00:00Z","endTimestamp":null},"#
                    + #""activityType":"WALKING",\#(point)}}"#))
        #expect(nullEnd.motionSamples.map(\.activity) == [.walking])
    }

    @Test("endTimestampMs closes a segment of an older export")
    func millisecondEnd() throws {
        let json = timeline(
            #"{"activitySegment":{"duration":{"startTimestampMs":"1370102400000","endTimestampMs":"1370103600000"},"#
                + #""activityType":"WALKING",\#(point)}}"#)
        let trace = try read(json)
        #expect(trace.motionSamples.map(\.activity) == [.walking, .stationary])
        #expect(ISO8601.format(trace.motionSamples[1].timestamp) == "2013-06-01T16:20:00.000Z")
    }

    @Test("A segment that ends before it starts is an error naming the line, column and field")
    func endBeforeStart() throws {
        let json = timeline(segment(start: "2013-06-01T16:20:00Z", end: "2013-06-01T16:00:00Z"))
        let error = try #require(throws: TraceFormatError.self) { try read(json) }
        #expect(error.file == "timeline.json")
        #expect(error.line == 1)
        // The column of the end's value.
        let valueColumn = try #require(json.utf8.firstRange(of: Array(#""2013-06-01T16:00:00Z""#.utf8)))
        #expect(error.column == json.utf8.distance(from: json.utf8.startIndex, to: valueColumn.lowerBound) + 1)
        #expect(error.problem == .unexpectedContent("activity segment's endTimestamp is before its start"))
    }

    @Test("A malformed or wrong-typed end is an error, not a silent close", arguments: [#""yesterday""#, "[1]", "true"])
    func malformedEnd(value: String) {
        let json = timeline(
            #"{"activitySegment":{"duration":{"startTimestamp":"2013-06-01T16:00:00Z","endTimestamp":\#(value)},"#
                + #""activityType":"WALKING",\#(point)}}"#)
        #expect(throws: TraceFormatError.self) { try read(json) }
    }
}
