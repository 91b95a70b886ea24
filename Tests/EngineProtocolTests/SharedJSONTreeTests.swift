import ConfigJSON
@testable import EngineProtocol
import Testing

/// A protocol line and a configuration file are read into the one JSON tree, so the same text
/// gives the same values, offsets and number digits whichever reader took it.
@Suite("One JSON tree for configuration and protocol")
struct SharedJSONTreeTests {
    @Test(
        "the same text reads into equal trees through both readers",
        arguments: [
            #"{"type":"hello","protocol":2,"capabilities":["cancel","replaceTimers"]}"#,
            #"[0, -0, 1.50, -2.25e2, 1E+2, 37.422131234567891, "é\u00e9", true, false, null, {}]"#,
            #"{"nested":{"deeper":[[1,2],[3,{"x":-122.08412345678901}]]}}"#,
        ])
    func sameTree(text: String) throws {
        let fromProtocol = try JSONValue.parse(protocolLine: Array(text.utf8))
        let fromConfiguration = try ConfigJSON.parse(Array(text.utf8), file: "same.json").value
        #expect(fromProtocol == fromConfiguration)
    }

    @Test("numbers keep their digits: a Float and a Double each read from what was written")
    func numberDigits() throws {
        let line = #"{"speed":13.100000381469727,"latitude":37.422131234567891,"big":1e999}"#
        let value = try JSONValue.parse(protocolLine: Array(line.utf8))
        guard case .number(let speed)? = value["speed"], case .number(let latitude)? = value["latitude"],
            case .number(let big)? = value["big"]
        else {
            Issue.record("numbers missing")
            return
        }
        #expect(speed.text == "13.100000381469727")
        #expect(Float(speed.text) == Float(13.1))
        #expect(latitude.double == 37.422131234567891)
        #expect(big.double == nil)

        let configuration = try ConfigJSON.parse(Array(#"{"latitude": 37.422131234567891}"#.utf8), file: "c.json")
        guard case .number(let read)? = configuration.value["latitude"] else {
            Issue.record("number missing")
            return
        }
        #expect(read.text == "37.422131234567891")
        #expect(read == latitude)
    }
}
