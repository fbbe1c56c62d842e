import Foundation
import Testing
@testable import FleetErrors
import FleetCatalogue

/// The repository's root: the nearest folder above this file (symbolic links resolved) that
/// holds Package.swift and docs/.
func repositoryRoot(file: String = #filePath) throws -> URL {
    var folder = URL(fileURLWithPath: file).resolvingSymlinksInPath().deletingLastPathComponent()
    while folder.path != "/" {
        let manager = FileManager.default
        if manager.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
           manager.fileExists(atPath: folder.appendingPathComponent("docs").path) {
            return folder
        }
        folder = folder.deletingLastPathComponent()
    }
    throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Package.swift and docs/ above \(file)"])
}

struct DocumentationTests {
    /// The catalogue as the executables see it: every module\'s causes composed in.
    init() { ProductCauses.install() }

    @Test func errorsMarkdownIsTheGeneratedCatalogue() throws {
        let url = try repositoryRoot().appendingPathComponent("docs/errors.md")
        let onDisk = try String(contentsOf: url, encoding: .utf8)
        #expect(onDisk == CatalogueMarkdown.document(),
                "docs/errors.md is stale: run `.build/debug/error-explain --markdown > docs/errors.md`")
    }

    @Test func exitCodesMarkdownHoldsTheGeneratedTable() throws {
        let url = try repositoryRoot().appendingPathComponent("docs/exit-codes.md")
        let onDisk = try String(contentsOf: url, encoding: .utf8)
        #expect(onDisk.contains(ExitCode.markdownTable), "docs/exit-codes.md must contain ExitCode.markdownTable")
    }

    @Test func markdownCoversEveryCodeCauseAndStatus() {
        let document = CatalogueMarkdown.document()
        for entry in ErrorCatalogue.entries { #expect(document.contains("`\(entry.name)`")) }
        for cause in ErrorCatalogue.causes { #expect(document.contains("`\(cause.id)`")) }
        for mapping in HTTPStatusMapping.table { #expect(document.contains("| \(mapping.status) |")) }
        for decision in ErrorCatalogue.decisions { #expect(document.contains(decision)) }
    }

    @Test func markdownTableRowsHaveTheirColumnCount() {
        for line in CatalogueMarkdown.document().split(separator: "\n") where line.hasPrefix("|") {
            var cells = 0
            var previous: Character = " "
            for character in line {
                if character == "|" && previous != "\\" { cells += 1 }
                previous = character
            }
            #expect([4, 5].contains(cells), "row: \(line)")
        }
    }
}

/// Every cause a module declares (`public static let NAME = ErrorCause(id: "ID", …)` anywhere under Core/
/// or Plugins/) is in the product's catalogue, with a summary and a remedy: a cause left out of its
/// module's `…Causes.all`, or a module's list left out of `ProductCauses.all`, fails here.
struct DeclaredCausesTests {
    init() { ProductCauses.install() }

    static func declaredIDs() throws -> [String: String] {
        let root = try repositoryRoot()
        var found: [String: String] = [:]
        for folder in ["Core", "Plugins"] {
            let base = root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in files where url.pathExtension == "swift" {
                let text = try String(contentsOf: url, encoding: .utf8)
                var rest = text[...]
                while let declaration = rest.range(of: "= ErrorCause(") {
                    let after = rest[declaration.upperBound...]
                    if let idStart = after.range(of: "id: \""), let idEnd = after[idStart.upperBound...].firstIndex(of: "\"") {
                        found[String(after[idStart.upperBound..<idEnd])] = url.lastPathComponent
                    }
                    rest = after
                }
            }
        }
        return found
    }

    @Test func everyDeclaredCauseIsListedAndExplained() throws {
        let declared = try Self.declaredIDs()
        #expect(declared.count > 50, "the scan found the declarations")
        let listed = Dictionary(ErrorCatalogue.causes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (id, file) in declared.sorted(by: { $0.key < $1.key }) {
            guard let cause = listed[id] else {
                Issue.record("\(id) (\(file)) is declared but not in the catalogue: add it to its module's …Causes.all")
                continue
            }
            #expect(!cause.summary.isEmpty && !cause.remedy.isEmpty, "\(id) needs a summary and a remedy")
        }
    }
}
