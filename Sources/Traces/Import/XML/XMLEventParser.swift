import CLibXML2

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Receives the elements an XML trace importer asked for, by code, with their namespace
/// and leaf text.
///
/// Elements are matched on local name by the parser and on namespace by the handler, which
/// knows which vocabularies may hold each element (a GPX `trkpt`, a Garmin extension's
/// `speed`); an element of the right name in another namespace is someone else's data.
protocol XMLTraceHandler {
    /// The local names the handler wants; an element's code is its index here.
    static var elementNames: [String] { get }
    /// The namespaces the handler tells apart, in `XMLNamespace.normalized` form; an
    /// element's namespace code is its index here, or `XMLNamespace.none` or `.other`.
    static var namespaceURIs: [String] { get }
    /// An element named `elementNames[code]` in namespace `namespace` opened.
    mutating func didStart(_ code: Int, namespace: Int, attributes: XMLAttributes, line: Int) throws(TraceFormatError)
    /// It closed; `text` is its character content (empty for container elements).
    mutating func didEnd(_ code: Int, namespace: Int, text: UnsafeBufferPointer<UInt8>, line: Int)
        throws(TraceFormatError)
}

/// Namespace codes beside a handler's own list, and the form URIs are compared in.
enum XMLNamespace {
    /// An element in no namespace: a document that declares none.
    static let none = -1
    /// An element in a namespace the handler did not list.
    static let other = -2

    /// A URI without its `http://` or `https://` scheme, a `www.` or `www8.` host prefix and
    /// a trailing slash: writers spell the same vocabulary all these ways (OsmAnd writes
    /// `https://www.topografix.com/GPX/1/1`, `https://www8.garmin.com/...`), and no two
    /// vocabularies a handler reads differ only there.
    static func normalized(_ uri: String) -> String {
        var text = Substring(uri)
        for scheme in ["http://", "https://"] where text.hasPrefix(scheme) { text = text.dropFirst(scheme.count) }
        for host in ["www.", "www8."] where text.hasPrefix(host) { text = text.dropFirst(host.count) }
        while text.hasSuffix("/") { text = text.dropLast() }
        return String(text)
    }
}

/// The attributes of an opening tag, as libxml2 or the plain scanner hands them over (valid
/// during the callback).
struct XMLAttributes {
    fileprivate let pointer: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    fileprivate let count: Int
    private let scanned: UnsafeBufferPointer<XMLScannedAttribute>?

    fileprivate init(pointer: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int) {
        self.pointer = pointer
        self.count = count
        scanned = nil
    }

    init(scanned: UnsafeBufferPointer<XMLScannedAttribute>) {
        pointer = nil
        count = scanned.count
        self.scanned = scanned
    }

    /// The value of the attribute with this local name, if present.
    func value(_ localName: StaticString) -> UnsafeBufferPointer<UInt8>? {
        if let scanned {
            for attribute in scanned where !attribute.isPrefixed && attribute.localName.equals(localName) {
                return attribute.value
            }
            return nil
        }
        guard let pointer else { return nil }
        // Five pointers per attribute: localname, prefix, URI, value start, value end. The
        // attributes read are unqualified; `x:lat` belongs to another vocabulary.
        for index in 0..<count {
            guard let name = pointer[index * 5], let start = pointer[index * 5 + 3], let end = pointer[index * 5 + 4],
                pointer[index * 5 + 2] == nil, XMLEventParser.equals(name, localName)
            else { continue }
            return UnsafeBufferPointer(start: start, count: end - start)
        }
        return nil
    }
}

/// A streaming (SAX2) reader over libxml2, configured so that hostile files cannot reach
/// outside the document: no network, no DTD loading, and any entity declaration or
/// non-predefined entity reference stops the parse with an error before anything expands.
///
/// The callbacks reach their state through a pointer rather than a class instance: class
/// properties pay a dynamic exclusivity check per access, which measured at a fifth of a
/// GPX import.
enum XMLEventParser {
    /// Parses the whole document into a handler `make` returns: the plain scanner's when it
    /// can vouch for the document, otherwise libxml2's, from a fresh handler.
    /// - Returns: the handler, every event given.
    /// - Throws: libxml2's error or the handler's, located as `parse(_:handler:)` locates them.
    static func parse<Handler: XMLTraceHandler>(
        _ source: TextSource, making make: () -> Handler
    ) throws(TraceFormatError) -> Handler {
        var handler = make()
        if XMLPlainScanner.scan(source, handler: &handler) { return handler }
        handler = make()
        try parse(source, handler: &handler)
        return handler
    }

    /// Parses the whole document with libxml2, calling the handler for the elements it names.
    static func parse<Handler: XMLTraceHandler>(
        _ source: TextSource, handler: inout Handler
    ) throws(TraceFormatError) {
        // Fed to libxml2 in slices, so a document may be larger than its 2 GB chunk limit.
        guard let base = source.bytes.baseAddress else {
            throw TraceFormatError(file: source.file, problem: .emptyFile)
        }
        let outcome: TraceFormatError? = withUnsafeMutablePointer(to: &handler) { handlerPointer in
            var bridge = Bridge(
                file: source.file,
                mapping: source.mapping,
                names: Handler.elementNames,
                namespaces: Handler.namespaceURIs,
                start: { code, namespace, attributes, line throws(TraceFormatError) in
                    try handlerPointer.pointee.didStart(code, namespace: namespace, attributes: attributes, line: line)
                },
                end: { code, namespace, text, line throws(TraceFormatError) in
                    try handlerPointer.pointee.didEnd(code, namespace: namespace, text: text, line: line)
                })
            defer {
                bridge.text.deallocate()
                bridge.cache.deallocate()
                bridge.namespaceCache.deallocate()
                bridge.open.deallocate()
            }
            return withUnsafeMutablePointer(to: &bridge) { bridgePointer in
                run(base: base, count: source.bytes.count, bridge: bridgePointer)
            }
        }
        if let outcome { throw outcome }
    }

    /// What the C callbacks share: the handler's entry points, the text of the current
    /// element, the name-to-code cache and the first failure.
    fileprivate struct Bridge {
        let file: String
        /// The mapped file being parsed, whose pages go back behind the parser.
        let mapping: MappedFile?
        /// Elements open at the moment. GPX, TCX and KML need a dozen levels; a file nesting
        /// deeper than `maximumDepth` is refused rather than walked.
        var depth = 0
        static let maximumDepth = 256
        /// The open elements' local names and lines, outermost first, so a file that ends
        /// early can say which element it ends in.
        let open: UnsafeMutableBufferPointer<(name: UnsafePointer<xmlChar>?, line: Int32)>
        let names: [[UInt8]]
        let namespaces: [String]
        let start: (Int, Int, XMLAttributes, Int) throws(TraceFormatError) -> Void
        let end: (Int, Int, UnsafeBufferPointer<UInt8>, Int) throws(TraceFormatError) -> Void
        /// The first error libxml2 raised outside the parser context (a failed encoding
        /// conversion), which it would otherwise print to standard error.
        var detachedError: String?
        var context: xmlParserCtxtPtr?
        var text: UnsafeMutableBufferPointer<UInt8>
        var textCount = 0
        var isCapturingText = false
        var failure: TraceFormatError?
        /// Checked on every callback; cheaper than comparing the optional error with nil.
        var hasFailed = false
        /// libxml2 interns element names, so a name's address identifies it: a
        /// direct-mapped table from address to code.
        /// Raw memory rather than arrays: an array read through the bridge pointer retains and
        /// releases its buffer, on every element of the file.
        let cache: UnsafeMutableBufferPointer<(key: UnsafePointer<xmlChar>?, code: Int)>
        static let cacheSlots = 256
        /// Namespace URIs are interned in the same dictionary: the same kind of table.
        let namespaceCache: UnsafeMutableBufferPointer<(key: UnsafePointer<xmlChar>?, code: Int)>
        static let namespaceSlots = 16

        init(
            file: String, mapping: MappedFile?, names: [String], namespaces: [String],
            start: @escaping (Int, Int, XMLAttributes, Int) throws(TraceFormatError) -> Void,
            end: @escaping (Int, Int, UnsafeBufferPointer<UInt8>, Int) throws(TraceFormatError) -> Void
        ) {
            self.file = file
            self.mapping = mapping
            self.names = names.map { Array($0.utf8) }
            self.namespaces = namespaces
            self.start = start
            self.end = end
            text = .allocate(capacity: 256)
            cache = .allocate(capacity: Bridge.cacheSlots)
            cache.initialize(repeating: (nil, -1))
            namespaceCache = .allocate(capacity: Bridge.namespaceSlots)
            namespaceCache.initialize(repeating: (nil, XMLNamespace.other))
            open = .allocate(capacity: Bridge.maximumDepth)
            open.initialize(repeating: (nil, 0))
        }

        var line: Int { context.map { Int(xmlSAX2GetLineNumber($0)) } ?? 0 }

        mutating func fail(_ problem: TraceFormatError.Problem) {
            let line = self.line
            fail(TraceFormatError(file: file, line: line > 0 ? line : nil, problem: problem))
        }

        mutating func fail(_ error: TraceFormatError) {
            guard !hasFailed else { return }
            hasFailed = true
            failure = error
            if let context { xmlStopParser(context) }
        }

        mutating func code(for name: UnsafePointer<xmlChar>) -> Int {
            let address = UInt(bitPattern: name)
            let slot = Int((address >> 3 ^ address >> 11) & UInt(Bridge.cacheSlots - 1))
            let cached = cache[slot]
            if cached.key == name { return cached.code }
            let code =
                names.firstIndex { candidate in
                    candidate.withUnsafeBufferPointer { bytes in
                        for index in 0..<bytes.count where name[index] != bytes[index] { return false }
                        return name[bytes.count] == 0
                    }
                } ?? -1
            cache[slot] = (name, code)
            return code
        }

        mutating func namespaceCode(for uri: UnsafePointer<xmlChar>?) -> Int {
            guard let uri else { return XMLNamespace.none }
            let address = UInt(bitPattern: uri)
            let slot = Int((address >> 3 ^ address >> 7) & UInt(Bridge.namespaceSlots - 1))
            let cached = namespaceCache[slot]
            if cached.key == uri { return cached.code }
            let normalized = XMLNamespace.normalized(String(cString: uri))
            let code = namespaces.firstIndex(of: normalized) ?? XMLNamespace.other
            namespaceCache[slot] = (uri, code)
            return code
        }

        mutating func appendText(_ bytes: UnsafePointer<xmlChar>, _ length: Int) {
            if textCount + length > text.count {
                let grown = UnsafeMutableBufferPointer<UInt8>.allocate(
                    capacity: max(text.count * 2, textCount + length))
                _ = grown.initialize(from: text[0..<textCount])
                text.deallocate()
                text = grown
            }
            guard let destination = text.baseAddress else { return }
            (destination + textCount).update(from: bytes, count: length)
            textCount += length
        }
    }

    /// How much of the file libxml2 is given at a time.
    static let sliceBytes = 1 << 20

    private static func run(base: UnsafePointer<UInt8>, count: Int, bridge: UnsafeMutablePointer<Bridge>)
        -> TraceFormatError?
    {
        let file = bridge.pointee.file
        // A push parser fed the file a slice at a time: libxml2's memory parser would first
        // copy the whole file into a buffer of its own, doubling a large GPX's footprint,
        // while a push parser holds only the slice it is working on.
        guard let context = xmlCreatePushParserCtxt(nil, nil, nil, 0, nil) else {
            return TraceFormatError(file: file, problem: .invalidXML("libxml2 could not create a parser"))
        }
        defer {
            // A DOCTYPE makes libxml2 build a document for its DTD even with these callbacks;
            // freeing the parser context does not free it.
            if let document = context.pointee.myDoc {
                xmlFreeDoc(document)
                context.pointee.myDoc = nil
            }
            xmlFreeParserCtxt(context)
        }
        bridge.pointee.context = context
        defer { bridge.pointee.context = nil }

        // Start from an empty handler: libxml2's default SAX2 callbacks expect the parser
        // context as their user data, and this parser passes its bridge instead. Only the
        // callbacks set below run; nothing could fetch, load or expand, and the entity and
        // DTD hooks fail the parse.
        var callbacks = xmlSAXHandler()
        callbacks.initialized = XML_SAX2_MAGIC
        callbacks.serror = { _, _ in }
        callbacks.entityDecl = { userData, name, _, _, _, _ in
            XMLEventParser.state(of: userData)?.pointee.fail(
                .entityDeclaration("the entity declaration '\(XMLEventParser.text(name))'"))
        }
        callbacks.unparsedEntityDecl = { userData, name, _, _, _ in
            XMLEventParser.state(of: userData)?.pointee.fail(
                .entityDeclaration("the entity declaration '\(XMLEventParser.text(name))'"))
        }
        callbacks.getEntity = { userData, name in
            XMLEventParser.state(of: userData)?.pointee.fail(
                .entityDeclaration("the entity reference '&\(XMLEventParser.text(name));'"))
            return nil
        }
        callbacks.getParameterEntity = { userData, name in
            XMLEventParser.state(of: userData)?.pointee.fail(
                .entityDeclaration("the parameter entity '%\(XMLEventParser.text(name));'"))
            return nil
        }
        callbacks.reference = { userData, name in
            XMLEventParser.state(of: userData)?.pointee.fail(
                .entityDeclaration("the entity reference '&\(XMLEventParser.text(name));'"))
        }
        callbacks.startElementNs = { userData, localName, _, uri, _, _, attributeCount, _, attributes in
            guard let state = XMLEventParser.state(of: userData), let localName, !state.pointee.hasFailed else {
                return
            }
            state.pointee.depth += 1
            guard state.pointee.depth <= Bridge.maximumDepth else {
                state.pointee.fail(.nestingTooDeep(limit: Bridge.maximumDepth))
                return
            }
            let line = state.pointee.line
            state.pointee.open[state.pointee.depth - 1] = (localName, Int32(clamping: line))
            let code = state.pointee.code(for: localName)
            state.pointee.textCount = 0
            state.pointee.isCapturingText = code >= 0
            guard code >= 0 else { return }
            let namespace = state.pointee.namespaceCode(for: uri)
            do throws(TraceFormatError) {
                try state.pointee.start(
                    code, namespace, XMLAttributes(pointer: attributes, count: Int(attributeCount)), line)
            } catch {
                state.pointee.fail(error)
            }
        }
        callbacks.endElementNs = { userData, localName, _, uri in
            guard let state = XMLEventParser.state(of: userData), let localName, !state.pointee.hasFailed else {
                return
            }
            state.pointee.depth -= 1
            let code = state.pointee.code(for: localName)
            guard code >= 0 else { return }
            let namespace = state.pointee.namespaceCode(for: uri)
            let captured = UnsafeBufferPointer(rebasing: state.pointee.text[0..<state.pointee.textCount])
            do throws(TraceFormatError) {
                try state.pointee.end(code, namespace, captured, state.pointee.line)
            } catch {
                state.pointee.fail(error)
            }
            state.pointee.textCount = 0
            state.pointee.isCapturingText = false
        }
        callbacks.characters = { userData, bytes, length in
            guard let state = XMLEventParser.state(of: userData), state.pointee.isCapturingText, let bytes, length > 0
            else { return }
            state.pointee.appendText(bytes, Int(length))
        }
        callbacks.cdataBlock = callbacks.characters

        context.pointee.sax.pointee = callbacks
        context.pointee.userData = UnsafeMutableRawPointer(bridge)
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        xmlCtxtUseOptions(context, options)
        // libxml2 reports a failed encoding conversion without its parser context, through
        // its global error handlers, which print to standard error by default. Depending on
        // how libxml2 was built those handlers are per thread or shared by every thread, so
        // the ones installed here are the same for every parse and never removed, and find
        // the parse they belong to through this thread's own slot.
        XMLErrorRouting.install()
        pthread_setspecific(XMLErrorRouting.currentBridge, UnsafeRawPointer(bridge))
        defer { pthread_setspecific(XMLErrorRouting.currentBridge, nil) }

        var offset = 0
        var status: Int32 = 0
        while status == 0, !bridge.pointee.hasFailed, offset < count {
            let length = min(sliceBytes, count - offset)
            status = base.advanced(by: offset).withMemoryRebound(to: CChar.self, capacity: length) {
                xmlParseChunk(context, $0, Int32(length), offset + length == count ? 1 : 0)
            }
            offset += length
            // libxml2 has copied what it was given, so the file's pages can go back.
            bridge.pointee.mapping?.release(before: base + offset)
        }

        if bridge.pointee.hasFailed { return bridge.pointee.failure }
        if status != 0 || context.pointee.wellFormed == 0 {
            // An error where the input ends, with elements still open, means the document
            // was cut short rather than malformed.
            let failedAtEnd = isAtEnd(xmlCtxtGetLastError(context), base: base, count: count)
            let detachedError = bridge.pointee.detachedError
            let depth = min(bridge.pointee.depth, Bridge.maximumDepth)
            if failedAtEnd, depth > 0, detachedError == nil {
                let innermost = bridge.pointee.open[depth - 1]
                return truncationError(context, file: file, depth: depth, innermost: innermost)
            }
            // Cut inside the root's start tag, before any element opened.
            let endedEarly = failedAtEnd && bridge.pointee.open[0].name == nil
            return libxmlError(context, file: file, detachedError: detachedError, endedEarly: endedEarly)
        }
        return nil
    }

    /// Whether libxml2's error lies at the end of the input (trailing whitespace aside): on
    /// its last line, at or just before its last column (libxml2 points at the last
    /// character it read).
    private static func isAtEnd(_ error: UnsafePointer<xmlError>?, base: UnsafePointer<UInt8>, count: Int) -> Bool {
        // A mismatched end tag is its own mistake, wherever it stands.
        guard let error, error.pointee.line > 0, error.pointee.code != XML_ERR_TAG_NAME_MISMATCH.rawValue else {
            return false
        }
        var count = count
        while count > 0, [0x20, 0x09, 0x0A, 0x0D].contains(base[count - 1]) { count -= 1 }
        var lines = 1
        var lastLineStart = 0
        var position = 0
        while position < count, let hit = memchr(base + position, 0x0A, count - position) {
            position = UnsafeRawPointer(hit) - UnsafeRawPointer(base) + 1
            lines += 1
            lastLineStart = position
        }
        let line = Int(error.pointee.line)
        let column = Int(error.pointee.int2)
        return line > lines || (line == lines && column + 2 >= count - lastLineStart + 1)
    }

    /// The file ended with elements still open: name the innermost and where it began,
    /// rather than libxml2's guess at what went wrong at the end of input.
    private static func truncationError(
        _ context: xmlParserCtxtPtr, file: String, depth: Int, innermost: (name: UnsafePointer<xmlChar>?, line: Int32)
    ) -> TraceFormatError {
        let detail =
            "\(depth) element\(depth == 1 ? " is" : "s are") still open, the innermost <\(text(innermost.name))> "
            + "from line \(innermost.line); the file looks truncated"
        let line = xmlCtxtGetLastError(context).map { Int($0.pointee.line) } ?? 0
        return TraceFormatError(file: file, line: line > 0 ? line : nil, problem: .truncated(detail))
    }

    private static func libxmlError(
        _ context: xmlParserCtxtPtr, file: String, detachedError: String?, endedEarly: Bool
    ) -> TraceFormatError {
        let error = xmlCtxtGetLastError(context)
        let line = error.map { Int($0.pointee.line) } ?? 0
        if let conversion = detachedError {
            // What the parser says after a failed conversion ("Extra content at the end of
            // the document") is only its echo.
            return TraceFormatError(
                file: file, line: line > 0 ? line : nil,
                problem: .invalidXML("the bytes do not match the declared encoding (\(conversion))"))
        }
        guard let error else {
            return TraceFormatError(file: file, problem: .invalidXML("not well-formed"))
        }
        let message = error.pointee.message.map { String(cString: $0) } ?? "not well-formed"
        let column = Int(error.pointee.int2)
        let problem = describe(trimmed(message), endedEarly: endedEarly)
        return TraceFormatError(
            file: file, line: line > 0 ? line : nil, column: column > 0 ? column : nil, problem: problem)
    }

    private static func describe(_ detail: String, endedEarly: Bool) -> TraceFormatError.Problem {
        if detail.contains("Huge input lookup") || detail.contains("length too long") {
            // libxml2's words for a single name, attribute or text over its 10 MB limit.
            return .invalidXML("a single name, attribute or text is longer than libxml2's 10 MB limit")
        }
        if endedEarly || detail.contains("Premature end") || detail.contains("EndTag: '</' not found") {
            return .truncated(detail)
        }
        return .invalidXML(detail)
    }

    /// A libxml2 message on one line: trailing newline dropped, continuation lines joined.
    fileprivate static func trimmed(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces }.filter { !$0.isEmpty }
            .joined(separator: " ")
    }

    fileprivate static func state(of userData: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<Bridge>? {
        userData?.assumingMemoryBound(to: Bridge.self)
    }

    fileprivate static func text(_ name: UnsafePointer<xmlChar>?) -> String {
        name.map { String(cString: $0) } ?? ""
    }

    static func equals(_ name: UnsafePointer<xmlChar>, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        let pointer = literal.utf8Start
        for index in 0..<count where name[index] != pointer[index] { return false }
        return name[count] == 0
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}

/// Where libxml2's context-free errors go: to the parse running on the reporting thread,
/// never to standard error.
private enum XMLErrorRouting {
    /// This thread's running parse, as a pointer to its bridge.
    static let currentBridge: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static func install() {
        xmlSetStructuredErrorFunc(nil) { _, error in
            guard let raw = pthread_getspecific(XMLErrorRouting.currentBridge), let message = error?.pointee.message
            else { return }
            let state = raw.assumingMemoryBound(to: XMLEventParser.Bridge.self)
            guard state.pointee.detachedError == nil else { return }
            state.pointee.detachedError = XMLEventParser.trimmed(String(cString: message))
        }
        tracesim_silence_generic_errors()
    }
}
