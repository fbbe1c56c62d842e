/// The ID at the end of a resource name (`car-1` of `providers/p/vehicles/car-1`).
enum ResourceID {
    /// The last component of `name`, or `-` when there is no name (what tables show for "not set").
    static func of(_ name: String?) -> String {
        guard let name, !name.isEmpty else { return "-" }
        return name.split(separator: "/").last.map(String.init) ?? name
    }
}
