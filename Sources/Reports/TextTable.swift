/// The one writer of aligned text columns: every table and labelled block the reports print
/// for a terminal is padded here.
package struct TextTable {
    /// How a column's cells are padded to the widest one.
    package enum Alignment {
        case left
        case right
        /// Not padded: for a last column of free text.
        case unpadded
    }

    package var rows: [[String]]
    package var alignments: [Alignment]
    /// Written before every line.
    package var indent = ""
    package var separator = "  "
    /// A line of `-` as long as the header under the first row.
    package var rulesHeader = false
    package var trimsTrailingSpaces = false

    package init(_ rows: [[String]], alignments: [Alignment]) {
        self.rows = rows
        self.alignments = alignments
    }

    package var rendered: String {
        let widths = alignments.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.enumerated().map { index, cells in
            var line = cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: max(widths[column] - cell.count, 0))
                return switch alignments[column] {
                case .left: cell + padding
                case .right: padding + cell
                case .unpadded: cell
                }
            }.joined(separator: separator)
            if trimsTrailingSpaces {
                while line.last == " " { line.removeLast() }
            }
            line = indent + line
            return index == 0 && rulesHeader ? line + "\n" + String(repeating: "-", count: line.count) : line
        }.joined(separator: "\n")
    }
}
