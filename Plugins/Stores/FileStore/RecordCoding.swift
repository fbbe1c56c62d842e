import FleetStore

/// The binary form of keys and records, shared by journal records and snapshots.
///
/// Record: key, version (`UInt64`), payload (blob), point (flag byte, then latitude and longitude
/// as IEEE 754 bits), owner (flag byte, then string). Key: kind byte, provider, ID.
enum RecordCoding {
    /// A byte that is neither a known kind nor a known flag: the bytes were not written by us.
    struct UnknownTag: Error, Sendable {
        var tag: UInt8
        var offset: Int
    }

    static func write(_ key: RecordKey, to writer: inout ByteWriter) {
        writer.write(kindTag(key.kind))
        writer.write(key.provider)
        writer.write(key.id)
    }

    static func readKey(from reader: inout ByteReader) throws -> RecordKey {
        let at = reader.offset
        let tag = try reader.readUInt8()
        guard let kind = kind(tag) else { throw UnknownTag(tag: tag, offset: at) }
        let provider = try reader.readString()
        let id = try reader.readString()
        return RecordKey(kind, provider: provider, id: id)
    }

    static func write(_ record: StoreRecord, to writer: inout ByteWriter) {
        write(record.key, to: &writer)
        writer.write(record.version)
        writer.writeBlob(record.payload)
        if let point = record.point {
            writer.write(UInt8(1))
            writer.write(point.latitude)
            writer.write(point.longitude)
        } else {
            writer.write(UInt8(0))
        }
        if let owner = record.owner {
            writer.write(UInt8(1))
            writer.write(owner)
        } else {
            writer.write(UInt8(0))
        }
    }

    static func readRecord(from reader: inout ByteReader) throws -> StoreRecord {
        let key = try readKey(from: &reader)
        let version = try reader.readUInt64()
        let payload = try reader.readBlob()
        var point: IndexPoint?
        if try readFlag(from: &reader) {
            let latitude = try reader.readDouble()
            let longitude = try reader.readDouble()
            point = IndexPoint(latitude: latitude, longitude: longitude)
        }
        let owner: String? = try readFlag(from: &reader) ? try reader.readString() : nil
        return StoreRecord(key: key, version: version, payload: payload, point: point, owner: owner)
    }

    /// History point: kind byte (as a key's), provider, vehicle ID, time (Int64 as UInt64), latitude,
    /// longitude, accuracy, speed and heading (flag byte, then the number), state (flag byte, then
    /// string), trip count (UInt32) and trip IDs, sequence (Int64 as UInt64). Points written before
    /// delivery vehicles had a history have no kind byte (`readHistoryPoint(from:hasKind:)`).
    static func write(_ point: HistoryPoint, to writer: inout ByteWriter) {
        writer.write(kindTag(point.kind))
        writer.write(point.provider)
        writer.write(point.vehicleID)
        writer.write(UInt64(bitPattern: point.time))
        writer.write(point.latitude)
        writer.write(point.longitude)
        for value in [point.accuracyMeters, point.speedMetersPerSecond, point.headingDegrees] {
            if let value {
                writer.write(UInt8(1))
                writer.write(value)
            } else {
                writer.write(UInt8(0))
            }
        }
        if let state = point.vehicleState {
            writer.write(UInt8(1))
            writer.write(state)
        } else {
            writer.write(UInt8(0))
        }
        writer.write(UInt32(point.tripIDs.count))
        for trip in point.tripIDs { writer.write(trip) }
        writer.write(UInt64(bitPattern: point.sequence))
    }

    /// A point as `write` writes it; without its kind byte (`hasKind` false), a rides vehicle's point
    /// of a file written before delivery vehicles had a history.
    static func readHistoryPoint(from reader: inout ByteReader, hasKind: Bool) throws -> HistoryPoint {
        var kind = RecordKind.vehicle
        if hasKind {
            let at = reader.offset
            let tag = try reader.readUInt8()
            guard let known = self.kind(tag) else { throw UnknownTag(tag: tag, offset: at) }
            kind = known
        }
        let provider = try reader.readString()
        let vehicleID = try reader.readString()
        let time = Int64(bitPattern: try reader.readUInt64())
        let latitude = try reader.readDouble()
        let longitude = try reader.readDouble()
        func optionalNumber() throws -> Double? { try readFlag(from: &reader) ? try reader.readDouble() : nil }
        let accuracy = try optionalNumber()
        let speed = try optionalNumber()
        let heading = try optionalNumber()
        let state: String? = try readFlag(from: &reader) ? try reader.readString() : nil
        let tripCount = try reader.readUInt32()
        var trips: [String] = []
        for _ in 0..<tripCount { trips.append(try reader.readString()) }
        let sequence = Int64(bitPattern: try reader.readUInt64())
        return HistoryPoint(kind: kind, provider: provider, vehicleID: vehicleID, time: time, latitude: latitude, longitude: longitude,
                            accuracyMeters: accuracy, speedMetersPerSecond: speed, headingDegrees: heading,
                            vehicleState: state, tripIDs: trips, sequence: sequence)
    }

    /// The encoded size of a history point, to reserve buffers.
    static func estimatedSize(_ point: HistoryPoint) -> Int {
        97 + point.provider.utf8.count + point.vehicleID.utf8.count + point.tripIDs.reduce(0) { $0 + 4 + $1.utf8.count }
    }

    /// The encoded size of a record, to reserve buffers.
    static func estimatedSize(_ record: StoreRecord) -> Int {
        64 + record.key.provider.utf8.count + record.key.id.utf8.count + record.payload.count + (record.owner?.utf8.count ?? 0)
    }

    private static func readFlag(from reader: inout ByteReader) throws -> Bool {
        let at = reader.offset
        switch try reader.readUInt8() {
        case 0: return false
        case 1: return true
        case let tag: throw UnknownTag(tag: tag, offset: at)
        }
    }

    private static func kindTag(_ kind: RecordKind) -> UInt8 {
        switch kind {
        case .vehicle: 1
        case .trip: 2
        case .roadTimes: 3
        case .deliveryVehicle: 4
        case .task: 5
        case .shipment: 6
        }
    }

    private static func kind(_ tag: UInt8) -> RecordKind? {
        switch tag {
        case 1: .vehicle
        case 2: .trip
        case 3: .roadTimes
        case 4: .deliveryVehicle
        case 5: .task
        case 6: .shipment
        default: nil
        }
    }
}
