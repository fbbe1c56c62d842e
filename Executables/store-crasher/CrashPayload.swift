import FleetStore

/// The payload the crasher stores: a header naming everything the record should hold, then filler
/// repeating the header, so a checker can tell a record is whole and from one single write.
///
/// `<key> <version> <latitude|-> <longitude|-> <owner|-> <filler length>|<filler>`
/// (latitude and longitude as the bit patterns of the doubles, in hex).
enum CrashPayload {
    static func make(key: RecordKey, version: UInt64, point: IndexPoint?, owner: String?, fillerLength: Int) -> [UInt8] {
        let latitude = point.map { String($0.latitude.bitPattern, radix: 16) } ?? "-"
        let longitude = point.map { String($0.longitude.bitPattern, radix: 16) } ?? "-"
        let header = Array("\(key) \(version) \(latitude) \(longitude) \(owner ?? "-") \(fillerLength)|".utf8)
        return header + (0..<fillerLength).map { header[$0 % header.count] }
    }
}
