extension XMLValues {
    /// The most characters of a track's name or kind kept: enough to recognise it, bounded
    /// so a hostile file cannot make every report line huge.
    static let maximumLabelCharacters = 120

    /// A track's name or kind as text: trimmed, line breaks and other controls turned into
    /// spaces (it is printed on one line), cut to `maximumLabelCharacters`; `nil` when empty.
    static func label(_ text: UnsafeBufferPointer<UInt8>) -> String? {
        let trimmed = trimmed(text)
        guard !trimmed.isEmpty else { return nil }
        let scalars = String(decoding: trimmed, as: UTF8.self).unicodeScalars.prefix(maximumLabelCharacters)
        return String(String.UnicodeScalarView(scalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }
}
