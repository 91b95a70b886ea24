/// Typed, path-aware reads from configuration JSON: an unknown key or a wrong value is an
/// error naming the file, line, column and JSON path.
///
/// Paths are taken as autoclosures: callers write `"\(path).radius"` as before, and the
/// string is built only when an error needs it, not for every value read.
public struct ConfigReader: Sendable {
    /// The file name errors carry.
    public let file: String

    /// Creates a reader for `file`.
    public init(file: String) { self.file = file }

    /// An error at `node`, naming the JSON path.
    public func fail(_ node: JSONNode, _ path: String, _ message: String) -> ConfigError {
        ConfigError(file: file, line: node.line, column: node.column, path: path, message: message)
    }

    /// An object's members by key; any key outside `allowed` is an error, and `nil` allows any
    /// key (formats with foreign members, such as GeoJSON). A key given twice is always an error.
    public func object(_ node: JSONNode, _ path: @autoclosure () -> String, allowed: [String]?)
        throws(ConfigError) -> [String:
        JSONNode]
    {
        guard case .object(let members) = node.value else { throw fail(node, path(), "expected an object") }
        var result = [String: JSONNode](minimumCapacity: members.count)
        for (key, value) in members {
            if let allowed, !allowed.contains(key) {
                throw fail(
                    value, "\(path()).\(key)", "unknown key (expected one of: \(allowed.joined(separator: ", ")))")
            }
            guard result[key] == nil else { throw fail(value, "\(path()).\(key)", "appears twice") }
            result[key] = value
        }
        return result
    }

    /// The elements of an array node.
    public func array(_ node: JSONNode, _ path: @autoclosure () -> String) throws(ConfigError)
        -> [JSONNode]
    {
        guard case .array(let elements) = node.value else { throw fail(node, path(), "expected an array") }
        return elements
    }

    /// The array under `key`, or empty when the key is absent.
    public func optionalArray(_ members: [String: JSONNode], _ key: String, _ path: @autoclosure () -> String)
        throws(ConfigError)
        -> [JSONNode]
    {
        guard let node = members[key] else { return [] }
        return try array(node, "\(path()).\(key)")
    }

    /// A string node's text.
    public func string(_ node: JSONNode, _ path: @autoclosure () -> String) throws(ConfigError) -> String {
        guard case .string(let text) = node.value else { throw fail(node, path(), "expected a string") }
        return text
    }

    /// A boolean node's value.
    public func bool(_ node: JSONNode, _ path: @autoclosure () -> String) throws(ConfigError) -> Bool {
        guard case .bool(let flag) = node.value else { throw fail(node, path(), "expected true or false") }
        return flag
    }

    /// A number within `range`.
    public func number(_ node: JSONNode, _ path: @autoclosure () -> String, in range: ClosedRange<Double>)
        throws(ConfigError)
        -> Double
    {
        guard case .number(let number) = node.value, let value = number.double else {
            throw fail(node, path(), "expected a number")
        }
        guard range.contains(value) else {
            throw fail(node, path(), "must be \(Self.describe(range)), not \(Self.text(value))")
        }
        return value
    }

    /// A range in words: "between 0 and 31536000", or "≥ 0" / "≤ 0" when one side is open.
    static func describe(_ range: ClosedRange<Double>) -> String {
        switch (range.lowerBound == -.greatestFiniteMagnitude, range.upperBound == .greatestFiniteMagnitude) {
        case (false, true): "≥ \(text(range.lowerBound))"
        case (true, false): "≤ \(text(range.upperBound))"
        case (true, true): "a finite number"
        case (false, false): "between \(text(range.lowerBound)) and \(text(range.upperBound))"
        }
    }

    /// A number as a person writes it: whole numbers without a fraction.
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// One of a fixed set of tokens.
    public func token<T>(_ node: JSONNode, _ path: @autoclosure () -> String, _ choices: [(String, T)])
        throws(ConfigError) -> T
    {
        let text = try string(node, path())
        // By index, so no (name, value) pair is copied to be compared.
        for index in choices.indices where choices[index].0 == text { return choices[index].1 }
        throw fail(node, path(), "'\(text)' is not one of: \(choices.map(\.0).joined(separator: ", "))")
    }

    /// The member under `key`; its absence is an error at `node`.
    public func required(
        _ members: [String: JSONNode], _ key: String, in node: JSONNode, _ path: @autoclosure () -> String
    )
        throws(ConfigError) -> JSONNode
    {
        guard let value = members[key] else { throw fail(node, path(), "missing required key '\(key)'") }
        return value
    }
}
