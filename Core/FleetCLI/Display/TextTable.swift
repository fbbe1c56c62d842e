/// A table of text for people: a header and rows, columns aligned and sized to their widest cell,
/// two spaces apart. Given a width (the terminal's), the widest columns give way first and cells
/// that no longer fit end in `…`. Pure: the same table always gives the same lines.
public struct TextTable: Sendable, Equatable {
    /// Column titles.
    public var header: [String]
    /// The cells, row by row; short rows are padded with empty cells.
    public var rows: [[String]]
    /// Columns whose cells are right-aligned (numbers).
    public var rightAligned: Set<Int>

    /// The narrowest a column is squeezed to when the table must fit a width.
    public static let minimumColumnWidth = 6
    /// The space between columns.
    public static let gap = "  "

    /// A table.
    public init(header: [String], rows: [[String]], rightAligned: Set<Int> = []) {
        self.header = header
        self.rows = rows
        self.rightAligned = rightAligned
    }

    /// Each column's width: its widest cell (header included).
    public var naturalWidths: [Int] {
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        return widths
    }

    /// The widths used for `maxWidth` (nil: no limit): the widest columns shrink one character at a
    /// time, none below `minimumColumnWidth` (or its header, when shorter).
    public func widths(maxWidth: Int?) -> [Int] {
        var widths = naturalWidths
        guard let maxWidth, !widths.isEmpty else { return widths }
        let floor = header.map { min(Self.minimumColumnWidth, max($0.count, 1)) }
        var total = widths.reduce(0, +) + Self.gap.count * (widths.count - 1)
        while total > maxWidth {
            guard let widest = widths.indices.filter({ widths[$0] > floor[$0] }).max(by: { widths[$0] < widths[$1] }) else { break }
            widths[widest] -= 1
            total -= 1
        }
        return widths
    }

    /// The table as lines (header first), fitted to `maxWidth` when given; `headerStyle` decorates
    /// the header line after alignment (bold on a terminal).
    public func lines(maxWidth: Int? = nil, headerStyle: (String) -> String = { $0 }) -> [String] {
        let widths = widths(maxWidth: maxWidth)
        var lines = [headerStyle(line(header, widths: widths))]
        for row in rows { lines.append(line(row, widths: widths)) }
        return lines
    }

    private func line(_ cells: [String], widths: [Int]) -> String {
        var parts: [String] = []
        for (index, width) in widths.enumerated() {
            let cell = Self.fitted(index < cells.count ? cells[index] : "", width: width)
            let padding = String(repeating: " ", count: width - cell.count)
            if rightAligned.contains(index) {
                parts.append(padding + cell)
            } else {
                parts.append(index == widths.count - 1 ? cell : cell + padding)
            }
        }
        var text = parts.joined(separator: Self.gap)
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }

    /// `text` cut to `width` characters, ending in `…` when cut.
    public static func fitted(_ text: String, width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(width)) }
        return String(text.prefix(width - 1)) + "…"
    }
}
