import FleetConcurrency
import Foundation

/// A TCP relay that holds every chunk it passes on for `delay` seconds in each direction: the
/// network delay `fleet-bench nodes` puts between a node and PostgreSQL where the kernel has no
/// `tc netem` (`sch_netem`). It listens and connects inside a network namespace (entered by the
/// thread that makes its sockets), runs in this process, outside every CPU quota, and holds chunks
/// as a link would: later bytes are not held behind earlier ones beyond their own delay.
///
/// Its threads run under the real-time policy (`SCHED_FIFO`, lowest priority), ahead of every
/// ordinary thread of the host, as root may ask: a link's delay does not grow when the host is
/// busy. As ordinary threads on two busy cores (load 16–21), each of a round trip's four hand-offs
/// waited for a core behind the host's other work: a node behind the relay at 0.2 CPU left a
/// fifth of its quota unused, held up by round trips, not by its CPU.
final class DelayRelay: @unchecked Sendable {
    private let listener: Int32
    private let delay: Double
    /// Whether the relay's threads run ahead of ordinary threads (false: the system refused).
    let isRealTime: Bool
    private let lock = Lock()
    private var sockets: [Int32] = []

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Listens on `address:port` in namespace `namespace` (`ip netns` name) and relays each
    /// connection to `address:target` with `delay` seconds each way.
    init(namespace: String, address: String, port: UInt16, target: UInt16, delay: Double) throws {
        self.delay = delay
        // The namespace is entered by a thread of its own, which stays there and accepts.
        let outcome = Handoff<Result<(Int32, Bool), Failure>>()
        WorkerThread.start(name: "relay-listen") {
            outcome.give(Result { () throws(Failure) -> (Int32, Bool) in
                try Self.enter(namespace)
                return (try Self.listen(address, port), Self.runAheadOfOrdinaryThreads())
            })
        }
        (listener, isRealTime) = try outcome.take().get()
        WorkerThread.start(name: "relay-accept") { [self] in
            // Accepting on a thread in the namespace, so that its connections to PostgreSQL are made there.
            try? Self.enter(namespace)
            _ = Self.runAheadOfOrdinaryThreads()
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { if errno == EINTR { continue } else { break } }
                guard let server = try? Self.connect(address, target) else { close(client); continue }
                var yes: Int32 = 1
                setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
                track([client, server])
                pump(from: client, to: server)
                pump(from: server, to: client)
            }
        }
    }

    /// Stops accepting and closes every relayed connection.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        lock.lock()
        let open = sockets
        sockets = []
        lock.unlock()
        for socket in open { shutdown(socket, Int32(SHUT_RDWR)) }
    }

    private func track(_ added: [Int32]) {
        lock.lock()
        sockets += added
        lock.unlock()
    }

    /// Reads chunks from `source` and writes each to `destination` `delay` after it arrived.
    private func pump(from source: Int32, to destination: Int32) {
        let chunks = WaitableState((queue: [(due: UInt64, bytes: [UInt8])](), ended: false))
        let delayNanoseconds = UInt64(delay * 1e9)
        WorkerThread.start(name: "relay-receive") {
            _ = Self.runAheadOfOrdinaryThreads()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(source, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                chunks.update { chunks in
                    if count <= 0 { chunks.ended = true } else {
                        chunks.queue.append((DispatchTime.now().uptimeNanoseconds + delayNanoseconds, Array(buffer[0..<count])))
                    }
                }
                if count <= 0 { break }
            }
        }
        WorkerThread.start(name: "relay-send") {
            _ = Self.runAheadOfOrdinaryThreads()
            while true {
                let next = chunks.wait(until: { !$0.queue.isEmpty || $0.ended }) { chunks, _ in
                    chunks.queue.isEmpty ? nil : chunks.queue.removeFirst()
                }
                guard let (due, bytes) = next else { break }
                let now = DispatchTime.now().uptimeNanoseconds
                if due > now { usleep(UInt32((due - now) / 1000)) }
                var offset = 0
                while offset < bytes.count {
                    // MSG_NOSIGNAL: a peer gone is an error here, not SIGPIPE for the whole process.
                    let written = bytes[offset...].withUnsafeBytes { send(destination, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if written < 0 && errno == EINTR { continue }
                    if written <= 0 { break }
                    offset += written
                }
                if offset < bytes.count { break }
            }
            // One side is done: end both directions.
            shutdown(source, Int32(SHUT_RDWR))
            shutdown(destination, Int32(SHUT_RDWR))
        }
    }

    /// Puts the calling thread under `SCHED_FIFO` at the lowest real-time priority (on Linux, process
    /// ID 0 names the calling thread alone); false when refused.
    private static func runAheadOfOrdinaryThreads() -> Bool {
        var parameter = sched_param()
        parameter.sched_priority = 1
        return sched_setscheduler(0, SCHED_FIFO, &parameter) == 0
    }

    /// Moves the calling thread into network namespace `name` (`setns`, looked up at run time:
    /// Swift's Glibc module does not declare it).
    private static func enter(_ name: String) throws(Failure) {
        typealias SetNS = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "setns") else {
            throw Failure(description: "setns is not available")
        }
        let fd = open("/run/netns/\(name)", O_RDONLY)
        guard fd >= 0 else { throw Failure(description: "/run/netns/\(name): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard unsafeBitCast(symbol, to: SetNS.self)(fd, 0x4000_0000) == 0 else {  // CLONE_NEWNET
            throw Failure(description: "setns \(name): \(String(cString: strerror(errno)))")
        }
    }

    private static func address(_ host: String, _ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        return address
    }

    private static func listen(_ host: String, _ port: UInt16) throws(Failure) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = address(host, port)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard fd >= 0, bound == 0, Glibc.listen(fd, 128) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "relay on \(host):\(port): \(message)")
        }
        return fd
    }

    private static func connect(_ host: String, _ port: UInt16) throws(Failure) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = address(host, port)
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard fd >= 0, connected == 0 else {
            close(fd)
            throw Failure(description: "relay to \(host):\(port): \(String(cString: strerror(errno)))")
        }
        var yes: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }
}
