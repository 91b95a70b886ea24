import ConfigJSON
import Device
import SimulationCore
import Traces

/// Why a protocol message cannot be read: the wording only, the caller adds the line.
package struct ProtocolMessageError: Error, Sendable, Equatable {
    package var message: String
    package init(_ message: String) { self.message = message }
}

extension JSONValue {
    /// A line as a protocol message, for both sides of the protocol: a JSON object and its
    /// string `type`.
    package static func message(_ line: ArraySlice<UInt8>) throws(ProtocolMessageError) -> (JSONValue, String) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(protocolLine: line)
        } catch {
            throw ProtocolMessageError("not JSON (\(error.message) at byte \(error.offset + 1))")
        }
        guard case .string(let type)? = value["type"] else {
            throw ProtocolMessageError("a message is a JSON object with a string \"type\"")
        }
        return (value, type)
    }
}

/// The members of one message object, read by name with a clear error for each mistake;
/// `finish` rejects members nobody read (a misspelt option must not be silently ignored).
package struct MessageFields {
    private let members: [(key: String, value: JSONNode)]
    private var read: [String] = []
    /// How errors name the message, e.g. `request startMonitoring`.
    package let context: String

    package init(_ value: JSONValue, context: String) throws(ProtocolMessageError) {
        guard case .object(let members) = value else { throw ProtocolMessageError("\(context): not a JSON object") }
        self.members = members
        self.context = context
    }

    private mutating func value(_ key: String) -> JSONValue? {
        read.append(key)
        return members.first { $0.key == key }?.value.value
    }

    private func fail(_ key: String, _ expected: String) -> ProtocolMessageError {
        ProtocolMessageError("\(context): \"\(key)\" must be \(expected)")
    }

    private func missing(_ key: String) -> ProtocolMessageError {
        ProtocolMessageError("\(context): \"\(key)\" is missing")
    }

    package mutating func has(_ key: String) -> Bool {
        value(key).map { $0 != .null } ?? false
    }

    package mutating func optionalString(_ key: String) throws(ProtocolMessageError) -> String? {
        switch value(key) {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw fail(key, "a string")
        }
    }

    package mutating func string(_ key: String) throws(ProtocolMessageError) -> String {
        guard let text = try optionalString(key) else { throw missing(key) }
        return text
    }

    package mutating func optionalBool(_ key: String) throws(ProtocolMessageError) -> Bool? {
        switch value(key) {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        default: throw fail(key, "true or false")
        }
    }

    package mutating func bool(_ key: String) throws(ProtocolMessageError) -> Bool {
        guard let flag = try optionalBool(key) else { throw missing(key) }
        return flag
    }

    package mutating func optionalDouble(_ key: String) throws(ProtocolMessageError) -> Double? {
        switch value(key) {
        case nil, .null?: return nil
        case .number(let number)?:
            guard let number = Double(number.text), number.isFinite else { throw fail(key, "a finite number") }
            return number
        default: throw fail(key, "a number")
        }
    }

    package mutating func double(_ key: String) throws(ProtocolMessageError) -> Double {
        guard let number = try optionalDouble(key) else { throw missing(key) }
        return number
    }

    package mutating func optionalFloat(_ key: String) throws(ProtocolMessageError) -> Float? {
        switch value(key) {
        case nil, .null?: return nil
        case .number(let number)?:
            guard let number = Float(number.text), number.isFinite else {
                throw fail(key, "a number within the range of a 32-bit float")
            }
            return number
        default: throw fail(key, "a number")
        }
    }

    package mutating func optionalInteger(_ key: String) throws(ProtocolMessageError) -> Int64? {
        switch value(key) {
        case nil, .null?: return nil
        case .number(let number)?:
            guard let number = Int64(number.text) else { throw fail(key, "a whole number (64-bit)") }
            return number
        default: throw fail(key, "a whole number")
        }
    }

    package mutating func integer(_ key: String) throws(ProtocolMessageError) -> Int64 {
        guard let number = try optionalInteger(key) else { throw missing(key) }
        return number
    }

    package mutating func unsigned(_ key: String) throws(ProtocolMessageError) -> UInt64 {
        switch value(key) {
        case nil, .null?: throw missing(key)
        case .number(let number)?:
            guard let number = UInt64(number.text) else { throw fail(key, "a whole number from 0 to 2^64-1") }
            return number
        default: throw fail(key, "a whole number")
        }
    }

    /// An instant: integer nanoseconds since 1970-01-01T00:00:00Z.
    package mutating func instant(_ key: String) throws(ProtocolMessageError) -> SimInstant {
        SimInstant(nanosecondsSinceEpoch: try integer(key))
    }

    package mutating func optionalInstant(_ key: String) throws(ProtocolMessageError) -> SimInstant? {
        try optionalInteger(key).map(SimInstant.init(nanosecondsSinceEpoch:))
    }

    /// One of `names`, mapped to its value.
    package mutating func token<Value>(_ key: String, _ names: [(String, Value)]) throws(ProtocolMessageError) -> Value
    {
        let text = try string(key)
        guard let match = names.first(where: { $0.0 == text }) else {
            throw ProtocolMessageError(
                "\(context): \"\(key)\" is '\(text)', not one of \(names.map { $0.0 }.joined(separator: ", "))")
        }
        return match.1
    }

    package mutating func array(_ key: String) throws(ProtocolMessageError) -> [JSONNode] {
        switch value(key) {
        case nil, .null?: throw missing(key)
        case .array(let elements)?: return elements
        default: throw fail(key, "an array")
        }
    }

    package mutating func object(_ key: String) throws(ProtocolMessageError) -> JSONValue {
        switch value(key) {
        case nil, .null?: throw missing(key)
        case let object? where { if case .object = object { true } else { false } }(): return object
        default: throw fail(key, "an object")
        }
    }

    /// Fails on the first member that was not read.
    package func finish() throws(ProtocolMessageError) {
        if let unknown = members.first(where: { !read.contains($0.key) }) {
            throw ProtocolMessageError("\(context): unknown member \"\(unknown.key)\"")
        }
    }
}
