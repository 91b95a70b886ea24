extension TextSource {
    /// Refuses UTF-16 and UTF-32 text by name. Every format TraceSim reads is UTF-8 (or
    /// ASCII), and read byte by byte a wide encoding only shows a NUL byte, which would say
    /// "binary file" about a file that is text in the wrong encoding.
    ///
    /// Recognised by a byte-order mark, or without one by the NUL bytes that pad the first
    /// two ASCII characters (`<?`, `$G`, `ti`) in the wide encodings; other NUL bytes are
    /// left to `checkIsText`.
    func checkIsNotWideText() throws(TraceFormatError) {
        guard let encoding = Self.wideEncoding(bytes) else { return }
        throw error(line: 1, .unexpectedContent("\(encoding) text is not supported; convert the file to UTF-8"))
    }

    static func wideEncoding(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.count >= 2 else { return nil }
        if bytes.count >= 4 {
            let head = (bytes[0], bytes[1], bytes[2], bytes[3])
            if head == (0xFF, 0xFE, 0, 0) || head == (0, 0, 0xFE, 0xFF) { return "UTF-32" }
            if isASCII(head.0), head.1 == 0, head.2 == 0, head.3 == 0 { return "UTF-32" }
            if head.0 == 0, head.1 == 0, head.2 == 0, isASCII(head.3) { return "UTF-32" }
            if isASCII(head.0), head.1 == 0, isASCII(head.2), head.3 == 0 { return "UTF-16" }
            if head.0 == 0, isASCII(head.1), head.2 == 0, isASCII(head.3) { return "UTF-16" }
        }
        if (bytes[0], bytes[1]) == (0xFF, 0xFE) || (bytes[0], bytes[1]) == (0xFE, 0xFF) { return "UTF-16" }
        return nil
    }

    /// A printable ASCII character or whitespace: what the formats' first characters are.
    private static func isASCII(_ byte: UInt8) -> Bool {
        (0x20...0x7E).contains(byte) || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
