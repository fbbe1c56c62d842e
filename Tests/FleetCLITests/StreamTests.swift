#if canImport(Glibc)
import Glibc
#endif
import FleetErrors
import Testing
@testable import FleetCLI

/// A pipe whose ends are closed when the test ends.
private final class TestPipe {
    let readEnd: Int32
    let writeEnd: Int32
    private var open: Set<Int32>

    init() {
        var descriptors: [Int32] = [0, 0]
        precondition(pipe(&descriptors) == 0)
        readEnd = descriptors[0]
        writeEnd = descriptors[1]
        open = [readEnd, writeEnd]
    }

    func close(_ descriptor: Int32) {
        if open.remove(descriptor) != nil { _ = Glibc.close(descriptor) }
    }

    func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.write(writeEnd, $0.baseAddress, $0.count) }
    }

    func readAll() -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            result += buffer[..<count]
        }
        return result
    }

    deinit {
        for descriptor in open { _ = Glibc.close(descriptor) }
    }
}

private func unreadableDetail(_ input: any TextInput, limit: Int = 1 << 20) -> String? {
    do {
        _ = try input.readText(limit: limit)
        return nil
    } catch {
        #expect(error.cause == "UNREADABLE_INPUT")
        #expect(error.code == .invalidArgument)
        return error.message
    }
}

struct TextOutputTests {
    @Test func capturedOutputKeepsEverything() {
        let output = CapturedOutput()
        output.write("a")
        output.write("b\n")
        #expect(output.text == "ab\n")
        #expect(!output.isTerminal)
        #expect(CapturedOutput(isTerminal: true).isTerminal)
    }

    @Test func fileDescriptorOutputWritesEverythingInOrder() {
        let pipe = TestPipe()
        let output = FileDescriptorOutput(fileDescriptor: pipe.writeEnd)
        #expect(!output.isTerminal)
        // Less than a pipe's buffer, so the writes complete before anything is read.
        let text = String(repeating: "é🚕line\n", count: 3000)
        output.write(text)
        output.write("end\n")
        pipe.close(pipe.writeEnd)
        #expect(pipe.readAll() == Array((text + "end\n").utf8))
        #expect(!output.hasFailed)
    }

    @Test func aClosedReaderEndsWritingQuietly() {
        signal(SIGPIPE, SIG_IGN)
        let pipe = TestPipe()
        pipe.close(pipe.readEnd)
        let output = FileDescriptorOutput(fileDescriptor: pipe.writeEnd)
        output.write("nobody reads this\n")
        #expect(output.hasFailed)
        output.write("nor this\n")
        #expect(output.hasFailed)
    }
}

struct TextInputTests {
    @Test func bytesInputDecodesUTF8AndDropsTheByteOrderMark() throws {
        #expect(try BytesInput("héllo").readText() == "héllo")
        #expect(try BytesInput([0xEF, 0xBB, 0xBF] + Array("x".utf8)).readText() == "x")
        #expect(try BytesInput([]).readText() == "")
    }

    @Test func invalidUTF8SaysWhere() {
        #expect(unreadableDetail(BytesInput(Array("ab".utf8) + [0xFF, 0x41])) == "The input could not be read: standard input is not UTF-8 text (bad byte at offset 2)")
    }

    @Test func limitsAreEnforced() {
        #expect(unreadableDetail(BytesInput("12345"), limit: 4)?.contains("larger than 4 bytes") == true)
    }

    @Test func pipeInputReadsToTheEnd() throws {
        let pipe = TestPipe()
        pipe.write(Array("{\"error\":{}}\n".utf8))
        pipe.close(pipe.writeEnd)
        let input = FileDescriptorInput(fileDescriptor: pipe.readEnd, label: "standard input")
        #expect(!input.isTerminal)
        #expect(try input.readText() == "{\"error\":{}}\n")
    }

    @Test func pipeInputOverTheLimit() {
        let pipe = TestPipe()
        pipe.write([UInt8](repeating: 0x41, count: 100))
        pipe.close(pipe.writeEnd)
        let input = FileDescriptorInput(fileDescriptor: pipe.readEnd, label: "standard input")
        #expect(unreadableDetail(input, limit: 10)?.contains("larger than 10 bytes") == true)
    }

    @Test func pipeInputThatIsNotUTF8() {
        let pipe = TestPipe()
        pipe.write([0xC3, 0x28])
        pipe.close(pipe.writeEnd)
        let input = FileDescriptorInput(fileDescriptor: pipe.readEnd, label: "the body")
        #expect(unreadableDetail(input)?.contains("the body is not UTF-8 text") == true)
    }

    @Test func directoryInput() {
        let descriptor = open("/", O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        #expect(unreadableDetail(FileDescriptorInput(fileDescriptor: descriptor, label: "standard input"))
                == "The input could not be read: standard input is a directory")
    }

    @Test func closedInput() {
        #expect(unreadableDetail(FileDescriptorInput(fileDescriptor: -1, label: "standard input"))?.contains("standard input is closed") == true)
    }

    @Test func anonymousInodeInputCountsAsClosed() {
        // inotify, like Dispatch's eventfd that takes over a closed descriptor 0, is an anonymous inode.
        let descriptor = inotify_init1(0)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        #expect(unreadableDetail(FileDescriptorInput(fileDescriptor: descriptor, label: "standard input"))?.contains("standard input is closed") == true)
    }
}
