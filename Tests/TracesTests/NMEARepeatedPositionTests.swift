import Testing
import Traces

/// Position sentences of one type repeating a time of day with another place are records of
/// their own, so they are counted (merged) or found to be an untimed run, never dropped.
@Suite("NMEA position sentences that repeat a time")
struct NMEARepeatedPositionTests {
    static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        let hex = String(checksum, radix: 16, uppercase: true)
        return "$\(body)*\(hex.count == 1 ? "0" + hex : hex)"
    }

    /// `count` RMC sentences at 00:00:00 on 1980-01-01, `step` minutes of latitude apart.
    static func log(count: Int, step: Double) -> String {
        (0..<count).map { index in
            let minutes = 7.0 + Double(index) * step
            let latitude = "48" + String(format: "%07.4f", minutes)
            return sentence("GPRMC,000000.00,A,\(latitude),N,01131.0000,E,0.0,0.0,010180,,,A")
        }.joined(separator: "\n") + "\n"
    }

    static func read(_ text: String) throws -> Trace {
        try TraceImporter.read(Array(text.utf8), name: "log.nmea")
    }

    @Test("thirty sentences at one placeholder time half a kilometre apart are an untimed run")
    func placeholderTimes() throws {
        let trace = try Self.read(Self.log(count: 30, step: 0.3))
        #expect(trace.fixes.isEmpty)
        #expect(trace.diagnostics.untimedRuns.records == 30)
        #expect(trace.diagnostics.untimedRuns.runs.firstLines == [1])
    }

    @Test("five such sentences are one fix and four merged records, each counted")
    func fewRepeats() throws {
        let trace = try Self.read(Self.log(count: 5, step: 0.3))
        #expect(trace.fixes.count == 1)
        #expect(trace.diagnostics.merged.count == 4)
        #expect(trace.diagnostics.merged.firstLines == [2, 3, 4, 5])
    }

    @Test("the same sentence repeated word for word stays one record")
    func identicalRepeats() throws {
        let trace = try Self.read(Self.log(count: 12, step: 0))
        #expect(trace.fixes.count == 1)
        #expect(trace.diagnostics.merged.count == 0)
        #expect(trace.diagnostics.untimedRuns.records == 0)
    }

    @Test("a 10 Hz log with whole-second times moving fast is merged per second, not untimed")
    func coarseClock() throws {
        let text =
            (0..<60).map { index in
                let second = String(format: "%02d", index / 10)
                let latitude = "48" + String(format: "%07.4f", 7.0 + Double(index) * 0.0108)
                return Self.sentence("GPRMC,1200\(second),A,\(latitude),N,01131.0000,E,400.0,0.0,010124,,,A")
            }.joined(separator: "\n") + "\n"
        let trace = try Self.read(text)
        #expect(trace.fixes.count == 6)
        #expect(trace.diagnostics.merged.count == 54)
        #expect(trace.diagnostics.untimedRuns.records == 0)
    }
}
