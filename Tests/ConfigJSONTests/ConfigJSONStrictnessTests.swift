import Testing

import ConfigJSON

/// RFC 8259 numbers and messages for configuration JSON, read by the same scanner as trace JSON.
@Suite("configuration JSON strictness")
struct ConfigJSONStrictnessTests {
    private func configError(_ text: String) -> String? {
        do {
            _ = try ConfigJSON.parse(Array(text.utf8), file: "c.json")
            return nil
        } catch {
            return error.description
        }
    }

    @Test(
        "configuration numbers RFC 8259 refuses are errors naming their JSON path",
        arguments: [
            (#"{"seed": 01}"#, "c.json:1:10: $.seed: invalid JSON: a number has a leading zero (RFC 8259 forbids them)"),
            (#"{"a": [1, -00]}"#, "c.json:1:11: $.a[1]: invalid JSON: a number has a leading zero (RFC 8259 forbids them)"),
            (#"{"a": {"b": 1.}}"#, "c.json:1:13: $.a.b: invalid JSON: a number needs a digit after '.' (RFC 8259)"),
            (#"{"a": 1e}"#, "c.json:1:7: $.a: invalid JSON: a number's exponent needs a digit"),
            (#"{"a": -}"#, "c.json:1:7: $.a: invalid JSON: a number needs a digit after '-'"),
            (#"{"a": 1.2.3}"#, "c.json:1:7: $.a: invalid JSON: invalid number"),
            (#"{"a": .5}"#, "c.json:1:7: invalid JSON: expected a value, found '.'"),
            (#"{"a": +1}"#, "c.json:1:7: invalid JSON: expected a value, found '+'"),
        ])
    func configurationNumbers(text: String, expected: String) {
        #expect(configError(text) == expected)
    }

    @Test("a configuration number beyond a double's range names its path")
    func configurationOverflow() {
        #expect(
            configError("{\"name\": \"s\",\n \"seed\": 1e999}") == "c.json:2:10: $.seed: not a finite number (beyond the range of a double)"
        )
    }

    @Test("numbers RFC 8259 allows still parse, exactly")
    func allowedNumbers() throws {
        let node = try ConfigJSON.parse(Array(#"[0, -0, 10, 1.5, -2.25e2, 1E+2, 0.001]"#.utf8), file: "c.json")
        guard case .array(let values) = node.value else {
            Issue.record("not an array")
            return
        }
        let numbers = values.map { node -> JSONNumber? in if case .number(let number) = node.value { number } else { nil } }
        #expect(numbers.map { $0?.text } == ["0", "-0", "10", "1.5", "-2.25e2", "1E+2", "0.001"])
        #expect(numbers.map { $0?.double } == [0, -0.0, 10, 1.5, -225, 100, 0.001])
        #expect(numbers.map { $0?.double?.sign } == [.plus, .minus, .plus, .plus, .minus, .plus, .plus])
    }

    @Test("a file that is not JSON says so instead of 'number is not a number'")
    func notJSON() {
        #expect(configError("root:x:0:0:root:/root:/bin/bash\n") == "c.json:1:1: not JSON: expected an object or array, found 'r'")
        #expect(configError("  5") == "c.json:1:3: not JSON: expected an object or array, found '5'")
        #expect(configError(#"{"a": x}"#) == "c.json:1:7: invalid JSON: expected a value, found 'x'")
    }

    @Test("line and column are counted on demand, after a byte-order mark and across lines")
    func locations() throws {
        let node = try ConfigJSON.parse([0xEF, 0xBB, 0xBF] + Array("{\n  \"a\": [1,\n    true]}".utf8), file: "c.json")
        #expect((node.line, node.column) == (1, 1))
        guard case .object(let members) = node.value, case .array(let elements) = members[0].value.value else {
            Issue.record("unexpected shape")
            return
        }
        #expect((members[0].value.line, members[0].value.column) == (2, 8))
        #expect((elements[1].line, elements[1].column) == (3, 5))
    }
}
