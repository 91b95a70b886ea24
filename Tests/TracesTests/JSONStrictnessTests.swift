import Testing

@testable import Traces

/// RFC 8259 numbers, duplicate keys and messages for trace JSON (configuration JSON's are in
/// ConfigJSONTests).
@Suite("JSON strictness")
struct JSONStrictnessTests {
    private func traceError(_ text: String, name: String = "t.jsonl") -> String? {
        do {
            _ = try TraceImporter.read(Array(text.utf8), name: name)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("a JSON Lines key given twice is refused at the second")
    func jsonLinesDuplicateKey() {
        #expect(
            traceError("{\"time\":\"2020-01-01T00:00:00Z\",\"lat\":1,\"lat\":50,\"lon\":3}\n")
                == "t.jsonl:1:40: key 'lat' appears twice")
        #expect(
            traceError(
                "{\"time\":\"2020-01-01T00:00:00Z\",\"activity\":[\"walking\"],\"coarse\":true,\"coarse\":false}\n")
                == "t.jsonl:1:69: key 'coarse' appears twice")
    }

    @Test(
        "trace JSON numbers RFC 8259 refuses are errors",
        arguments: [
            (
                "{\"time\":\"2020-01-01T00:00:00Z\",\"lat\":01,\"lon\":3}\n",
                "t.jsonl:1:38: invalid JSON: a number has a leading zero (RFC 8259 forbids them)"
            ),
            (
                "{\"time\":\"2020-01-01T00:00:00Z\",\"lat\":1.,\"lon\":3}\n",
                "t.jsonl:1:38: invalid JSON: a number needs a digit after '.' (RFC 8259)"
            ),
        ])
    func traceNumbers(text: String, expected: String) {
        #expect(traceError(text) == expected)
    }
}
