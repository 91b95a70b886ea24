import CLibXML2

/// Receives the elements an XML trace importer asked for, by code, with their leaf text.
protocol XMLTraceHandler {
    /// The local names the handler wants; an element's code is its index here.
    static var elementNames: [String] { get }
    /// An element named `elementNames[code]` opened.
    mutating func didStart(_ code: Int, attributes: XMLAttributes, line: Int) throws(TraceFormatError)
    /// It closed; `text` is its character content (empty for container elements).
    mutating func didEnd(_ code: Int, text: UnsafeBufferPointer<UInt8>, line: Int) throws(TraceFormatError)
}

/// The attributes of an opening tag, as libxml2 hands them over (valid during the callback).
struct XMLAttributes {
    fileprivate let pointer: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    fileprivate let count: Int

    /// The value of the attribute with this local name, if present.
    func value(_ localName: StaticString) -> UnsafeBufferPointer<UInt8>? {
        guard let pointer else { return nil }
        // Five pointers per attribute: localname, prefix, URI, value start, value end.
        for index in 0..<count {
            guard let name = pointer[index * 5], let start = pointer[index * 5 + 3], let end = pointer[index * 5 + 4],
                XMLEventParser.equals(name, localName)
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
    /// Parses the whole document, calling the handler for the elements it names.
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
                start: { code, attributes, line throws(TraceFormatError) in
                    try handlerPointer.pointee.didStart(code, attributes: attributes, line: line)
                },
                end: { code, text, line throws(TraceFormatError) in
                    try handlerPointer.pointee.didEnd(code, text: text, line: line)
                })
            defer {
                bridge.text.deallocate()
                bridge.cache.deallocate()
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
        let names: [[UInt8]]
        let start: (Int, XMLAttributes, Int) throws(TraceFormatError) -> Void
        let end: (Int, UnsafeBufferPointer<UInt8>, Int) throws(TraceFormatError) -> Void
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

        init(
            file: String, mapping: MappedFile?, names: [String],
            start: @escaping (Int, XMLAttributes, Int) throws(TraceFormatError) -> Void,
            end: @escaping (Int, UnsafeBufferPointer<UInt8>, Int) throws(TraceFormatError) -> Void
        ) {
            self.file = file
            self.mapping = mapping
            self.names = names.map { Array($0.utf8) }
            self.start = start
            self.end = end
            text = .allocate(capacity: 256)
            cache = .allocate(capacity: Bridge.cacheSlots)
            cache.initialize(repeating: (nil, -1))
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
        callbacks.startElementNs = { userData, localName, _, _, _, _, attributeCount, _, attributes in
            guard let state = XMLEventParser.state(of: userData), let localName, !state.pointee.hasFailed else {
                return
            }
            state.pointee.depth += 1
            guard state.pointee.depth <= Bridge.maximumDepth else {
                state.pointee.fail(.nestingTooDeep(limit: Bridge.maximumDepth))
                return
            }
            let code = state.pointee.code(for: localName)
            state.pointee.textCount = 0
            state.pointee.isCapturingText = code >= 0
            guard code >= 0 else { return }
            do throws(TraceFormatError) {
                try state.pointee.start(
                    code, XMLAttributes(pointer: attributes, count: Int(attributeCount)), state.pointee.line)
            } catch {
                state.pointee.fail(error)
            }
        }
        callbacks.endElementNs = { userData, localName, _, _ in
            guard let state = XMLEventParser.state(of: userData), let localName, !state.pointee.hasFailed else {
                return
            }
            state.pointee.depth -= 1
            let code = state.pointee.code(for: localName)
            guard code >= 0 else { return }
            let captured = UnsafeBufferPointer(rebasing: state.pointee.text[0..<state.pointee.textCount])
            do throws(TraceFormatError) {
                try state.pointee.end(code, captured, state.pointee.line)
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
        var offset = 0
        var status: Int32 = 0
        while status == 0, !bridge.pointee.hasFailed {
            let length = min(sliceBytes, count - offset)
            let isLast = offset + length == count
            status = base.advanced(by: offset).withMemoryRebound(to: CChar.self, capacity: length) {
                xmlParseChunk(context, $0, Int32(length), isLast ? 1 : 0)
            }
            offset += length
            // libxml2 has copied what it was given, so the file's pages can go back.
            bridge.pointee.mapping?.release(before: base + offset)
            if isLast { break }
        }

        if bridge.pointee.hasFailed { return bridge.pointee.failure }
        if status != 0 || context.pointee.wellFormed == 0 { return libxmlError(context, file: file) }
        return nil
    }

    private static func libxmlError(_ context: xmlParserCtxtPtr, file: String) -> TraceFormatError {
        guard let error = xmlCtxtGetLastError(context) else {
            return TraceFormatError(file: file, problem: .invalidXML("not well-formed"))
        }
        let message = error.pointee.message.map { String(cString: $0) } ?? "not well-formed"
        var trimmed = message.hasSuffix("\n") ? String(message.dropLast()) : message
        if trimmed.contains("Huge input lookup") || trimmed.contains("length too long") {
            // libxml2's words for a single name, attribute or text over its 10 MB limit.
            trimmed = "a single name, attribute or text is longer than libxml2's 10 MB limit"
        }
        let line = Int(error.pointee.line)
        let column = Int(error.pointee.int2)
        let isTruncated =
            error.pointee.code == XML_ERR_DOCUMENT_END.rawValue
            || trimmed.contains("Premature end") || trimmed.contains("EndTag: '</' not found")
        return TraceFormatError(
            file: file, line: line > 0 ? line : nil, column: column > 0 ? column : nil,
            problem: isTruncated ? .truncated(trimmed) : .invalidXML(trimmed))
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
