import SimulationCore
import Testing
import Traces

@Suite("TraceSim CSV and JSON Lines rules")
struct CanonicalFormatTests {
    @Test("columns may come in any order; empty cells are absent, not zero")
    func columnOrder() throws {
        let trace = try importText("lon,time,speed_mps,lat\n-122.5,2020-01-01T00:00:00Z,,37.25\n")
        let fix = try #require(trace.fixes.first)
        #expect(fix.latitude == 37.25)
        #expect(fix.longitude == -122.5)
        #expect(fix.speedMetersPerSecond == nil)
        #expect(fix.provider == .unknown)
    }

    @Test("an unknown column is an error naming it, with a line and column")
    func unknownColumn() throws {
        let error = try #require(formatError("time,lat,lon,speed_kmh\n2020-01-01T00:00:00Z,1,2,3\n"))
        #expect(error.problem == .unknownColumn("speed_kmh"))
        #expect(error.line == 1)
        #expect(error.column == 14)
    }

    @Test("a repeated column and a missing required column are errors")
    func headerErrors() throws {
        #expect(formatError("time,lat,lon,lat\n", format: .canonicalCSV)?.problem == .duplicateColumn("lat"))
        #expect(
            formatError("time,lat,alt_m\n2020-01-01T00:00:00Z,1,2\n", format: .canonicalCSV)?.problem
                == .missingColumn("lon"))
    }

    @Test("a fix carries one horizontal accuracy: h_acc_m and hdop together are an error")
    func exclusiveAccuracy() throws {
        let error = try #require(formatError("time,lat,lon,h_acc_m,hdop\n2020-01-01T00:00:00Z,1,2,3,4\n"))
        #expect(error.line == 2)
        guard case .unexpectedContent = error.problem else {
            Issue.record("unexpected \(error.problem)")
            return
        }
    }

    @Test("a row with too few cells is an error; an untimed row is counted")
    func rows() throws {
        #expect(formatError("time,lat,lon\n2020-01-01T00:00:00Z,1\n")?.problem == .wrongFieldCount(expected: "3", found: 2))
        let trace = try importText("time,lat,lon\n,1,2\n2020-01-01T00:00:00Z,1,2\n")
        #expect(trace.fixes.count == 1)
        #expect(trace.diagnostics.untimed.firstLines == [2])
    }

    @Test("an unknown provider token is an error")
    func provider() throws {
        #expect(
            formatError("time,lat,lon,provider\n2020-01-01T00:00:00Z,1,2,satellite\n")?.problem
                == .unknownToken(field: "provider", token: "satellite"))
    }

    @Test("JSON Lines: unknown keys are errors; motion lines become samples")
    func jsonLines() throws {
        let error = try #require(formatError(#"{"time":"2020-01-01T00:00:00Z","lat":1,"lon":2,"speed":3}"#))
        #expect(error.problem == .unknownColumn("speed"))
        #expect(error.column == 49)
        let trace = try importText(
            """
            {"time":"2020-01-01T00:00:00Z","lat":1,"lon":2}

            {"time":"2020-01-01T00:00:00.5Z","activity":["automotive","stationary"],"confidence":"high","coarse":false}
            """)
        #expect(trace.fixes.count == 1)
        #expect(
            trace.motionSamples == [
                MotionSample(
                    timestamp: try #require(trace.fixes.first?.timestamp).advanced(byNanoseconds: 500_000_000),
                    activity: [.automotive, .stationary], confidence: .high)
            ])
    }

    @Test("JSON Lines: a timestamp must be an ISO-8601 string and numbers must be numbers")
    func jsonLinesTypes() throws {
        #expect(formatError(#"{"time":1577836800,"lat":1,"lon":2}"#)?.problem == .invalidTimestamp(field: "time"))
        #expect(formatError(#"{"time":"2020-01-01T00:00:00Z","lat":"1","lon":2}"#)?.problem == .invalidNumber(field: "lat"))
        #expect(
            formatError(#"{"time":"2020-01-01T00:00:00Z","lat":1,"lon":2} trailing"#)?.problem
                == .invalidJSON("unexpected content after the JSON value"))
    }

    @Test("deeply nested JSON fails with an error instead of exhausting the stack")
    func deepNesting() throws {
        let text = #"{"timelineObjects":[{"placeVisit":{"x":"# + String(repeating: "[", count: 100_000)
        #expect(formatError(text)?.problem == .nestingTooDeep(limit: 64))
    }
}
