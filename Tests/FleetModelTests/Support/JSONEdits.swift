import FleetModel

/// Walks and edits JSON documents by path, for tests that damage one field at a time.
enum JSONEdits {
    /// One step of a path: an object member or an array element.
    enum Step: Hashable {
        case member(String)
        case element(Int)
    }

    /// A location in a document with its JSON-path text (`a.b[2].c`), as decoding errors name fields.
    struct Location: Hashable, CustomStringConvertible {
        var steps: [Step]

        var description: String {
            var text = ""
            for step in steps {
                switch step {
                case .member(let name): text += text.isEmpty ? name : ".\(name)"
                case .element(let index): text += "[\(index)]"
                }
            }
            return text
        }

        /// The path of the object holding this member (for unknown-field errors), "" at the top.
        var parentDescription: String { Location(steps: Array(steps.dropLast())).description }
    }

    /// Every member and element in the document, depth first, with its value.
    static func locations(in json: JSON, at prefix: [Step] = []) -> [(Location, JSON)] {
        var found: [(Location, JSON)] = []
        switch json {
        case .object(let object):
            for member in object {
                let steps = prefix + [.member(member.key)]
                found.append((Location(steps: steps), member.value))
                found += locations(in: member.value, at: steps)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                let steps = prefix + [.element(index)]
                found.append((Location(steps: steps), element))
                found += locations(in: element, at: steps)
            }
        default:
            break
        }
        return found
    }

    /// Every object in the document with its location (the top-level object has no steps).
    static func objects(in json: JSON) -> [Location] {
        var found: [Location] = []
        if case .object = json { found.append(Location(steps: [])) }
        for (location, value) in locations(in: json) {
            if case .object = value { found.append(location) }
        }
        return found
    }

    /// The value at `steps`, or nil when the document has none there.
    static func value(at steps: [Step], in json: JSON) -> JSON? {
        var current = json
        for step in steps {
            switch (step, current) {
            case (.member(let key), .object(let object)):
                guard let next = object[key] else { return nil }
                current = next
            case (.element(let index), .array(let elements)) where elements.indices.contains(index):
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The document with the value at `steps` transformed.
    static func replacing(_ steps: ArraySlice<Step>, in json: JSON, with transform: (JSON) -> JSON) -> JSON {
        guard let step = steps.first else { return transform(json) }
        switch (step, json) {
        case (.member(let key), .object(var object)):
            object[key] = replacing(steps.dropFirst(), in: object[key] ?? .null, with: transform)
            return .object(object)
        case (.element(let index), .array(var elements)):
            elements[index] = replacing(steps.dropFirst(), in: elements[index], with: transform)
            return .array(elements)
        default:
            return json
        }
    }

    /// The document with every object key turned into snake_case (`lastLocation` → `last_location`).
    static func snakeCased(_ json: JSON) -> JSON {
        switch json {
        case .object(let object):
            return .object(JSONObject(object.map { (snakeCase($0.key), snakeCased($0.value)) }))
        case .array(let elements):
            return .array(elements.map(snakeCased))
        default:
            return json
        }
    }

    static func snakeCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase {
                result += "_" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// A value of a different JSON kind that no proto field of the original's type accepts.
    static func wrongKind(for value: JSON) -> JSON {
        switch value {
        case .string, .number: .bool(true)
        case .bool: .string("yes")
        case .object, .array: .number(1)
        case .null: .array([.null])
        }
    }
}
