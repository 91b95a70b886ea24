import ConfigJSON
import Testing

/// Every way a configuration file can be wrong comes back as one `ConfigError` that says where:
/// the file, and the line, column and JSON path when the problem has them.
@Suite("configuration errors")
struct ConfigErrorTests {
    private func refusal(_ bytes: [UInt8], file: String = "s.json") -> ConfigError? {
        do {
            _ = try ConfigJSON.parse(bytes, file: file)
            return nil
        } catch {
            return error
        }
    }

    private func refusal(_ text: String, file: String = "s.json") -> ConfigError? { refusal(Array(text.utf8), file: file) }

    @Test("malformed JSON names the file, line and column of the first bad byte")
    func malformed() throws {
        let error = try #require(refusal("{\n  \"name\": \"a\",\n  \"seed\" 1\n}"))
        #expect(error.file == "s.json")
        #expect(error.line == 3)
        #expect(error.column == 10)
        #expect(error.path == "$")  // the object whose member broke
        #expect(error.kind == .syntax)
        // The line and column say where; the path is for a program, not printed.
        #expect(error.description == "s.json:3:10: invalid JSON: expected ':'")
    }

    @Test("a truncated file says it ends early, at the end")
    func truncated() throws {
        let error = try #require(refusal("{\"timeline\": [1, 2,"))
        #expect((error.line, error.column) == (1, 20))
        #expect(error.path == "$.timeline[2]")  // the element that never came
        #expect(error.kind == .syntax)
        #expect(error.description.hasPrefix("s.json:1:20: file ends early"))
    }

    @Test("an empty or blank file is refused by name", arguments: ["", "  \n\t\r\n"])
    func empty(text: String) throws {
        let error = try #require(refusal(text))
        #expect(error == ConfigError(file: "s.json", path: "$", kind: .syntax, message: "the file is empty"))
        #expect(error.description == "s.json: the file is empty")
    }

    @Test("hostile input: deep nesting fails with an error, not a crash")
    func deepNesting() throws {
        let error = try #require(refusal(String(repeating: "[", count: 100_000)))
        #expect((error.line, error.column) == (1, 65))
        #expect(error.path == "$" + String(repeating: "[0]", count: 64))
        #expect(error.description == "s.json:1:65: nested deeper than 64 levels")
    }

    @Test("hostile input: a NUL byte is located")
    func nulByte() throws {
        let error = try #require(refusal(Array("{\"a\":\n 1".utf8) + [0] + Array("}".utf8)))
        #expect((error.line, error.column) == (2, 3))
        #expect(error.path == "$")
        #expect(error.description == "s.json:2:3: NUL byte in a text format (is this a binary file?)")
    }

    @Test("another format (a GPX file given as a scenario) says it is not JSON")
    func wrongFormat() throws {
        let error = try #require(refusal("<?xml version=\"1.0\"?>\n<gpx/>", file: "walk.gpx"))
        #expect(error.file == "walk.gpx")
        #expect((error.line, error.column) == (1, 1))
        #expect(error.path == "$")
        #expect(error.kind == .syntax)
        #expect(error.description == "walk.gpx:1:1: not JSON: expected an object or array, found '<'")
    }

    @Test("a number that cannot be read names its JSON path")
    func numberPath() throws {
        let error = try #require(refusal("{\"timeline\": [{\"at\": 1}, {\"at\": 1e400}]}"))
        #expect(error.path == "$.timeline[1].at")
        #expect(error.kind == .value)
        #expect((error.line, error.column) == (1, 33))
        #expect(error.description == "s.json:1:33: $.timeline[1].at: not a finite number (beyond the range of a double)")
    }

    @Test("a reader's refusal names the file, line, column and JSON path of the value")
    func readerPath() throws {
        let root = try ConfigJSON.parse(Array("{\n  \"seed\": \"x\"\n}".utf8), file: "s.json")
        let reader = ConfigReader(file: "s.json")
        let members = try reader.object(root, "$", allowed: ["seed"])
        let seed = try #require(members["seed"])
        var caught: ConfigError?
        do {
            _ = try reader.number(seed, "$.seed", in: 0...1)
        } catch {
            caught = error
        }
        let error = try #require(caught)
        #expect(error == ConfigError(file: "s.json", line: 2, column: 11, path: "$.seed", message: "expected a number"))
        #expect(error.description == "s.json:2:11: $.seed: expected a number")
    }

    @Test("an unknown key is refused at its value with the keys allowed")
    func unknownKey() throws {
        let root = try ConfigJSON.parse(Array("{\"sed\": 1}".utf8), file: "s.json")
        #expect(
            throws: ConfigError(file: "s.json", line: 1, column: 9, path: "$.sed", message: "unknown key (expected one of: seed, name)")
        ) {
            try ConfigReader(file: "s.json").object(root, "$", allowed: ["seed", "name"])
        }
    }
}
