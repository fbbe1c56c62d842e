import FleetErrors
import Glibc
import FleetConcurrency

/// Reads a live text stream — standard input (`nmea:-`, `jsonl:-`), a pipe, a serial device — line by
/// line as it arrives, handing each completed sample on at once. Ends at end of input.
///
/// Serial devices are read as they are: set their speed first (`stty -F /dev/ttyUSB0 4800 raw`).
public struct StreamFeed<Decoder: LocationLineDecoder>: LocationFeed {
    /// What is read, for logs.
    public let description: String
    /// The descriptor to read; not closed by the feed.
    public let fileDescriptor: Int32
    /// A fresh decoder for the stream.
    public let decoder: Decoder

    /// A feed reading `fileDescriptor` with `decoder`.
    public init(description: String, fileDescriptor: Int32, decoder: Decoder) {
        self.description = description
        self.fileDescriptor = fileDescriptor
        self.decoder = decoder
    }

    /// Runs the feed on the calling thread until its input ends or it is cancelled.
    public func run(into sink: any LocationSink, time: any TimeSource, cancellation: Cancellation) -> FeedEnd {
        var decoder = self.decoder
        var lines = LineSplitter()
        var reported = decoder.statistics
        func deliver(_ batch: [String]) {
            for line in batch {
                for sample in decoder.decode(line: line) { sink.receive(sample) }
            }
            report()
        }
        func report() {
            let now = decoder.statistics
            guard now != reported else { return }
            if now.bad > reported.bad, let problem = now.lastProblem { sink.feedEvent(.badInput(problem)) }
            reported = now
            sink.decoderStatistics(now)
        }
        while !cancellation.isCancelled {
            switch DescriptorReader.read(fileDescriptor, timeoutMilliseconds: 200) {
            case .bytes(let bytes):
                deliver(lines.append(bytes))
            case .timedOut:
                continue
            case .endOfFile:
                if let last = lines.finish() { deliver([last]) }
                for sample in decoder.finish() { sink.receive(sample) }
                report()
                return .finished
            case .failed(let reason):
                return .failed(FleetError(.locationSourceFailed, detail: "\(description): read failed: \(reason)"))
            }
        }
        return .cancelled
    }
}
