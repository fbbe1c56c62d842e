// error-explain: explains Fleet Engine errors from the catalogue in FleetErrors.
// Thin by design: the declaration below, a loop over the arguments, and printing.
import FleetCLI
import FleetErrors
import FleetCatalogue

/// error-explain's options, each declared once.
struct ExplainOptions: OptionGroup {
    @Flag("json", short: "j", help: "Print JSON: one object when one <code> names one code, otherwise an array.")
    var json: Bool
    @Flag("list", short: "l", help: "List the 17 gRPC codes with number, HTTP status and retry class.")
    var list: Bool
    @Flag("markdown", help: "Print the whole catalogue as Markdown (docs/errors.md is this output).")
    var markdown: Bool

    /// `<code> ...`.
    static let codes = Argument("code", help: "An HTTP status, gRPC number, code name, io.grpc:N, or - for standard input.",
                                arity: .variadic(minimum: 0), completion: .values(GRPCCode.allCases.map(\.name)))

    init() {}
}

let errorExplain = Command(
    "error-explain",
    abstract: "Explain a Fleet Engine error: a gRPC code, an HTTP status, or an error body.",
    discussion: """
        Each <code> is an HTTP status (403), a gRPC number (7), a code name in any spelling \
        (PERMISSION_DENIED, permission-denied, permissionDenied), io.grpc:14, or - to read a \
        Google error JSON body, an iOS NSError line or a gRPC status line from standard input. \
        Numbers 0-16 are gRPC numbers, 100-599 HTTP statuses. The explanation gives the code's \
        number, HTTP status, retry class, meaning and Fleet Engine causes with remedies; for a body \
        or line, the causes its message points to come first.

        Exit status: 0 when everything was explained, 1 when an input was not understood \
        (or standard input could not be read), 2 for a usage error.
        """,
    version: ProductVersion.of("error-explain"),
    options: ExplainOptions.options,
    arguments: [ExplainOptions.codes],
    examples: [
        Example("error-explain 403", "What HTTP 403 means and what causes it."),
        Example("error-explain 7 permission-denied io.grpc:7", "The same code three ways."),
        Example("error-explain 400", "All codes HTTP 400 stands for, most likely first."),
        Example(#"echo '{"error":{"code":404,"message":"Trip not found","status":"NOT_FOUND"}}' | error-explain -"#,
                "Explain a Google error body; the trip-not-found cause comes first."),
        Example(#"echo 'Error Domain=io.grpc Code=16 "JWT expired"' | error-explain -"#, "Explain an iOS SDK error."),
        Example("error-explain --json 503 | python3 -m json.tool", "Machine-readable output."),
        Example("error-explain --list", "The table of all codes."),
    ]
) { arguments, context in
    let options = try ExplainOptions(arguments)
    let inputs = arguments.strings(ExplainOptions.codes)
    let json = options.json
    if options.markdown {
        guard inputs.isEmpty, !json, !options.list else {
            throw context.usageError("--markdown takes no <code> and no other option")
        }
        context.print(CatalogueMarkdown.document(), terminator: "")
        return ExitCode.success.rawValue
    }
    if options.list {
        guard inputs.isEmpty else { throw context.usageError("--list takes no <code>") }
        context.print(json ? ExplanationJSON.catalogue() : ExplanationPrinter.table(style: context.outputStyle), terminator: "")
        return ExitCode.success.rawValue
    }
    guard !inputs.isEmpty else {
        throw context.usageError("give a <code>: an HTTP status, a gRPC number or name, io.grpc:N, or - (or use --list)")
    }
    guard inputs.filter({ $0 == "-" }).count <= 1 else {
        throw context.usageError("'-' (standard input) may be given only once")
    }

    var explanations: [ErrorExplanation] = []
    var understoodAll = true
    for input in inputs {
        do {
            let outcome = try ErrorCatalogue.explain(argument: input) {
                if context.standardInput.isTerminal {
                    context.warn("reading an error body or line from the terminal; end with Ctrl-D")
                }
                return try context.standardInput.readText()
            }
            switch outcome {
            case .explained(let found):
                explanations += found
            case .unrecognised(let input, let reason):
                let names = GRPCCode.allCases.map(\.name)
                let hint = Int(input) == nil
                    ? Suggestion.nearest(to: GRPCCode.canonicalSpelling(of: input), among: names).map { "; did you mean \($0)?" } ?? ""
                    : ""
                context.warn("cannot explain '\(input)': \(reason)\(hint)")
                understoodAll = false
            }
        } catch let error as FleetError {
            context.warn("cannot explain '-': \(error.message)")
            understoodAll = false
        }
    }

    if !explanations.isEmpty {
        if json {
            let single = inputs.count == 1 && explanations.count == 1
            context.print(single ? ExplanationJSON.object(explanations[0]) : ExplanationJSON.array(explanations), terminator: "")
        } else {
            context.print(ExplanationPrinter.text(explanations, style: context.outputStyle), terminator: "")
        }
    }
    return (understoodAll ? ExitCode.success : ExitCode.failure).rawValue
}

ProductCauses.install()
await CommandLineTool.main(errorExplain)
