import FleetCLI
import FleetModel

/// Prints results in the chosen `OutputFormat`: single resources as a `KeyValueBlock` or JSON,
/// lists as a `TextTable`, a JSON array or JSON lines.
struct ResourcePrinter: Sendable {
    /// Where results go.
    let output: any TextOutput
    /// Table, JSON or JSON lines.
    let format: OutputFormat
    /// Bold headers and dim labels on a terminal, plain otherwise.
    let style: Style
    /// The width tables fit (the terminal's), or nil for their natural width.
    let width: Int?

    /// One resource: its `details` block, indented JSON, or one JSON line.
    func single<Message: ProtoMessage>(_ message: Message, details: (Message) -> KeyValueBlock) {
        switch format {
        case .table: write(details(message).lines(labelStyle: style.dim))
        case .json: output.write(message.toJSON().prettyPrinted() + "\n")
        case .jsonLines: output.write(message.jsonString() + "\n")
        }
    }

    /// A JSON value that is not a resource (a summary, statistics): indented or one line; for
    /// tables, `tableLines` instead.
    func value(_ json: JSON, tableLines: () -> [String]) {
        switch format {
        case .table: write(tableLines())
        case .json: output.write(json.prettyPrinted() + "\n")
        case .jsonLines: output.write(json.serialized() + "\n")
        }
    }

    /// A list printed as it arrives (see `ListWriter`).
    func list<Message: ProtoMessage>(of _: Message.Type, table: @escaping @Sendable ([Message]) -> TextTable) -> ListWriter<Message> {
        ListWriter(printer: self, table: table)
    }

    /// Writes lines, each ended by a new line.
    func write(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        output.write(lines.joined(separator: "\n") + "\n")
    }
}

/// Prints a list one page at a time: JSON lines and JSON array elements go out as they arrive (a
/// long list streams through a pipe), a table waits for every row to size its columns.
final class ListWriter<Message: ProtoMessage> {
    private let printer: ResourcePrinter
    private let table: @Sendable ([Message]) -> TextTable
    private var rows: [Message] = []
    private var count = 0

    /// A writer printing through `printer`; `table` lays out the rows for the table format.
    init(printer: ResourcePrinter, table: @escaping @Sendable ([Message]) -> TextTable) {
        self.printer = printer
        self.table = table
    }

    /// How many items were added.
    var itemCount: Int { count }

    /// Adds items (prints them now for JSON and JSON lines).
    func add(_ items: [Message]) {
        for item in items {
            switch printer.format {
            case .table:
                rows.append(item)
            case .json:
                let element = item.toJSON().prettyPrinted().split(separator: "\n", omittingEmptySubsequences: false)
                    .map { "  " + $0 }.joined(separator: "\n")
                printer.output.write((count == 0 ? "[\n" : ",\n") + element)
            case .jsonLines:
                printer.output.write(item.jsonString() + "\n")
            }
            count += 1
        }
    }

    /// Ends the list: the table, or the JSON array's closing bracket (`[]` when empty).
    func finish() {
        switch printer.format {
        case .table:
            printer.write(table(rows).lines(maxWidth: printer.width, headerStyle: printer.style.bold))
        case .json:
            printer.output.write(count == 0 ? "[]\n" : "\n]\n")
        case .jsonLines:
            break
        }
    }
}
