import CLibXML2

/// Receives the elements an XML trace importer asked for, by code, with their leaf text.
protocol XMLTraceHandler: AnyObject {
    /// An element named `names[code]` opened.
    func didStart(_ code: Int, attributes: XMLAttributes, line: Int) throws(TraceFormatError)
    /// It closed; `text` is its character content (empty for container elements).
    func didEnd(_ code: Int, text: UnsafeBufferPointer<UInt8>, line: Int) throws(TraceFormatError)
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
final class XMLEventParser {
    private let source: TextSource
    private let names: [[UInt8]]
    private unowned let handler: any XMLTraceHandler
    private var context: xmlParserCtxtPtr?
    /// libxml2 interns element names, so a name's pointer identifies it after the first lookup.
    private var codeCache: [(pointer: UnsafePointer<xmlChar>, code: Int)] = []
    private var text: [UInt8] = []
    private var isCapturingText = false
    private var failure: TraceFormatError?

    /// Bytes handed to libxml2 per call, so memory use does not depend on the file's size.
    private static let chunkBytes = 1 << 18

    /// - Parameter names: the local names the handler wants; an element's code is its index here.
    init(source: TextSource, names: [String], handler: any XMLTraceHandler) {
        self.source = source
        self.names = names.map { Array($0.utf8) }
        self.handler = handler
        text.reserveCapacity(256)
    }

    /// Parses the whole document, calling the handler for the named elements.
    func parse() throws(TraceFormatError) {
        // Start from an empty handler: libxml2's default SAX2 callbacks expect the parser
        // context as their user data, and this parser passes itself instead. Only the
        // callbacks set below run; nothing could fetch, load or expand, and the entity and
        // DTD hooks fail the parse.
        var callbacks = xmlSAXHandler()
        callbacks.initialized = XML_SAX2_MAGIC
        callbacks.serror = { _, _ in }
        callbacks.entityDecl = { userData, name, _, _, _, _ in
            XMLEventParser.from(userData)?.fail(.entityDeclaration("the entity declaration '\(XMLEventParser.string(name))'"))
        }
        callbacks.unparsedEntityDecl = { userData, name, _, _, _ in
            XMLEventParser.from(userData)?.fail(.entityDeclaration("the entity declaration '\(XMLEventParser.string(name))'"))
        }
        callbacks.getEntity = { userData, name in
            XMLEventParser.from(userData)?.fail(.entityDeclaration("the entity reference '&\(XMLEventParser.string(name));'"))
            return nil
        }
        callbacks.getParameterEntity = { userData, name in
            XMLEventParser.from(userData)?.fail(.entityDeclaration("the parameter entity '%\(XMLEventParser.string(name));'"))
            return nil
        }
        callbacks.reference = { userData, name in
            XMLEventParser.from(userData)?.fail(.entityDeclaration("the entity reference '&\(XMLEventParser.string(name));'"))
        }
        callbacks.startElementNs = { userData, localName, _, _, _, _, attributeCount, _, attributes in
            guard let localName else { return }
            XMLEventParser.from(userData)?.start(localName, attributes: XMLAttributes(
                pointer: attributes, count: Int(attributeCount)))
        }
        callbacks.endElementNs = { userData, localName, _, _ in
            guard let localName else { return }
            XMLEventParser.from(userData)?.end(localName)
        }
        callbacks.characters = { userData, bytes, length in
            XMLEventParser.from(userData)?.appendText(bytes, Int(length))
        }
        callbacks.cdataBlock = callbacks.characters

        let userData = Unmanaged.passUnretained(self).toOpaque()
        guard let context = xmlCreatePushParserCtxt(&callbacks, userData, nil, 0, source.file) else {
            throw TraceFormatError(file: source.file, problem: .invalidXML("libxml2 could not create a parser"))
        }
        self.context = context
        defer {
            xmlFreeParserCtxt(context)
            self.context = nil
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        xmlCtxtUseOptions(context, options)

        let bytes = source.bytes
        var offset = 0
        var status: Int32 = 0
        repeat {
            let length = min(Self.chunkBytes, bytes.count - offset)
            let isLast = offset + length >= bytes.count
            status = bytes.baseAddress.map { base in
                base.advanced(by: offset).withMemoryRebound(to: CChar.self, capacity: length) {
                    xmlParseChunk(context, $0, Int32(length), isLast ? 1 : 0)
                }
            } ?? -1
            offset += length
        } while status == 0 && failure == nil && offset < bytes.count

        if let failure { throw failure }
        if status != 0 || context.pointee.wellFormed == 0 {
            throw libxmlError(context)
        }
    }

    private func libxmlError(_ context: xmlParserCtxtPtr) -> TraceFormatError {
        guard let error = xmlCtxtGetLastError(context) else {
            return TraceFormatError(file: source.file, problem: .invalidXML("not well-formed"))
        }
        let message = error.pointee.message.map { String(cString: $0) } ?? "not well-formed"
        let trimmed = message.hasSuffix("\n") ? String(message.dropLast()) : message
        let line = Int(error.pointee.line)
        let column = Int(error.pointee.int2)
        let truncated = error.pointee.code == XML_ERR_DOCUMENT_END.rawValue
            || trimmed.contains("Premature end") || trimmed.contains("EndTag: '</' not found")
        return TraceFormatError(
            file: source.file, line: line > 0 ? line : nil, column: column > 0 ? column : nil,
            problem: truncated ? .truncated(trimmed) : .invalidXML(trimmed))
    }

    // MARK: Callbacks

    private static func from(_ userData: UnsafeMutableRawPointer?) -> XMLEventParser? {
        // libxml2 hands back the pointer this parser registered; it outlives the parse.
        userData.map { Unmanaged<XMLEventParser>.fromOpaque($0).takeUnretainedValue() }
    }

    private static func string(_ name: UnsafePointer<xmlChar>?) -> String {
        name.map { String(cString: $0) } ?? ""
    }

    static func equals(_ name: UnsafePointer<xmlChar>, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        let pointer = literal.utf8Start
        for index in 0..<count where name[index] != pointer[index] { return false }
        return name[count] == 0
    }

    private func code(for name: UnsafePointer<xmlChar>) -> Int {
        for entry in codeCache where entry.pointer == name { return entry.code }
        let code = names.firstIndex { candidate in
            candidate.withUnsafeBufferPointer { bytes in
                for index in 0..<bytes.count where name[index] != bytes[index] { return false }
                return name[bytes.count] == 0
            }
        } ?? -1
        if codeCache.count < 64 { codeCache.append((name, code)) }
        return code
    }

    private var line: Int {
        context.map { Int(xmlSAX2GetLineNumber($0)) } ?? 0
    }

    private func fail(_ problem: TraceFormatError.Problem) {
        guard failure == nil else { return }
        failure = TraceFormatError(file: source.file, line: line > 0 ? line : nil, problem: problem)
        if let context { xmlStopParser(context) }
    }

    private func start(_ name: UnsafePointer<xmlChar>, attributes: XMLAttributes) {
        guard failure == nil else { return }
        let code = code(for: name)
        text.removeAll(keepingCapacity: true)
        isCapturingText = code >= 0
        guard code >= 0 else { return }
        do {
            try handler.didStart(code, attributes: attributes, line: line)
        } catch {
            failure = error
            if let context { xmlStopParser(context) }
        }
    }

    private func end(_ name: UnsafePointer<xmlChar>) {
        guard failure == nil else { return }
        let code = code(for: name)
        guard code >= 0 else { return }
        do {
            try text.withUnsafeBufferPointer { buffer throws(TraceFormatError) in
                try handler.didEnd(code, text: buffer, line: line)
            }
        } catch {
            failure = error
            if let context { xmlStopParser(context) }
        }
        text.removeAll(keepingCapacity: true)
        isCapturingText = false
    }

    private func appendText(_ bytes: UnsafePointer<xmlChar>?, _ length: Int) {
        guard isCapturingText, let bytes, length > 0 else { return }
        text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
    }
}
