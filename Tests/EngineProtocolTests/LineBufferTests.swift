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

    @Test("a 16 MB line in 4 KB pieces is searched once, not again with every piece")
    func longLineIsLinear() {
        let piece = ArraySlice([UInt8](repeating: UInt8(ascii: "x"), count: 4_096))
        var buffer = LineBuffer()
        var found = 0
        for _ in 0..<4_096 {
            buffer.append(piece)
            if buffer.nextLine() != nil { found += 1 }
        }
        buffer.append([0x0A])
        if let line = buffer.nextLine() { found += line.count }
        #expect(found == 16 << 20)
        #expect(buffer.pendingCount == 0)
        // Each byte once, the newline included: searching the partial line again after every
        // piece would search 2,048 times as many.
        #expect(buffer.bytesSearched == (16 << 20) + 1)
    }

    @Test("lines that arrive together are searched once each")
    func manyLinesSearchedOnce() {
        var buffer = LineBuffer()
        let text = Array(String(repeating: "{\"type\":\"done\"}\n", count: 1_000).utf8)
        var lines = 0
        // Pieces of 7 bytes: lines end in the middle of pieces and span several.
        for start in stride(from: 0, to: text.count, by: 7) {
            buffer.append(text[start..<min(start + 7, text.count)])
            while buffer.nextLine() != nil { lines += 1 }
        }
        #expect(lines == 1_000)
        #expect(buffer.bytesSearched == text.count)
    }
}
