import Foundation

/// A tmux server of the test's own (its own socket, so the developer's sessions are never touched)
/// with one session running a shell in a terminal of a given size: keys are sent to it and its screen
/// is read back, as a person would type and see.
final class Tmux {
    /// Whether tmux is installed (`make setup` installs it).
    static let isAvailable: Bool = {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.contains { FileManager.default.isExecutableFile(atPath: "\($0)/tmux") }
    }()

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let socket = "consumer-follow-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    let session = "follow"

    /// Starts a `width` × `height` terminal running `/bin/sh` with the prompt `ready$ `.
    init(width: Int = 100, height: Int = 30) throws {
        try run(["-f", "/dev/null", "new-session", "-d", "-s", session, "-x", "\(width)", "-y", "\(height)",
                 "env", "-i", "PATH=\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")", "LANG=C.UTF-8",
                 "TERM=tmux-256color", "PS1=ready$ ", "/bin/sh"])
    }

    deinit {
        // The shell in the pane may ignore SIGHUP (inherited from whatever started the tests), and the
        // server then outlives kill-server: end the pane's process and the server by their IDs.
        let pids = (try? run(["display-message", "-p", "-t", session, "#{pane_pid} #{pid}"]))?
            .split(separator: " ").compactMap { pid_t($0.filter(\.isNumber)) } ?? []
        _ = try? run(["kill-server"])
        for pid in pids where pid > 1 { kill(pid, SIGKILL) }
        unlink("/tmp/tmux-\(getuid())/\(socket)")
    }

    /// Types `text` followed by Enter.
    func type(_ text: String) throws {
        try run(["send-keys", "-t", session, "-l", text])
        try run(["send-keys", "-t", session, "Enter"])
    }

    /// Presses a key by tmux's name for it (`C-c`).
    func press(_ key: String) throws {
        try run(["send-keys", "-t", session, key])
    }

    /// The visible screen, one string per line, trailing spaces removed.
    func screen() throws -> [String] {
        try run(["capture-pane", "-p", "-t", session])
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0.reversed().drop { $0 == " " }.reversed()) }
    }

    /// Whether the cursor is visible (`#{cursor_flag}`).
    func cursorVisible() throws -> Bool {
        try run(["display-message", "-p", "-t", session, "#{cursor_flag}"]).hasPrefix("1")
    }

    /// Waits until `predicate` holds for the screen (at most `timeout` seconds: a safety net, not a
    /// pace; the screen is read every 50 ms); returns the last screen read and whether it held.
    func waitForScreen(timeout: Double = 20, _ predicate: ([String]) -> Bool) throws -> (screen: [String], matched: Bool) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var last = try screen()
        while !predicate(last) {
            guard Date() < deadline else { return (last, false) }
            usleep(50_000)
            last = try screen()
        }
        return (last, true)
    }

    /// Runs a tmux command on this server and returns what it printed.
    ///
    /// Spawned and reaped directly (posix_spawn, waitpid) rather than with Foundation's `Process`, whose
    /// termination watch never saw `new-session`'s client exit (it forks the daemonised server); the
    /// output goes through a file, since the server keeps the client's descriptors open.
    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString).out").path
        defer { unlink(file) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = (["tmux", "-L", socket] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, "tmux", &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "could not start tmux: error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed (\(status)): \(text)")
        }
        return text
    }
}
