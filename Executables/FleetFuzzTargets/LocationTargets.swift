import FleetLocation

extension FuzzTarget {
    static let nmea = FuzzTarget(name: "nmea", summary: "NMEADecoder over any text") { data in
        var decoder = NMEADecoder()
        check(decoder.decode(text: text(data)))
    }

    static let gpx = FuzzTarget(name: "gpx", summary: "GPXDocument(parsing:) over any text") { data in
        _ = try? GPXDocument(parsing: text(data))
    }

    static let csv = FuzzTarget(name: "csv", summary: "CSVLocationDecoder over any text") { data in
        var decoder = CSVLocationDecoder()
        check(decoder.decode(text: text(data)))
    }

    static let jsonl = FuzzTarget(name: "jsonl", summary: "JSONLinesLocationDecoder and GPSDDecoder over any text") { data in
        var lines = JSONLinesLocationDecoder()
        check(lines.decode(text: text(data)))
        var gpsd = GPSDDecoder()
        check(gpsd.decode(text: text(data)))
    }

    /// Every sample a decoder gives is a place on Earth.
    private static func check(_ samples: [LocationSample]) {
        for sample in samples {
            let p = sample.point
            invariant(p.latitude.isFinite && abs(p.latitude) <= 90 && p.longitude.isFinite && abs(p.longitude) <= 180,
                      "a decoder gave a point off the Earth: \(p)")
        }
    }
}
