/// Writes one inline `<svg>` element for the HTML reports: each shape is an element name, its
/// attributes and optional content, so no report concatenates markup by hand and every
/// attribute value is escaped the same way.
struct SVGWriter {
    private var text: String

    /// Opens `<svg class="…" viewBox="0 0 width height">`; the drawing's units are the viewBox's.
    init(class name: String, width: Double, height: Double) {
        text =
            "<svg class=\"\(HTMLReport.escape(name))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" "
            + "xmlns=\"http://www.w3.org/2000/svg\">"
    }

    /// Appends `<name a="v"…/>`, or `<name a="v"…>content</name>` when there is content.
    /// `content` is markup: escape text with `HTMLReport.escape` or use `title(_:)`.
    mutating func add(_ name: String, _ attributes: [(String, String)], content: String? = nil) {
        text += "<" + name
        for (key, value) in attributes { text += " " + key + "=\"" + HTMLReport.escape(value) + "\"" }
        if let content {
            text += ">" + content + "</" + name + ">"
        } else {
            text += "/>"
        }
    }

    /// The closed element.
    var finished: String { text + "</svg>" }

    /// A coordinate or length with one decimal, as every drawing writes them.
    static func number(_ value: Double) -> String { Formatting.fixed(value, 1) }

    /// A tooltip: `<title>` with `text` escaped.
    static func title(_ text: String) -> String { "<title>" + HTMLReport.escape(text) + "</title>" }
}
