import FleetErrors
import FleetConcurrency

/// The `gpsd://HOST:PORT` source: connects to gpsd, asks for JSON reports (`?WATCH`), and turns TPV
/// fixes into samples. When gpsd closes the connection or cannot be reached (restarted, not yet
/// started), the feed reconnects after 1 s, doubling up to 30 s of real time; it never ends by itself.
public struct GPSDFeed: LocationFeed {
    /// The host gpsd listens on.
    public let host: String
    /// Its port (gpsd's default is 2947).
    public let port: Int
    /// The first wait before reconnecting, real seconds.
    public let initialRetrySeconds: Double
    /// The longest wait before reconnecting, real seconds.
    public let maximumRetrySeconds: Double

    /// A feed from gpsd at `host`:`port`.
    public init(host: String, port: Int = 2947, initialRetrySeconds: Double = 1, maximumRetrySeconds: Double = 30) {
        self.host = host
        self.port = port
        self.initialRetrySeconds = initialRetrySeconds
        self.maximumRetrySeconds = maximumRetrySeconds
    }

    /// `gpsd HOST:PORT`, for logs.
    public var description: String { "gpsd \(host):\(port)" }

    /// Runs the feed on the calling thread until its input ends or it is cancelled.
    public func run(into sink: any LocationSink, time: any TimeSource, cancellation: Cancellation) -> FeedEnd {
        var earlier = DecoderStatistics()
        var retry = initialRetrySeconds
        while !cancellation.isCancelled {
            var decoder = GPSDDecoder()
            do {
                let connection = try TCPConnection(host: host, port: port, timeoutSeconds: 5)
                try connection.send(GPSDDecoder.watchCommand)
                sink.feedEvent(.connected(description))
                var lines = LineSplitter()
                var reported = decoder.statistics
                reading: while !cancellation.isCancelled {
                    switch DescriptorReader.read(connection.descriptor, timeoutMilliseconds: 200) {
                    case .bytes(let bytes):
                        for line in lines.append(bytes) {
                            for sample in decoder.decode(line: line) {
                                retry = initialRetrySeconds
                                sink.receive(sample)
                            }
                        }
                        if decoder.statistics != reported {
                            if decoder.statistics.bad > reported.bad, let problem = decoder.statistics.lastProblem {
                                sink.feedEvent(.badInput(problem))
                            }
                            reported = decoder.statistics
                            var total = earlier
                            total.add(reported)
                            sink.decoderStatistics(total)
                        }
                    case .timedOut:
                        continue
                    case .endOfFile:
                        sink.feedEvent(.disconnected("\(description) closed the connection", retryInSeconds: retry))
                        break reading
                    case .failed(let reason):
                        sink.feedEvent(.disconnected("\(description): \(reason)", retryInSeconds: retry))
                        break reading
                    }
                }
            } catch let error as FleetError {
                sink.feedEvent(.disconnected("\(description): \(error.message)", retryInSeconds: retry))
            } catch {
                sink.feedEvent(.disconnected("\(description): \(error)", retryInSeconds: retry))
            }
            earlier.add(decoder.statistics)
            if cancellation.isCancelled { break }
            _ = cancellation.wakeup.wait(seconds: retry)
            retry = min(maximumRetrySeconds, retry * 2)
        }
        return .cancelled
    }
}
