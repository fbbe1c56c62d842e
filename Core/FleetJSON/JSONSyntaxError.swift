/// Why text is not JSON, and where: the problem, the byte offset (from 0), and the line and column
/// (from 1; the column counts characters). Its description reads "PROBLEM at line L, column C (byte B)".
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was expected and what was found (`expected ',' or '}' after an object member, found 'x'`).
    public let problem: String
    /// The byte offset of the problem, from 0.
    public let offset: Int
    /// The line of the problem, from 1.
    public let line: Int
    /// The column of the problem in characters, from 1.
    public let column: Int

    /// An error at this place.
    public init(problem: String, offset: Int, line: Int, column: Int) {
        self.problem = problem
        self.offset = offset
        self.line = line
        self.column = column
    }

    public var description: String { "\(problem) at line \(line), column \(column) (byte \(offset))" }
}
