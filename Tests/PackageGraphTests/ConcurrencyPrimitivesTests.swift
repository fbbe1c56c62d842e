import Foundation
import Testing

/// Locks, conditions, semaphores and threads come from FleetConcurrency (`Lock`, `Locked`,
/// `ReadWriteLock`, `WaitableState`, `Doorbell`, `Semaphore`, `Handoff`, `WorkerThread`, `ThreadID`):
/// product code (Core, Plugins, Executables) uses none of Foundation's, Dispatch's or pthread's own.
/// The standard library's `Synchronization.Mutex` and `Atomic` stay allowed (see `Lock` for when a
/// plain mutex is the better choice), and so do Dispatch queues and timers.
struct ConcurrencyPrimitivesTests {
    /// What only FleetConcurrency uses, each with what to use instead.
    static let forbidden: [(pattern: String, instead: String)] = [
        (#"\bNS(Recursive)?Lock\b"#, "Lock or Locked"),
        (#"\bNSCondition(Lock)?\b"#, "WaitableState, Doorbell or Mailbox"),
        (#"\bDispatchSemaphore\b"#, "Semaphore or Handoff"),
        (#"\bos_unfair_lock"#, "Lock"),
        (#"\bpthread_(mutex|cond|rwlock|spin)"#, "Lock, ReadWriteLock or WaitableState"),
        (#"\bpthread_(create|join|detach)\b"#, "WorkerThread"),
        (#"\bpthread_(self|equal)\b"#, "ThreadID"),
        (#"\bpthread_(key_create|getspecific|setspecific)\b"#, "ThreadMark or WaitingCaller"),
        (#"(?<![\w.])Thread\s*(\{|\((block|target)\b|\(\))"#, "WorkerThread.start(name:)"),
        (#"\bThread\.detachNewThread\b"#, "WorkerThread.start(name:)"),
        (#"\bThread\.current\b"#, "ThreadID or ThreadMark"),
    ]

    /// Files that keep a primitive of their own, and why.
    static let exceptions: [(path: String, why: String)] = [
        ("Core/FleetConcurrency/", "the primitives themselves"),
        ("Plugins/Transports/HTTPClient/Curl/CurlShare.swift",
         "libcurl locks and unlocks in two C callbacks that get only a raw pointer: a C array of pthread mutexes"),
    ]

    /// `forbidden`, compiled once.
    static let expressions = forbidden.map { (expression: try! NSRegularExpression(pattern: $0.pattern), instead: $0.instead) }

    /// Each use of a forbidden primitive in `text` (comments left out), as "line: what to use instead".
    static func violations(in text: String) -> [String] {
        var found: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = String(line.firstRange(of: "//").map { line[..<$0.lowerBound] } ?? line)
            // Most lines name no thread, lock or semaphore at all: skip them before any expression runs.
            guard ["Thread", "Lock", "Condition", "Semaphore", "pthread_", "lock"].contains(where: code.contains) else { continue }
            let range = NSRange(code.startIndex..., in: code)
            for (expression, instead) in expressions where expression.firstMatch(in: code, range: range) != nil {
                found.append("\(number + 1): \(line.trimmingCharacters(in: .whitespaces)) (use \(instead))")
            }
        }
        return found
    }

    @Test func productCodeTakesItsLocksAndThreadsFromFleetConcurrency() throws {
        let root = ModuleGraphTests.packageFolder
        var found: [String] = []
        var scanned = 0
        for folder in ["Core", "Plugins", "Executables"] {
            let base = root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where file.pathExtension == "swift" {
                let path = String(file.path.dropFirst(root.path.count + 1))
                if Self.exceptions.contains(where: { path.hasPrefix($0.path) }) { continue }
                scanned += 1
                for violation in Self.violations(in: try String(contentsOf: file, encoding: .utf8)) {
                    found.append("\(path):\(violation)")
                }
            }
        }
        #expect(scanned > 100, "the scan found the sources (\(scanned) files)")
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// The scan finds what it is there to find, and leaves alone what is allowed.
    @Test func theScanFindsEachPrimitiveAndSparesCommentsAndTheAllowedOnes() {
        let caught = [
            "let lock = NSLock()", "let c = NSCondition()", "let s = DispatchSemaphore(value: 0)",
            "pthread_mutex_lock(m)", "pthread_rwlock_rdlock(h)", "let me = pthread_self()",
            "let t = Thread { work() }", "Thread.detachNewThread { work() }", "let t = Thread(block: work)",
            "Thread.current.threadDictionary[key] = true", "pthread_key_create(&key, nil)",
        ]
        for line in caught {
            #expect(Self.violations(in: line).count == 1, "\(line)")
        }
        let allowed = [
            "// An NSLock was slower here", "let state = Mutex(0)", "let lock = Lock()", "WorkerThread.start(name: \"w\") { }",
            "Thread.sleep(forTimeInterval: 0.1)", "let queue = DispatchQueue(label: \"q\")", "pthread_sigmask(SIG_UNBLOCK, &set, nil)",
            "let thread = ThreadID.current", "var reader: WorkerThread?", "let stopFeedThread = true",
        ]
        for line in allowed {
            #expect(Self.violations(in: line).isEmpty, "\(line)")
        }
    }
}
