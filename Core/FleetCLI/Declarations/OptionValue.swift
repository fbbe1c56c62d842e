/// An option's value that is one case of an enumeration, spelt as its raw value
/// (`--log-format text|json`): the parser accepts only those spellings (with a "did you mean" hint),
/// help lists them and completion offers them. Conform with `extension LogFormat: OptionValue {}`.
public protocol OptionValue: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension OptionValue {
    /// The case spelt `text`.
    public init(argument text: String) throws(ArgumentProblem) {
        guard let value = Self(rawValue: text) else {
            throw ArgumentProblem("is not one of \(Self.allowedValues.joined(separator: ", "))")
        }
        self = value
    }

    /// Every case's raw value.
    public static var allowedValues: [String] { allCases.map(\.rawValue) }
}
