import FleetModel

extension FuzzTarget {
    /// The JSON parser and serializer: what parses serializes to text that parses to the same text.
    static let json = FuzzTarget(name: "json", summary: "JSON.parse, serialization and re-parsing") { data in
        guard let value = try? JSON.parse(data) else { return }
        let written = value.serializedBytes()
        guard let again = try? JSON.parse(written) else {
            invariant(false, "serialized JSON does not parse: \(String(decoding: written.prefix(200), as: UTF8.self))")
            return
        }
        invariant(again.serializedBytes() == written, "JSON serialization is not stable")
        _ = value.prettyPrinted()
    }

    /// Fleet Engine message decoding: the first byte picks the message, the rest is its JSON. What
    /// decodes encodes to JSON that decodes to the same JSON (as a tree and as text).
    static let messages = FuzzTarget(name: "messages", summary: "proto3 JSON decoding and encoding of every request and resource") { data in
        guard let selector = data.first else { return }
        let body = UnsafeRawBufferPointer(rebasing: data.dropFirst())
        let decoders = MessageDecoders.all
        decoders[Int(selector) % decoders.count](body)
    }
}

extension FuzzTarget {
    /// Binary protobuf decoding of every request a gRPC server receives: what decodes re-encodes stably.
    static let protobuf = FuzzTarget(name: "protobuf", summary: "binary protobuf decoding and re-encoding of every gRPC request") { data in
        _ = ProtoBinaryFuzzing.decodeAny(Array(data))
    }
}

/// One decoder per message type the API takes or gives.
enum MessageDecoders {
    static let all: [@Sendable (UnsafeRawBufferPointer) -> Void] = [
        roundTrip(CreateVehicleRequest.self), roundTrip(UpdateVehicleRequest.self), roundTrip(GetVehicleRequest.self),
        roundTrip(ListVehiclesRequest.self), roundTrip(SearchVehiclesRequest.self), roundTrip(UpdateVehicleAttributesRequest.self),
        roundTrip(CreateTripRequest.self), roundTrip(UpdateTripRequest.self), roundTrip(GetTripRequest.self),
        roundTrip(SearchTripsRequest.self), roundTrip(ReportBillableTripRequest.self), roundTrip(DeleteTripRequest.self),
        roundTrip(Vehicle.self), roundTrip(Trip.self), roundTrip(ListVehiclesResponse.self),
        roundTrip(SearchVehiclesResponse.self), roundTrip(SearchTripsResponse.self),
    ]

    static func roundTrip<Message: ProtoMessage>(_ type: Message.Type) -> @Sendable (UnsafeRawBufferPointer) -> Void {
        { data in
            for options in [DecodingOptions(), DecodingOptions(ignoreUnknownFields: true)] {
                guard let message = try? Message(jsonBytes: data, options: options) else { continue }
                let text = message.jsonBytes()
                invariant(text == message.toJSON().serializedBytes(), "\(Message.self): direct and tree JSON differ")
                guard let again = try? Message(jsonBytes: text) else {
                    invariant(false, "\(Message.self): encoded JSON does not decode: \(String(decoding: text.prefix(300), as: UTF8.self))")
                    return
                }
                invariant(again.jsonBytes() == text, "\(Message.self): encoding is not stable")
                _ = message.firstUnacceptableValue()
            }
        }
    }
}
