import Permissions

extension HTMLReport {
    /// The wizard's run as frames, one per page shown or skipped, with what happened on it.
    static func storyboard(_ steps: [PermissionsWizard.Step]) -> String {
        var frames: [(title: String, kind: String, lines: [String])] = []
        for step in steps {
            let time = Formatting.fixed(step.atSeconds, 0) + " s"
            switch step.kind {
            case .pageShown(_, let title): frames.append((title, "page", ["\(time)"]))
            case .pageSkipped(let page, let reason): frames.append((page.rawValue, "skipped", ["skipped: \(reason)"]))
            case .closed(let granted):
                frames.append(("closed", granted ? "granted" : "refused", [granted ? "granted" : "not granted"]))
            case .notPresented(let reason): frames.append(("not presented", "skipped", [reason]))
            case .tapped(let button): append("tapped \(button)")
            case .promptShown(let kind): append("prompt: \(kind.name)")
            case .promptNotShown(let kind, let rule): append("no \(kind.name) prompt (\(rule.rawValue))")
            case .statusRow(let title, let text, let satisfied): append((satisfied ? "✓ " : "✗ ") + title + ": " + text)
            case .settingsOpened: append("opened Settings")
            }
        }
        func append(_ line: String) {
            if frames.isEmpty { frames.append(("", "page", [])) }
            frames[frames.count - 1].lines.append(line)
        }
        let frame = (width: 170.0, height: 170.0, gap: 16.0)
        let perRow = 5
        let rows = (frames.count + perRow - 1) / perRow
        let f = SVGWriter.number
        var svg = SVGWriter(
            class: "storyboard", width: Double(perRow) * (frame.width + frame.gap),
            height: Double(max(rows, 1)) * (frame.height + frame.gap))
        for (index, item) in frames.enumerated() {
            let x = Double(index % perRow) * (frame.width + frame.gap) + 2
            let y = Double(index / perRow) * (frame.height + frame.gap) + 2
            svg.add(
                "rect",
                [
                    ("class", "frame \(item.kind)"), ("x", f(x)), ("y", f(y)), ("width", String(Int(frame.width))),
                    ("height", String(Int(frame.height))), ("rx", "14"),
                ])
            svg.add(
                "text", [("class", "frame-title"), ("x", f(x + 10)), ("y", f(y + 24))],
                content: escape(String(item.title.prefix(22))))
            for (line, text) in item.lines.prefix(7).enumerated() {
                svg.add(
                    "text", [("class", "frame-line"), ("x", f(x + 10)), ("y", f(y + 46 + Double(line) * 17))],
                    content: escape(String(text.prefix(26))) + SVGWriter.title(text))
            }
        }
        return svg.finished
    }
}
