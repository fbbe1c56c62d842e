/// The binary form of the well-known types that the models hold as Swift values: Timestamp, Duration and
/// FieldMask are messages on the wire, and the wrappers (`google.protobuf.Int32Value` …) are messages of
/// one field `value` = 1, held in the models as plain optionals (`Int32?`).
///
/// Decoding checks what the JSON decoder checks: a Timestamp within 0001-01-01 … 9999-12-31 with nanos
/// in 0 ..< 1e9, a Duration within ±10,000 years with agreeing signs, field-mask paths of field names.
extension ProtoBinaryWriter {
    /// `google.protobuf.Timestamp`: seconds = 1 (int64), nanos = 2 (int32).
    public mutating func writeTimestamp(_ field: Int, _ value: Timestamp?) {
        guard let value else { return }
        writeLengthDelimited(field) { writer in
            if value.seconds != 0 { writer.writeInt64(1, value.seconds) }
            if value.nanos != 0 { writer.writeInt32(2, value.nanos) }
        }
    }

    /// `google.protobuf.Duration`: seconds = 1 (int64), nanos = 2 (int32).
    public mutating func writeDuration(_ field: Int, _ value: ProtoDuration?) {
        guard let value else { return }
        writeLengthDelimited(field) { writer in
            if value.seconds != 0 { writer.writeInt64(1, value.seconds) }
            if value.nanos != 0 { writer.writeInt32(2, value.nanos) }
        }
    }

    /// `google.protobuf.FieldMask`: paths = 1, each in proto (snake_case) names, as the wire carries them.
    public mutating func writeFieldMask(_ field: Int, _ value: FieldMask?) {
        guard let value else { return }
        writeLengthDelimited(field) { writer in
            writer.writeRepeatedString(1, value.paths.map(FieldMask.snakeCase))
        }
    }

    /// `google.protobuf.Int32Value`.
    public mutating func writeInt32Value(_ field: Int, _ value: Int32?) {
        guard let value else { return }
        writeLengthDelimited(field) { writer in
            if value != 0 { writer.writeInt32(1, value) }
        }
    }

    /// `google.protobuf.DoubleValue` (a negative zero is written, to keep its sign).
    public mutating func writeDoubleValue(_ field: Int, _ value: Double?) {
        guard let value else { return }
        writeLengthDelimited(field) { writer in
            if value.bitPattern != 0 { writer.writeDouble(1, value) }
        }
    }

    /// `google.protobuf.BoolValue`.
    public mutating func writeBoolValue(_ field: Int, _ value: Bool?) {
        guard let value else { return }
        writeLengthDelimited(field) { writer in
            if value { writer.writeBool(1, value) }
        }
    }
}

extension ProtoBinaryReader {
    /// Reads seconds = 1 and nanos = 2 of a Timestamp or Duration into `seconds` and `nanos`.
    private mutating func readSecondsAndNanos(_ seconds: inout Int64, _ nanos: inout Int32) throws {
        while let field = try nextField() {
            switch field.number {
            case 1: seconds = try readInt64(field, "seconds")
            case 2: nanos = try readInt32(field, "nanos")
            default: try skip(field)
            }
        }
    }

    /// `google.protobuf.Timestamp`, within 0001-01-01 … 9999-12-31.
    public mutating func readTimestamp(_ field: ProtoFieldKey, _ name: String, into value: inout Timestamp?) throws {
        var nested = try nestedReader(field, name, messageName: "google.protobuf.Timestamp")
        var seconds = value?.seconds ?? 0
        var nanos = value?.nanos ?? 0
        try nested.readSecondsAndNanos(&seconds, &nanos)
        guard (Timestamp.minSeconds...Timestamp.maxSeconds).contains(seconds), (0..<1_000_000_000).contains(nanos) else {
            throw error(at: name, protoType: "google.protobuf.Timestamp",
                        problem: "seconds \(seconds), nanos \(nanos) is not a time from 0001-01-01 to 9999-12-31 with nanos 0 to 999999999",
                        offset: field.offset)
        }
        value = Timestamp(seconds: seconds, nanos: nanos)
    }

    /// `google.protobuf.Duration`, within ±10,000 years, seconds and nanos of one sign.
    public mutating func readDuration(_ field: ProtoFieldKey, _ name: String, into value: inout ProtoDuration?) throws {
        var nested = try nestedReader(field, name, messageName: "google.protobuf.Duration")
        var seconds = value?.seconds ?? 0
        var nanos = value?.nanos ?? 0
        try nested.readSecondsAndNanos(&seconds, &nanos)
        let duration = ProtoDuration(seconds: seconds, nanos: nanos)
        guard duration.seconds == seconds, duration.nanos == nanos, duration.isValid else {
            throw error(at: name, protoType: "google.protobuf.Duration",
                        problem: "seconds \(seconds), nanos \(nanos) is not a duration within ±315576000000 s with nanos of the same sign",
                        offset: field.offset)
        }
        value = duration
    }

    /// `google.protobuf.FieldMask`: snake_case paths of field names, held camelCase (`vehicle_state` → `vehicleState`).
    public mutating func readFieldMask(_ field: ProtoFieldKey, _ name: String, into value: inout FieldMask?) throws {
        var nested = try nestedReader(field, name, messageName: "google.protobuf.FieldMask")
        var paths = value?.paths ?? []
        while let inner = try nested.nextField() {
            guard inner.number == 1 else {
                try nested.skip(inner)
                continue
            }
            let path = try nested.readString(inner, "paths[\(paths.count)]")
            guard FieldMask.isFieldPath(path) else {
                throw nested.error(at: "paths[\(paths.count)]", protoType: "google.protobuf.FieldMask",
                                   problem: "\"\(path)\" is not a field path (field names joined by dots)", offset: inner.offset)
            }
            paths.append(path)
        }
        value = FieldMask(paths)
    }

    /// A wrapper message's `value` = 1 read with `read`, starting from the value already held (or 0).
    private mutating func readWrapper<Value>(_ field: ProtoFieldKey, _ name: String, messageName: String, into value: inout Value?,
                                            default defaultValue: Value,
                                            _ read: (inout ProtoBinaryReader, ProtoFieldKey) throws -> Value) throws {
        var nested = try nestedReader(field, name, messageName: messageName)
        var result = value ?? defaultValue
        while let inner = try nested.nextField() {
            if inner.number == 1 {
                result = try read(&nested, inner)
            } else {
                try nested.skip(inner)
            }
        }
        value = result
    }

    /// `google.protobuf.Int32Value`.
    public mutating func readInt32Value(_ field: ProtoFieldKey, _ name: String, into value: inout Int32?) throws {
        try readWrapper(field, name, messageName: "google.protobuf.Int32Value", into: &value, default: 0) { try $0.readInt32($1, "value") }
    }

    /// `google.protobuf.DoubleValue`.
    public mutating func readDoubleValue(_ field: ProtoFieldKey, _ name: String, into value: inout Double?) throws {
        try readWrapper(field, name, messageName: "google.protobuf.DoubleValue", into: &value, default: 0) { try $0.readDouble($1, "value") }
    }

    /// `google.protobuf.BoolValue`.
    public mutating func readBoolValue(_ field: ProtoFieldKey, _ name: String, into value: inout Bool?) throws {
        try readWrapper(field, name, messageName: "google.protobuf.BoolValue", into: &value, default: false) { try $0.readBool($1, "value") }
    }
}

extension FieldMask {
    /// A camelCase path in proto (snake_case) names, as the binary form carries it: `lastLocation.updateTime`
    /// → `last_location.update_time`.
    public static func snakeCase(_ path: String) -> String {
        guard path.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return path }
        var result = ""
        result.reserveCapacity(path.utf8.count + 4)
        for character in path {
            if let ascii = character.asciiValue, ascii >= UInt8(ascii: "A"), ascii <= UInt8(ascii: "Z") {
                result += "_"
                result.append(Character(Unicode.Scalar(ascii | 0x20)))
            } else {
                result.append(character)
            }
        }
        return result
    }
}

extension LatLng {
    /// Decodes `google.type.LatLng`: latitude = 1, longitude = 2 (doubles, 0 when absent).
    public init(protobuf reader: inout ProtoBinaryReader) throws {
        self.init()
        try mergeProtobuf(from: &reader)
    }

    /// Reads latitude = 1 and longitude = 2.
    public mutating func mergeProtobuf(from reader: inout ProtoBinaryReader) throws {
        while let field = try reader.nextField() {
            switch field.number {
            case 1: latitude = try reader.readDouble(field, "latitude")
            case 2: longitude = try reader.readDouble(field, "longitude")
            default: try reader.skip(field)
            }
        }
    }

    /// Both coordinates, always (as in JSON).
    public func writeProtobuf(to writer: inout ProtoBinaryWriter) {
        writer.writeDouble(1, latitude)
        writer.writeDouble(2, longitude)
    }
}
