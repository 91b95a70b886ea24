@testable import EngineProtocol
import Testing

/// Lines read from a pipe in pieces, in time linear in the bytes.
@Suite("Line buffer")
struct LineBufferTests {
    @Test("lines come out whole, whatever the pieces they arrive in")
    func linesAcrossChunks() {
        var buffer = LineBuffer()
        var lines: [String] = []
        for chunk in ["{\"a\"", ":1}\n{\"b\":2}\n{", "\"c\":3}", "\n", "tail"] {
            buffer.append(ArraySlice(chunk.utf8))
            while let line = buffer.nextLine() { lines.append(String(decoding: line, as: UTF8.self)) }
        }
        #expect(lines == [#"{"a":1}"#, #"{"b":2}"#, #"{"c":3}"#])
        #expect(buffer.pendingCount == 4)
    }

    @Test("a 64 MB line in 4 KB pieces is read in one pass (searching it again per piece took minutes)")
    func longLineIsLinear() {
        let piece = ArraySlice([UInt8](repeating: UInt8(ascii: "x"), count: 4_096))
        let clock = ContinuousClock()
        var buffer = LineBuffer()
        var found = 0
        let elapsed = clock.measure {
            for _ in 0..<16_384 {
                buffer.append(piece)
                if buffer.nextLine() != nil { found += 1 }
            }
            buffer.append([0x0A])
            if let line = buffer.nextLine() { found += line.count }
        }
        #expect(found == 64 << 20)
        #expect(buffer.pendingCount == 0)
        #expect(elapsed < .seconds(10), "\(elapsed)")
    }
}
