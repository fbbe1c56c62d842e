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
