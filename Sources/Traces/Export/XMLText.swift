/// Text placed in an XML element by the exporters (track names and kinds read from a file).
enum XMLText {
    /// `text` with the characters XML gives meaning to replaced by references. Scalars, not
    /// characters: `&` followed by a combining accent is one Swift character but still an
    /// ampersand to an XML parser. Line breaks and tabs are written as references so they
    /// survive a parser's normalisation.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            case "\t": result += "&#9;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
