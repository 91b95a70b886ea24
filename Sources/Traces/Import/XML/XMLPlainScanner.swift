#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A hand-written reader for the plain XML trace writers emit, in front of libxml2: UTF-8
/// without a byte over 0x7F, no DOCTYPE, comment, processing instruction, CDATA section or
/// entity reference, no carriage return, no tab or line break inside an attribute value,
/// ASCII names with at most one colon. That is what TraceSim's own exporter and most
/// loggers write, and libxml2's SAX callbacks and its per-byte checks cost four times the
/// work of reading such a file directly.
///
/// It gives the handler exactly the events `XMLEventParser` gives it for the same file: the
/// same codes, namespaces, attributes, leaf text and line numbers (the line of the tag's
/// closing `>`, which is where libxml2 stands when it calls back). A document it cannot
/// vouch for (anything outside the subset, anything not well-formed, or a handler error)
/// makes it give up, and the caller starts over with libxml2 and a fresh handler, so every
/// error message, and every document beyond the subset, is libxml2's as before.
/// `XMLPlainScannerTests` compares the two readers' events on every bundled file.
enum XMLPlainScanner {
    /// Reads the whole document into `handler`.
    /// - Returns: `false` when the caller must discard `handler` and use libxml2 instead.
    /// - Complexity: O(n) in the document's bytes, one pass.
    static func scan<Handler: XMLTraceHandler>(_ source: TextSource, handler: inout Handler) -> Bool {
        guard let base = source.bytes.baseAddress else { return false }
        var scanner = Scanner<Handler>(base: base, count: source.bytes.count, mapping: source.mapping)
        defer { scanner.deallocate() }
        return scanner.run(&handler)
    }

    /// An open element: its qualified name's bytes (to match the end tag), codes, and the
    /// namespace scope it opened.
    fileprivate struct OpenElement {
        var nameStart: Int
        var nameEnd: Int
        var code: Int
        var namespace: Int
        var bindingCount: Int
        var defaultNamespace: Int
    }

    /// A prefix bound by an `xmlns:prefix` attribute, until its element closes.
    fileprivate struct Binding {
        var prefixStart: Int
        var prefixEnd: Int
        var namespace: Int
    }

    /// What made the scanner give up; never shown, the libxml2 pass reports instead.
    fileprivate struct Unsupported: Error {}

    fileprivate struct Scanner<Handler: XMLTraceHandler> {
        let base: UnsafePointer<UInt8>
        let count: Int
        let mapping: MappedFile?
        var position = 0
        var line = 1
        /// Deeper documents go to libxml2, which refuses past 256 levels.
        static var maximumDepth: Int { 128 }
        static var maximumAttributes: Int { 32 }
        /// Longer texts, names or values go to libxml2, which has limits of its own for them.
        static var maximumRun: Int { 1 << 20 }
        let open: UnsafeMutableBufferPointer<OpenElement>
        var depth = 0
        /// Prefixes in scope, innermost last; raw memory, so a lookup retains nothing.
        let bindings: UnsafeMutableBufferPointer<Binding>
        var bindingCount = 0
        static var maximumBindings: Int { 64 }
        /// Bit 0: a byte may start a name; bit 1: it may continue one.
        let nameBytes: UnsafeMutableBufferPointer<UInt8>
        let attributes: UnsafeMutableBufferPointer<XMLScannedAttribute>
        let names: XMLNameTable
        /// Where the text of the element opened last begins, while no tag has followed it.
        var textStart = 0
        /// The depth of the element whose text starts at `textStart`, or -1.
        var textOwner = -1
        var nextRelease = 1 << 20

        init(base: UnsafePointer<UInt8>, count: Int, mapping: MappedFile?) {
            self.base = base
            self.count = count
            self.mapping = mapping
            open = .allocate(capacity: Self.maximumDepth)
            attributes = .allocate(capacity: Self.maximumAttributes)
            bindings = .allocate(capacity: Self.maximumBindings)
            nameBytes = .allocate(capacity: 256)
            for byte in 0..<256 {
                let isStart = (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x5F
                let isPart = isStart || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E
                nameBytes[byte] = (isStart ? 1 : 0) | (isPart ? 2 : 0)
            }
            names = XMLNameTable(Handler.elementNames)
        }

        func deallocate() {
            open.deallocate()
            attributes.deallocate()
            bindings.deallocate()
            nameBytes.deallocate()
            names.deallocate()
        }

        mutating func run(_ handler: inout Handler) -> Bool {
            do {
                try prolog()
                try element(&handler)
                while depth > 0 {
                    try text()
                    try tag(&handler)
                }
                try skipSpace()
                return position == count
            } catch {
                return false
            }
        }

        @inline(__always)
        func byte(_ offset: Int) -> UInt8 { offset < count ? base[offset] : 0 }

        /// `<?xml version="1.0" [encoding="UTF-8"] [standalone="yes|no"]?>` at the very start,
        /// then blanks up to the root.
        mutating func prolog() throws(Unsupported) {
            if starts(with: "<?xml"), isSpace(byte(position + 5)) {
                position += 5
                try pseudoAttribute("version") { $0.equalsIgnoringCase("1.0") }
                var sawEncoding = false
                var sawStandalone = false
                while true {
                    let hadSpace = isSpace(byte(position))
                    try skipSpace()
                    if starts(with: "?>") { break }
                    // Pseudo-attributes are separated by blanks, as attributes are.
                    guard hadSpace else { throw Unsupported() }
                    if !sawEncoding, !sawStandalone, starts(with: "encoding") {
                        sawEncoding = true
                        try pseudoAttribute("encoding") { $0.equalsIgnoringCase("utf-8") }
                    } else if !sawStandalone, starts(with: "standalone") {
                        sawStandalone = true
                        try pseudoAttribute("standalone") { $0.equals("yes") || $0.equals("no") }
                    } else {
                        throw Unsupported()
                    }
                }
                position += 2
            }
            try skipSpace()
        }

        /// ` name = "value"` of the XML declaration, the value accepted by `accepts`.
        mutating func pseudoAttribute(
            _ name: StaticString, accepts: (UnsafeBufferPointer<UInt8>) -> Bool
        ) throws(Unsupported) {
            try skipSpace()
            guard starts(with: name) else { throw Unsupported() }
            position += name.utf8CodeUnitCount
            try skipSpace()
            guard byte(position) == UInt8(ascii: "=") else { throw Unsupported() }
            position += 1
            try skipSpace()
            let (start, end) = try quoted()
            guard accepts(UnsafeBufferPointer(start: base + start, count: end - start)) else { throw Unsupported() }
        }

        func starts(with literal: StaticString) -> Bool {
            let length = literal.utf8CodeUnitCount
            return position + length <= count && memcmp(base + position, literal.utf8Start, length) == 0
        }

        @inline(__always)
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 }

        /// Blanks, counting lines; a carriage return is left to libxml2's line-end handling.
        @inline(__always)
        mutating func skipSpace() throws(Unsupported) {
            while position < count {
                let byte = base[position]
                if byte == 0x20 || byte == 0x09 {
                } else if byte == 0x0A {
                    line += 1
                } else if byte == 0x0D {
                    throw Unsupported()
                } else {
                    return
                }
                position += 1
            }
        }

        /// The root element's start tag.
        mutating func element(_ handler: inout Handler) throws(Unsupported) {
            guard byte(position) == UInt8(ascii: "<") else { throw Unsupported() }
            try tag(&handler)
        }

        /// Character data up to the next `<`, which must come.
        @inline(__always)
        mutating func text() throws(Unsupported) {
            let start = position
            while true {
                guard position < count else { throw Unsupported() }
                let current = base[position]
                if current == UInt8(ascii: "<") { break }
                if current == 0x0A {
                    line += 1
                } else if current < 0x20 {
                    // Tab is the one other control allowed; a CR is left to libxml2.
                    guard current == 0x09 else { throw Unsupported() }
                } else if current >= 0x80 || current == UInt8(ascii: "&") {
                    throw Unsupported()
                } else if current == UInt8(ascii: "]"), byte(position + 1) == UInt8(ascii: "]"),
                    byte(position + 2) == UInt8(ascii: ">")
                {
                    throw Unsupported()
                }
                position += 1
            }
            guard position - start <= Self.maximumRun else { throw Unsupported() }
        }

        /// A tag starting at `<`: an end tag, or a start tag (empty or not).
        mutating func tag(_ handler: inout Handler) throws(Unsupported) {
            let tagStart = position
            position += 1
            if byte(position) == UInt8(ascii: "/") {
                position += 1
                try endTag(&handler, tagStart: tagStart)
            } else {
                try startTag(&handler)
            }
            if position >= nextRelease {
                mapping?.release(before: base + position)
                nextRelease = position + (1 << 20)
            }
        }

        mutating func endTag(_ handler: inout Handler, tagStart: Int) throws(Unsupported) {
            guard depth > 0 else { throw Unsupported() }
            let (nameStart, _, nameEnd) = try qualifiedName()
            let element = open[depth - 1]
            let length = nameEnd - nameStart
            guard length == element.nameEnd - element.nameStart,
                memcmp(base + nameStart, base + element.nameStart, length) == 0
            else { throw Unsupported() }
            try skipSpace()
            guard byte(position) == UInt8(ascii: ">") else { throw Unsupported() }
            position += 1
            let text =
                textOwner == depth
                ? UnsafeBufferPointer(start: base + textStart, count: tagStart - textStart)
                : UnsafeBufferPointer(start: base, count: 0)
            textOwner = -1
            try close(element, text: text, &handler)
        }

        /// Ends the innermost element: its event (when its name is one the handler reads), then
        /// its namespace scope.
        mutating func close(_ element: OpenElement, text: UnsafeBufferPointer<UInt8>, _ handler: inout Handler)
            throws(Unsupported)
        {
            depth -= 1
            bindingCount = element.bindingCount
            guard element.code >= 0 else { return }
            do {
                try handler.didEnd(element.code, namespace: element.namespace, text: text, line: line)
            } catch {
                throw Unsupported()
            }
        }

        mutating func startTag(_ handler: inout Handler) throws(Unsupported) {
            guard depth < Self.maximumDepth else { throw Unsupported() }
            let (nameStart, colon, nameEnd) = try qualifiedName()
            var attributeCount = 0
            var defaultNamespace = depth > 0 ? open[depth - 1].defaultNamespace : XMLNamespace.none
            let outerBindings = bindingCount
            var isEmpty = false
            while true {
                let hadSpace = isSpace(byte(position))
                try skipSpace()
                let next = byte(position)
                if next == UInt8(ascii: ">") {
                    position += 1
                    break
                }
                if next == UInt8(ascii: "/") {
                    guard byte(position + 1) == UInt8(ascii: ">") else { throw Unsupported() }
                    position += 2
                    isEmpty = true
                    break
                }
                guard hadSpace, attributeCount < Self.maximumAttributes else { throw Unsupported() }
                let (attributeStart, attributeColon, attributeEnd) = try qualifiedName()
                try skipSpace()
                guard byte(position) == UInt8(ascii: "=") else { throw Unsupported() }
                position += 1
                try skipSpace()
                let (valueStart, valueEnd) = try quoted()
                let localStart = attributeColon.map { $0 + 1 } ?? attributeStart
                let local = UnsafeBufferPointer(start: base + localStart, count: attributeEnd - localStart)
                let value = UnsafeBufferPointer(start: base + valueStart, count: valueEnd - valueStart)
                // Two attributes of one local name are distinct only when exactly one has a
                // prefix (an unprefixed attribute is in no namespace); two prefixed ones may
                // name one namespace: libxml2 decides.
                for index in 0..<attributeCount where attributes[index].localName.elementsEqualBytes(local) {
                    guard attributes[index].hasPrefix != (attributeColon != nil) else { throw Unsupported() }
                }
                let prefix =
                    attributeColon.map { UnsafeBufferPointer(start: base + attributeStart, count: $0 - attributeStart) }
                if prefix?.equals("xmlns") == true {
                    guard !value.isEmpty, !local.equals("xml"), !local.equals("xmlns") else { throw Unsupported() }
                    guard bindingCount < Self.maximumBindings else { throw Unsupported() }
                    bindings[bindingCount] = Binding(
                        prefixStart: localStart, prefixEnd: attributeEnd, namespace: namespaceCode(value))
                    bindingCount += 1
                } else if prefix == nil, local.equals("xmlns") {
                    defaultNamespace = value.isEmpty ? XMLNamespace.none : namespaceCode(value)
                }
                // Namespace declarations are no attributes to libxml2: marked prefixed, so
                // `XMLAttributes.value` passes them over as it passes over `x:lat`.
                attributes[attributeCount] = XMLScannedAttribute(
                    localName: local, prefix: prefix ?? local, value: value,
                    isPrefixed: prefix != nil || local.equals("xmlns"), hasPrefix: prefix != nil)
                attributeCount += 1
            }
            // Every prefix used must be bound, by this tag or an enclosing one.
            let localStart = colon.map { $0 + 1 } ?? nameStart
            let namespace =
                try colon.map { colon throws(Unsupported) in try resolve(nameStart, colon) } ?? defaultNamespace
            for index in 0..<attributeCount where attributes[index].isPrefixed {
                let prefix = attributes[index].prefix
                guard let prefixBase = prefix.baseAddress, !prefix.equals("xmlns") else { continue }
                _ = try resolve(prefixBase - base, prefixBase - base + prefix.count)
            }
            let code = names.code(UnsafeBufferPointer(start: base + localStart, count: nameEnd - localStart))
            let element = OpenElement(
                nameStart: nameStart, nameEnd: nameEnd, code: code, namespace: namespace, bindingCount: outerBindings,
                defaultNamespace: defaultNamespace)
            open[depth] = element
            depth += 1
            if code >= 0 {
                let scanned = XMLAttributes(
                    scanned: UnsafeBufferPointer(rebasing: attributes[0..<attributeCount]))
                do {
                    try handler.didStart(code, namespace: namespace, attributes: scanned, line: line)
                } catch {
                    throw Unsupported()
                }
            }
            if isEmpty {
                textOwner = -1
                try close(element, text: UnsafeBufferPointer(start: base, count: 0), &handler)
            } else {
                textStart = position
                textOwner = depth
            }
        }

        /// The namespace bound to the prefix `base[start..<end]`, innermost binding first.
        func resolve(_ start: Int, _ end: Int) throws(Unsupported) -> Int {
            let length = end - start
            var index = bindingCount
            while index > 0 {
                index -= 1
                let binding = bindings[index]
                if binding.prefixEnd - binding.prefixStart == length
                    && memcmp(base + binding.prefixStart, base + start, length) == 0
                {
                    return binding.namespace
                }
            }
            // `xml:` and unbound prefixes: libxml2's rules.
            throw Unsupported()
        }

        func namespaceCode(_ uri: UnsafeBufferPointer<UInt8>) -> Int {
            let normalized = XMLNamespace.normalized(String(decoding: uri, as: UTF8.self))
            return Handler.namespaceURIs.firstIndex(of: normalized) ?? XMLNamespace.other
        }

        /// `NCName` or `NCName:NCName` in ASCII.
        /// - Returns: where it starts, where its colon is, and where it ends.
        @inline(__always)
        mutating func qualifiedName() throws(Unsupported) -> (start: Int, colon: Int?, end: Int) {
            let start = position
            var colon: Int?
            guard nameBytes[Int(byte(position))] & 1 != 0 else { throw Unsupported() }
            position += 1
            while true {
                while position < count, nameBytes[Int(base[position])] & 2 != 0 { position += 1 }
                guard colon == nil, byte(position) == UInt8(ascii: ":"), nameBytes[Int(byte(position + 1))] & 1 != 0
                else { break }
                colon = position
                position += 2
            }
            guard position - start <= 1000 else { throw Unsupported() }
            return (start, colon, position)
        }

        /// A quoted attribute value's bounds, quotes excluded; only characters that stand for
        /// themselves (no `&`, no tab or line break that libxml2 would normalise).
        mutating func quoted() throws(Unsupported) -> (Int, Int) {
            let quote = byte(position)
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { throw Unsupported() }
            position += 1
            let start = position
            while true {
                guard position < count else { throw Unsupported() }
                let byte = base[position]
                if byte == quote { break }
                if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") {
                    throw Unsupported()
                }
                position += 1
            }
            guard position - start <= Self.maximumRun else { throw Unsupported() }
            position += 1
            return (start, position - 1)
        }
    }
}

/// One attribute as the plain scanner found it, pointing into the document.
struct XMLScannedAttribute {
    var localName: UnsafeBufferPointer<UInt8>
    /// The prefix, or for `xmlns` the name itself.
    var prefix: UnsafeBufferPointer<UInt8>
    var value: UnsafeBufferPointer<UInt8>
    /// Whether `XMLAttributes.value` passes it over: prefixed, or a namespace declaration.
    var isPrefixed: Bool
    /// Whether its name has a prefix.
    var hasPrefix: Bool
}

/// A handler's element names, looked up by their bytes: a small open-addressed table,
/// confirmed byte for byte, so a name costs a hash of a few bytes and one compare. Raw
/// memory, freed by `deallocate`, so a lookup retains and releases nothing.
struct XMLNameTable {
    /// Per slot: the name's offset in `bytes` and length (length -1 for an empty slot), its code.
    private let slots: UnsafeMutableBufferPointer<(offset: Int, length: Int, code: Int)>
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private let mask: Int

    init(_ names: [String]) {
        var size = 16
        while size < names.count * 4 { size *= 2 }
        slots = .allocate(capacity: size)
        slots.initialize(repeating: (0, -1, -1))
        bytes = .allocate(capacity: max(1, names.reduce(0) { $0 + $1.utf8.count }))
        mask = size - 1
        var offset = 0
        for (code, name) in names.enumerated() {
            let utf8 = Array(name.utf8)
            for (index, byte) in utf8.enumerated() { bytes[offset + index] = byte }
            var slot = Self.hash(UnsafeBufferPointer(rebasing: bytes[offset..<offset + utf8.count])) & mask
            while slots[slot].length >= 0 { slot = (slot + 1) & mask }
            slots[slot] = (offset, utf8.count, code)
            offset += utf8.count
        }
    }

    func deallocate() {
        slots.deallocate()
        bytes.deallocate()
    }

    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash ^ hash >> 15)
    }

    /// The code of this local name, or -1.
    @inline(__always)
    func code(_ name: UnsafeBufferPointer<UInt8>) -> Int {
        var slot = Self.hash(name) & mask
        while true {
            let entry = slots[slot]
            guard entry.length >= 0 else { return -1 }
            if entry.length == name.count, let stored = bytes.baseAddress, let wanted = name.baseAddress,
                memcmp(stored + entry.offset, wanted, entry.length) == 0
            {
                return entry.code
            }
            slot = (slot + 1) & mask
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    @inline(__always)
    func elementsEqualBytes(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard count > 0, let left = baseAddress, let right = other.baseAddress else { return true }
        return memcmp(left, right, count) == 0
    }

    /// ASCII comparison with a lowercase literal, ignoring the case of letters.
    func equalsIgnoringCase(_ literal: StaticString) -> Bool {
        guard count == literal.utf8CodeUnitCount else { return false }
        for index in 0..<count
        where self[index] | (self[index] >= 0x41 && self[index] <= 0x5A ? 0x20 : 0)
            != literal.utf8Start[index]
        {
            return false
        }
        return true
    }
}
