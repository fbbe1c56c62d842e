/// The product's version, one for every executable: what each one's `--version` prints.
public enum ProductVersion {
    /// The release number.
    public static let number = "0.1.0"

    /// `TOOL NUMBER` (`driver-report 0.1.0`), the line `--version` prints.
    public static func of(_ tool: String) -> String {
        "\(tool) \(number)"
    }
}
