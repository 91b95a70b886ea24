import Testing
import Traces

/// Closes a mutation-testing gap: no other test had a lowercase checksum, so refusing `a`–`f`
/// went unnoticed.
@Suite("NMEA checksum case")
struct NMEAChecksumCaseTests {
    @Test("a checksum in lowercase hex is accepted like its uppercase spelling")
    func lowercaseChecksum() throws {
        // Vary the speed until a checksum digit is a letter.
        let body = try #require(
            (0..<1000).lazy.map { "GPRMC,123519.00,A,4807.038,N,01131.000,E,\($0).4,084.4,230394,003.1,W,A" }
                .first { body in
                    let hex = nmea(body).suffix(2)
                    return hex.contains { ("A"..."F").contains($0) }
                })
        let upper = nmea(body)
        let lower = String(upper.dropLast(2)) + upper.suffix(2).lowercased()
        #expect(lower != upper)
        let trace = try importText(lower)
        #expect(trace.fixes.count == 1)
        #expect(trace.diagnostics.skipped[.badChecksum] == nil)
        #expect(trace.fixes == (try importText(upper)).fixes)
    }
}
