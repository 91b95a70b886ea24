/// Column positions read from a CSV header, so readers find fields by name, not by position.
struct ColumnMap {
    private var positions: [String: Int] = [:]
    /// The header's names in order.
    private(set) var names: [String] = []

    /// Reads a header line.
    /// - Parameter known: when given, a name outside it is an error (canonical formats are strict).
    init(
        source: TextSource, line: TextLine, splitter: inout FieldSplitter, known: Set<String>? = nil
    ) throws(TraceFormatError) {
        splitter.split(source.bytes, line.start, line.end, separator: UInt8(ascii: ","))
        for index in 0..<splitter.count {
            let (start, end) = splitter.trimmed(index, in: source.bytes)
            let name = source.string(start, end)
            if let known, !known.contains(name) {
                throw source.error(line: line.number, column: start - line.start + 1, .unknownColumn(name))
            }
            guard positions[name] == nil else {
                throw source.error(line: line.number, column: start - line.start + 1, .duplicateColumn(name))
            }
            positions[name] = index
            names.append(name)
        }
    }

    /// A map for a layout known in advance rather than read from a header.
    init(names: [String]) {
        for (index, name) in names.enumerated() { positions[name] = index }
        self.names = names
    }

    /// The position of the first of `names` the header has.
    func position(of candidates: String...) -> Int? {
        for name in candidates { if let position = positions[name] { return position } }
        return nil
    }

    /// The position of a column that must be present.
    func required(_ name: String, source: TextSource, line: Int) throws(TraceFormatError) -> Int {
        guard let position = positions[name] else { throw source.error(line: line, .missingColumn(name)) }
        return position
    }

    var count: Int { names.count }
}
