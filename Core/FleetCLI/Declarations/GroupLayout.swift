/// How `OptionGroup` finds its declarations and fills a value with what was parsed: the group's
/// properties are read by reflection (`Mirror`) on `init()`, as swift-argument-parser does, and
/// the read fields are handed to the group's synthesized `init(from:)` by `ParsedFieldDecoder`.
enum GroupLayout {
    /// A group's read fields by property name, and its nested groups'.
    struct ReadGroup: Sendable {
        var fields: [String: any DeclaredField] = [:]
        var groups: [String: ReadGroup] = [:]
    }

    /// Every declared field of `group` and of its nested groups, in property order.
    static func fields(of group: any OptionGroup) -> [any DeclaredField] {
        Mirror(reflecting: group).children.flatMap { child -> [any DeclaredField] in
            if let field = child.value as? any DeclaredField { return [field] }
            if let nested = child.value as? any OptionGroup { return fields(of: nested) }
            return []
        }
    }

    /// Every option `group` declares, in property order.
    static func definitions(of group: any OptionGroup) -> [OptionDefinition] {
        fields(of: group).flatMap(\.definitions)
    }

    /// The fields of `group` read from `arguments`.
    static func read(_ group: any OptionGroup, from arguments: ParsedArguments) throws(UsageError) -> ReadGroup {
        var read = ReadGroup()
        for child in Mirror(reflecting: group).children {
            guard let label = child.label else { continue }
            if let field = child.value as? any DeclaredField {
                // A wrapped property `x` is stored as `_x`; its coding key is `x`.
                read.fields[label.hasPrefix("_") ? String(label.dropFirst()) : label] = try field.readField(from: arguments)
            } else if let nested = child.value as? any OptionGroup {
                read.groups[label] = try self.read(nested, from: arguments)
            }
        }
        return read
    }

    /// Validates the nested groups of `group`, then `group`.
    static func validate(_ group: any OptionGroup) throws(ValidationError) {
        for child in Mirror(reflecting: group).children {
            if let nested = child.value as? any OptionGroup { try validate(nested) }
        }
        try group.validate()
    }
}

/// Decodes an `OptionGroup` from its read fields: each `@Option` and `@Flag` takes the field read
/// for its property, each nested group its own read fields. Nothing else can be decoded.
struct ParsedFieldDecoder: Decoder {
    let group: GroupLayout.ReadGroup?
    let field: (any DeclaredField)?

    init(group: GroupLayout.ReadGroup) {
        self.group = group
        field = nil
    }

    init(field: any DeclaredField) {
        group = nil
        self.field = field
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The field `decoder` carries, as `Field`.
    static func field<Field>(_ type: Field.Type, from decoder: any Decoder) throws -> Field {
        guard let field = (decoder as? ParsedFieldDecoder)?.field as? Field else {
            throw DecodingError.typeMismatch(Field.self, .init(codingPath: decoder.codingPath,
                                                              debugDescription: "options are read only from parsed arguments"))
        }
        return field
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let group else { throw Self.unsupported }
        return KeyedDecodingContainer(Container<Key>(group: group))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Self.unsupported }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Self.unsupported }

    static let unsupported = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not an option group"))

    struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let group: GroupLayout.ReadGroup
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { (Array(group.fields.keys) + Array(group.groups.keys)).compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool {
            group.fields[key.stringValue] != nil || group.groups[key.stringValue] != nil
        }

        func decodeNil(forKey key: Key) throws -> Bool { false }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            if let field = group.fields[key.stringValue] { return try T(from: ParsedFieldDecoder(field: field)) }
            if let nested = group.groups[key.stringValue] { return try T(from: ParsedFieldDecoder(group: nested)) }
            throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "\(key.stringValue) is not an option"))
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw ParsedFieldDecoder.unsupported
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw ParsedFieldDecoder.unsupported }
        func superDecoder() throws -> any Decoder { throw ParsedFieldDecoder.unsupported }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw ParsedFieldDecoder.unsupported }
    }
}
