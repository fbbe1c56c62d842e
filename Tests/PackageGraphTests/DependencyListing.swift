/// The package's targets and their direct dependencies as docs/architecture.md lists them, between
/// `<!-- targets:begin -->` and `<!-- targets:end -->`: written from `Package.swift`, never by hand.
struct DependencyListing {
    /// The modules nearly everything uses, left out of every line so the lines say what is particular.
    static let leftOut: Set<String> = ["FleetErrors", "FleetJSON", "FleetRandom", "FleetBackoff", "FleetConcurrency", "HTTPCore"]

    static let begin = "<!-- targets:begin -->"
    static let end = "<!-- targets:end -->"

    let graph: ModuleGraph

    /// The listing: one line per target but tests, grouped by top folder (Core, Plugins, Executables,
    /// Tests), `name ──► dependencies`, in a code block.
    var markdown: String {
        var lines = [Self.begin, "```"]
        let groups: [(folder: String, title: String)] = [
            ("Core/", "Core (protocols, values and the engine over them)"),
            ("Plugins/", "Plugins (C libraries, network, disk, wiring)"),
            ("Executables/", "Executables (thin: parse, wire, call, print)"),
            ("Tests/", "Test support"),
        ]
        for (folder, title) in groups {
            let members = graph.targets.values
                .filter { $0.path.hasPrefix(folder) && $0.type != "test" }
                .sorted { $0.name < $1.name }
            guard !members.isEmpty else { continue }
            if lines.count > 2 { lines.append("") }
            lines.append(title)
            let width = members.map(\.name.count).max() ?? 0
            for target in members {
                let shown = target.dependencies.filter { !Self.leftOut.contains($0) }.sorted()
                let padded = target.name + String(repeating: " ", count: width - target.name.count)
                lines.append(shown.isEmpty ? "  \(target.name)" : "  \(padded) ──► \(shown.joined(separator: ", "))")
            }
        }
        lines += ["```", Self.end]
        return lines.joined(separator: "\n")
    }

    /// `document` with its listing replaced by this one; nil when it has no markers.
    func replacing(in document: String) -> String? {
        guard let start = document.range(of: Self.begin), let stop = document.range(of: Self.end),
              start.lowerBound < stop.lowerBound else { return nil }
        return document.replacingCharacters(in: start.lowerBound..<stop.upperBound, with: markdown)
    }
}
