#if canImport(Glibc)
import Glibc
#endif

/// Writes lines to file descriptor 1 with one `write(2)` per call, unbuffered, so that what the
/// crasher printed is in the pipe the moment the call returns (and a group of lines is never split
/// by a kill: pipe writes up to PIPE_BUF bytes are atomic).
enum StandardOutput {
    static func write(lines: [String]) {
        let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress! + done, bytes.count - done) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { exit(3) }
            done += count
        }
    }
}
