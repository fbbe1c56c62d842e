import Foundation

/// Inputs on disk: a corpus folder per target (`Tests/Fuzz/corpus/<target>/`), replayed without
/// libFuzzer by the test suite and by `fleet-fuzz TARGET PATH…`.
public enum FuzzCorpus {
    public struct Unreadable: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "cannot read \(path)" }
    }

    /// The files at `paths` (files, or every regular file of a folder, sorted), with their bytes.
    public static func inputs(at paths: [String]) throws -> [(path: String, bytes: [UInt8])] {
        var found: [(String, [UInt8])] = []
        let manager = FileManager.default
        for path in paths {
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isFolder) else { throw Unreadable(path: path) }
            let files = isFolder.boolValue
                ? try manager.contentsOfDirectory(atPath: path).sorted().map { "\(path)/\($0)" }.filter { !$0.hasSuffix("/README.md") }
                : [path]
            for file in files {
                guard let data = manager.contents(atPath: file) else { throw Unreadable(path: file) }
                found.append((file, Array(data)))
            }
        }
        return found
    }

    /// Runs `target` once over every input at `paths`; returns how many ran.
    @discardableResult
    public static func replay(_ target: FuzzTarget, paths: [String]) throws -> Int {
        let inputs = try inputs(at: paths)
        for input in inputs {
            input.bytes.withUnsafeBytes { target.run($0) }
        }
        return inputs.count
    }
}
