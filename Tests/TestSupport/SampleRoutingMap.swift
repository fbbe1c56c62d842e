import Foundation

/// The sample routing map `make map` builds in `.build/map` (central Helsinki, © OpenStreetMap contributors, ODbL).
public enum SampleRoutingMap {
    /// The database folder, or nil when `make map` has not run (tests that need it are skipped, saying so).
    public static let directory: String? = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent(".build/map")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("nodes.mem").path) { return candidate.path }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }()
}
