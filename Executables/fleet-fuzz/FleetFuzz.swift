// fleet-fuzz: the fuzz targets of Executables/FleetFuzzTargets as one program.
//
// Built by `make fuzz` with `swift build --sanitize fuzzer -Xswiftc -DFUZZING`, it is a libFuzzer
// binary: FLEET_FUZZ_TARGET names the target, every argument goes to libFuzzer. Built normally, it
// replays inputs without libFuzzer: `fleet-fuzz TARGET FILE-OR-FOLDER…`.
import FleetFuzzTargets
import Foundation

private func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

#if FUZZING
nonisolated(unsafe) private var selected: FuzzTarget?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> CInt {
    let name = getenv("FLEET_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget.named(name) else {
        printError("fleet-fuzz: set FLEET_FUZZ_TARGET to one of: \(FuzzTarget.all.map(\.name).joined(separator: ", "))")
        exit(2)
    }
    selected = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selected?.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
#else
@main
struct FleetFuzzReplay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first, name != "--help", name != "--list" else {
            print("usage: fleet-fuzz TARGET FILE-OR-FOLDER…   (runs each input once; a crash is a failure)")
            for target in FuzzTarget.all { print("  \(target.name.padding(toLength: 10, withPad: " ", startingAt: 0)) \(target.summary)") }
            exit(arguments.isEmpty ? 2 : 0)
        }
        guard let target = FuzzTarget.named(name) else {
            printError("fleet-fuzz: no target \(name); targets: \(FuzzTarget.all.map(\.name).joined(separator: ", "))")
            exit(2)
        }
        do {
            let count = try FuzzCorpus.replay(target, paths: Array(arguments.dropFirst()))
            print("fleet-fuzz: \(target.name): \(count) inputs, no crash")
        } catch {
            printError("fleet-fuzz: \(error)")
            exit(1)
        }
    }
}
#endif
