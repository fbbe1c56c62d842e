import FleetCatalogue
import FleetErrors
import FleetTestSupport
import Foundation
import Testing

/// Runs the built `error-explain` (see `BinaryRunner` for how it is found).
private func errorExplain(_ arguments: [String], input: BinaryRunner.Input = .none,
                          environment: [String: String] = BinaryRunner.quietEnvironment) throws -> BinaryRunner.Result {
    try BinaryRunner(product: "error-explain").run(arguments, input: input, environment: environment)
}

private func json(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8))
}

/// python3 on PATH, if any.
private let python3 = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    .map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }

struct ErrorExplainTests {
    /// The catalogue this process compares with holds every module's causes, as error-explain's does.
    init() { ProductCauses.install() }

    @Test func explainsAnHTTPStatus() throws {
        let result = try errorExplain(["403"])
        #expect(result.status == 0, "\(result)")
        #expect(result.output.hasPrefix("PERMISSION_DENIED  gRPC 7, HTTP 403\n"))
        #expect(result.output.contains("Retry: needs action: the call will not succeed until you fix something"))
        #expect(result.output.contains("- JWT_FOR_OTHER_RESOURCE: The JWT was signed for another trip or vehicle"))
        #expect(result.output.contains("Remedy: "))
        #expect(result.error == "")
        #expect(!result.output.contains("\u{1B}["), "no colour into a pipe")
    }

    /// The Consumer SDK guide's split: a JWT without a trip ID is 401, a missing JWT 403.
    @Test func placesTheTokenCausesAsTheConsumerSDKGuideDoes() throws {
        let unauthenticated = try errorExplain(["401"])
        #expect(unauthenticated.output.contains("- JWT_WITHOUT_TRIP_ID: The JWT was signed without a trip ID"), "\(unauthenticated.output)")
        #expect(!unauthenticated.output.contains("- JWT_MISSING:"), "\(unauthenticated.output)")
        let denied = try errorExplain(["403"])
        #expect(denied.output.contains("- JWT_MISSING: The request has no JWT"), "\(denied.output)")
        #expect(!denied.output.contains("- JWT_WITHOUT_TRIP_ID:"), "\(denied.output)")
    }

    @Test func explainsAGRPCNumberTheSameWay() throws {
        let byNumber = try errorExplain(["7"])
        #expect(byNumber.status == 0)
        #expect(byNumber.output == (try errorExplain(["403"])).output)
    }

    @Test func severalArgumentsInEverySpelling() throws {
        let result = try errorExplain(["14", "io.grpc:14", "io.grpc/14", "unavailable", "Unavailable", "http:503"])
        #expect(result.status == 0)
        #expect(result.output.components(separatedBy: "UNAVAILABLE  gRPC 14, HTTP 503\n").count == 7)
        #expect(result.output.contains("retry with backoff: the client recovers by itself"))
    }

    @Test func sharedHTTPStatusListsEveryCodeMostLikelyFirst() throws {
        let result = try errorExplain(["500"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("HTTP 500 stands for 3 codes, most likely first: INTERNAL, UNKNOWN, DATA_LOSS."))
    }

    @Test func explainsAGoogleErrorBodyFromStandardInput() throws {
        let body = #"{"error":{"code":404,"message":"Trip not found","status":"NOT_FOUND","details":[]}}"#
        let result = try errorExplain(["-"], input: .text(body))
        #expect(result.status == 0, "\(result)")
        #expect(result.output.contains("NOT_FOUND  gRPC 5, HTTP 404"))
        #expect(result.output.contains("Likely causes, best first:\n  - TRIP_NOT_FOUND:"))
    }

    @Test func explainsAnNSErrorLineFromStandardInput() throws {
        let line = #"Error Domain=io.grpc Code=7 "JWT signed for another trip" UserInfo={NSLocalizedDescription=JWT signed for another trip}"#
        let result = try errorExplain(["-"], input: .text(line + "\n"))
        #expect(result.status == 0)
        #expect(result.output.contains("Likely cause:\n  - JWT_FOR_OTHER_RESOURCE:"))
    }

    @Test func jsonForOneCodeIsAnObject() throws {
        let result = try errorExplain(["--json", "503"])
        #expect(result.status == 0)
        let object = try #require(try json(result.output) as? [String: Any])
        #expect(object["input"] as? String == "503")
        #expect(object["code"] as? String == "UNAVAILABLE")
        #expect(object["number"] as? Int == 14)
        #expect(object["httpStatus"] as? Int == 503)
        #expect(object["retryClass"] as? String == "retryable")
        #expect(object["retryable"] as? Bool == true)
        #expect((object["causes"] as? [[String: Any]])?.map { $0["id"] as? String } ==
                ["SERVER_UNAVAILABLE", "STORE_BUSY", "LISTEN_FAILED", "SERVER_UNREACHABLE", "TLS_HANDSHAKE_FAILED",
                 "CONNECTION_LOST", "SERVER_STALLED", "LOCATION_SOURCE_FAILED", "STORE_UNREACHABLE"])
    }

    @Test(.enabled(if: python3 != nil, "python3 is not installed"))
    func jsonIsAcceptedByPythonsJSONTool() throws {
        for arguments in [["--json", "503"], ["--json", "400"], ["--list", "--json"], ["-j", "7", "permission-denied"]] {
            let produced = try errorExplain(arguments)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python3!)
            process.arguments = ["-m", "json.tool"]
            let input = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try input.fileHandleForWriting.write(contentsOf: Data(produced.output.utf8))
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "python3 -m json.tool refused the output of \(arguments)")
        }
    }

    @Test func jsonForSeveralCodesIsAnArrayWithInputs() throws {
        let shared = try #require(try json(try errorExplain(["--json", "400"]).output) as? [[String: Any]])
        #expect(shared.map { $0["code"] as? String } == ["INVALID_ARGUMENT", "FAILED_PRECONDITION", "OUT_OF_RANGE"])
        #expect(shared.allSatisfy { $0["input"] as? String == "400" && $0["note"] != nil })
        let several = try #require(try json(try errorExplain(["-j", "7", "16"]).output) as? [[String: Any]])
        #expect(several.map { $0["input"] as? String } == ["7", "16"])
    }

    @Test func jsonForABodyHasTheReportAndMatchedCauses() throws {
        let result = try errorExplain(["--json", "-"], input: .text(#"{"error":{"code":401,"message":"JWT expired","status":"UNAUTHENTICATED"}}"#))
        let object = try #require(try json(result.output) as? [String: Any])
        #expect(object["input"] as? String == "-")
        #expect((object["report"] as? [String: Any])?["message"] as? String == "JWT expired")
        #expect((object["matchedCauses"] as? [[String: Any]])?.first?["id"] as? String == "JWT_EXPIRED")
    }

    @Test func listShowsTheWholeTable() throws {
        let result = try errorExplain(["--list"])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 18)
        #expect(lines[4] == "   3  INVALID_ARGUMENT     400   needs action")
        let asJSON = try #require(try json(try errorExplain(["--list", "--json"]).output) as? [[String: Any]])
        #expect(asJSON.map { $0["code"] as? String } == GRPCCode.allCases.map(\.name))
    }

    @Test func markdownIsTheCatalogueAndDocsErrorsMd() throws {
        let result = try errorExplain(["--markdown"])
        #expect(result.status == 0)
        #expect(result.output == CatalogueMarkdown.document())
        var folder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("docs/errors.md").path) {
            folder = folder.deletingLastPathComponent()
        }
        let onDisk = try String(contentsOf: folder.appendingPathComponent("docs/errors.md"), encoding: .utf8)
        #expect(onDisk == result.output, "regenerate with: error-explain --markdown > docs/errors.md")
    }

    @Test(arguments: [("17", "17 is neither a gRPC code number"), ("teapot", "'teapot': not a gRPC code name"),
                      ("io.grpc:99", "gRPC code numbers run from 0 to 16"), ("302", "HTTP 302 is not an error status"),
                      ("PERMISION_DENIED", "did you mean PERMISSION_DENIED?")])
    func unknownCodesExitOneNamingTheInput(argument: String, message: String) throws {
        let result = try errorExplain([argument])
        #expect(result.status == 1)
        #expect(result.output == "")
        #expect(result.error.hasPrefix("error-explain: cannot explain '\(argument)'"))
        #expect(result.error.contains(message), "\(result.error)")
    }

    @Test func knownCodesAreStillExplainedNextToAnUnknownOne() throws {
        let result = try errorExplain(["404", "nope"])
        #expect(result.status == 1)
        #expect(result.output.hasPrefix("NOT_FOUND  gRPC 5"))
        #expect(result.error.contains("cannot explain 'nope'"))
    }

    @Test func usageErrorsExitTwo() throws {
        let none = try errorExplain([])
        #expect(none.status == 2)
        #expect(none.error.hasSuffix("See 'error-explain --help'.\n"))
        let badFlag = try errorExplain(["--jason", "7"])
        #expect(badFlag.status == 2)
        #expect(badFlag.error == "error-explain: unknown option '--jason'; did you mean '--json'?\nSee 'error-explain --help'.\n")
        #expect(try errorExplain(["-", "-"]).status == 2)
        #expect(try errorExplain(["--list", "7"]).status == 2)
        #expect(try errorExplain(["--markdown", "--json"]).status == 2)
    }

    @Test func helpHasExamples() throws {
        let result = try errorExplain(["--help"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("OVERVIEW: Explain a Fleet Engine error"))
        #expect(result.output.contains("EXAMPLES:\n  $ error-explain 403\n"))
        #expect(result.output.contains("-j, --json"))
        #expect(try errorExplain(["7", "-h"]).output == result.output)
    }

    @Test(arguments: [
        (BinaryRunner.Input.none, "the input is empty"),
        (.path("/dev/null"), "the input is empty"),
        (.path("/"), "standard input is a directory"),
        (.bytes([0x7B, 0xFF, 0xFE, 0x7D]), "standard input is not UTF-8 text"),
        (.closed, "standard input is closed"),
        (.text("no code in here\n"), "found no gRPC code"),
        (.text("{\"error\": "), "not valid JSON"),
        (.text(#"Error Domain=NSURLErrorDomain Code=-1009 "offline""#), "not io.grpc"),
    ])
    func unreadableOrUnknownStandardInputExitsOne(input: BinaryRunner.Input, message: String) throws {
        let result = try errorExplain(["-"], input: input)
        #expect(result.status == 1, "\(result)")
        #expect(result.output == "")
        #expect(result.error.hasPrefix("error-explain: cannot explain '-': "))
        #expect(result.error.contains(message), "\(result.error)")
    }

    @Test func colourFollowsTheEnvironment() throws {
        var forced = BinaryRunner.quietEnvironment
        forced["FORCE_COLOR"] = "1"
        #expect(try errorExplain(["14"], environment: forced).output.contains("\u{1B}[33mUNAVAILABLE"))
        forced["NO_COLOR"] = "1"
        #expect(!(try errorExplain(["14"], environment: forced).output.contains("\u{1B}[")))
    }

    @Test func completionScriptsAreGenerated() throws {
        let bash = try errorExplain(["--generate-completion-script", "bash"])
        #expect(bash.status == 0)
        #expect(bash.output.contains("complete -F _error_explain error-explain"))
        let zsh = try errorExplain(["--generate-completion-script=zsh"])
        #expect(zsh.output.hasPrefix("#compdef error-explain\n"))
        #expect(try errorExplain(["--generate-completion-script", "tcsh"]).status == 2)
    }

    @Test func aClosedPipeDoesNotKillIt() throws {
        #expect(!BinaryRunner.launcher.isEmpty, "env --default-signal is needed for this test to mean something")
        let status = try BinaryRunner(product: "error-explain").runWithClosedOutput(["--markdown"])
        #expect(status == 0, "SIGPIPE must be ignored: exit status \(status)")
    }
}
