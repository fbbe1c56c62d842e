/// A type an option's value is read as, one case per accepted spelling (`--log-format text|json`).
/// Declared with `OptionDefinition.choice`, the parser checks the value against the cases (with a "did you
/// mean" hint), completion offers them, and `ParsedArguments.value(_:as:)` returns the case.
public protocol OptionValue: CaseIterable, RawRepresentable, Sendable where RawValue == String {}

extension OptionDefinition {
    /// An option whose value is one case of `type`, spelt as its raw value.
    public static func choice<Value: OptionValue>(_ name: String, of type: Value.Type, short: Character? = nil,
                                                 valueName: String? = nil, help: String, default defaultValue: Value? = nil,
                                                 environment: String? = nil, required: Bool = false, hidden: Bool = false) -> OptionDefinition {
        .value(name, short: short, valueName: valueName ?? name, help: help, default: defaultValue?.rawValue,
               environment: environment, required: required, allowedValues: type.allCases.map(\.rawValue), hidden: hidden)
    }
}
