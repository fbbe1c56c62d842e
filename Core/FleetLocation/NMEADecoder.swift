import FleetGeo
import FleetModel

/// Decodes NMEA 0183 into samples: GGA (position, altitude, fix quality), RMC (position, date, speed,
/// course, validity) and VTG (speed, course) from any talker (`GP`, `GN`, `GL`, …).
///
/// Sentences of one fix share a UTC time; the decoder gathers them into one sample, emitted as soon as
/// both GGA and RMC of the fix arrived, or when the next fix starts, or at the end of input. A fix that
/// any of its sentences marks invalid (GGA quality 0, RMC status `V`, mode `N`: gpsd's "mode < 2") is
/// skipped and counted in `noFix`. Every sentence's checksum is checked; a sentence with a bad checksum,
/// a malformed address or unreadable fields is skipped and counted in `bad`. Other valid sentences (GSV,
/// GSA, GLL, ZDA, depth and wind talkers…) are counted in `ignored`. Lines starting with `#` are comments.
///
/// A fix's time is its RMC date (or the last date seen) with its time of day; without any date yet, the
/// sample has no time and the reporter stamps it when received. Altitude is GGA's mean-sea-level altitude
/// plus its geoid separation (metres above the WGS 84 ellipsoid), when both are given.
public struct NMEADecoder: LocationLineDecoder {
    /// The counters so far.
    public private(set) var statistics = DecoderStatistics()

    private var epoch: Epoch?
    private var lastDate: (year: Int, month: Int, day: Int)?
    private var lineNumber = 0

    /// A decoder with nothing read yet.
    public init() {}

    private struct Position {
        var point: GeoPoint
        var isValid: Bool
    }

    private struct Epoch {
        var timeField: String
        var secondsOfDay: Double?
        var gga: Position?
        var rmc: Position?
        var altitude: Double?
        var speed: Double?
        var heading: Double?
        var invalid = false
        var emitted = false
        var date: (year: Int, month: Int, day: Int)?
    }

    /// Reads one line; returns the samples it completes.
    public mutating func decode(line: String) -> [LocationSample] {
        lineNumber += 1
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return [] }
        statistics.lines += 1
        let sentence: NMEASentence
        do {
            sentence = try NMEASentence.parse(line)
        } catch {
            return bad(error.description)
        }
        switch sentence.type {
        case "GGA": return readGGA(sentence)
        case "RMC": return readRMC(sentence)
        case "VTG": return readVTG(sentence)
        default:
            statistics.ignored += 1
            return []
        }
    }

    /// The input ended: returns the fix still being gathered, if valid.
    public mutating func finish() -> [LocationSample] {
        defer { epoch = nil }
        return flush()
    }

    // MARK: Sentences

    private mutating func readGGA(_ s: NMEASentence) -> [LocationSample] {
        let quality = s.field(5)
        guard quality.isEmpty || Int(quality) != nil else { return bad("GGA: fix quality '\(quality)' is not a number") }
        let hasFix = (Int(quality) ?? 0) > 0
        var position: Position?
        if hasFix {
            guard let latitude = NMEAFields.coordinate(s.field(1), hemisphere: s.field(2), isLatitude: true),
                  let longitude = NMEAFields.coordinate(s.field(3), hemisphere: s.field(4), isLatitude: false) else {
                return bad("GGA: position '\(s.field(1)),\(s.field(2)),\(s.field(3)),\(s.field(4))' is malformed")
            }
            position = Position(point: GeoPoint(latitude: latitude, longitude: longitude), isValid: true)
        }
        let altitude = NMEAFields.number(s.field(8))
        let separation = NMEAFields.number(s.field(10))
        guard altitude != .malformed, separation != .malformed else { return bad("GGA: altitude is not a number") }
        guard let begun = begin(timeField: s.field(0), sentence: "GGA") else { return [] }
        var out = begun.samples
        epoch?.secondsOfDay = begun.secondsOfDay
        if let position {
            epoch?.gga = position
        } else {
            epoch?.gga = Position(point: GeoPoint(latitude: 0, longitude: 0), isValid: false)
            epoch?.invalid = true
        }
        if let altitude = altitude.value, let separation = separation.value { epoch?.altitude = altitude + separation }
        out += emitIfComplete()
        return out
    }

    private mutating func readRMC(_ s: NMEASentence) -> [LocationSample] {
        let status = s.field(1)
        let mode = s.field(11)
        guard status == "A" || status == "V" else { return bad("RMC: status '\(status)' is neither A nor V") }
        let valid = status == "A" && mode != "N"
        var position = Position(point: GeoPoint(latitude: 0, longitude: 0), isValid: false)
        if valid {
            guard let latitude = NMEAFields.coordinate(s.field(2), hemisphere: s.field(3), isLatitude: true),
                  let longitude = NMEAFields.coordinate(s.field(4), hemisphere: s.field(5), isLatitude: false) else {
                return bad("RMC: position '\(s.field(2)),\(s.field(3)),\(s.field(4)),\(s.field(5))' is malformed")
            }
            position = Position(point: GeoPoint(latitude: latitude, longitude: longitude), isValid: true)
        }
        let knots = NMEAFields.number(s.field(6))
        let course = NMEAFields.number(s.field(7))
        guard knots != .malformed, course != .malformed else { return bad("RMC: speed or course is not a number") }
        var date: (year: Int, month: Int, day: Int)?
        if !s.field(8).isEmpty {
            guard let parsed = NMEAFields.date(s.field(8)) else { return bad("RMC: date '\(s.field(8))' is not ddmmyy") }
            date = parsed
        }
        guard let begun = begin(timeField: s.field(0), sentence: "RMC") else { return [] }
        var out = begun.samples
        epoch?.secondsOfDay = begun.secondsOfDay
        epoch?.rmc = position
        if !valid { epoch?.invalid = true }
        if let date {
            epoch?.date = date
            lastDate = date
        }
        if let knots = knots.value { epoch?.speed = knots * Self.metersPerSecondPerKnot }
        if let course = course.value { epoch?.heading = course }
        out += emitIfComplete()
        return out
    }

    private mutating func readVTG(_ s: NMEASentence) -> [LocationSample] {
        // NMEA 2.0+: course,T,course,M,knots,N,km/h,K[,mode]; older receivers: course,course,knots,km/h.
        let modern = s.field(1) == "T" || s.field(3) == "M" || s.fields.count > 4
        let course = NMEAFields.number(s.field(0))
        let kilometresPerHour = NMEAFields.number(modern ? s.field(6) : s.field(3))
        let knots = NMEAFields.number(modern ? s.field(4) : s.field(2))
        guard course != .malformed, kilometresPerHour != .malformed, knots != .malformed else {
            return bad("VTG: course or speed is not a number")
        }
        guard modern ? s.field(8) != "N" : true, epoch != nil, epoch?.emitted == false else { return [] }
        if let speed = kilometresPerHour.value.map({ $0 / 3.6 }) ?? knots.value.map({ $0 * Self.metersPerSecondPerKnot }),
           epoch?.speed == nil {
            epoch?.speed = speed
        }
        if let course = course.value, epoch?.heading == nil { epoch?.heading = course }
        return []
    }

    // MARK: Epochs

    /// Starts or continues the fix of `timeField`; flushes the previous fix when the time changed.
    /// Returns the flushed samples and the time of day, or nil (after counting a bad line) for a bad time.
    private mutating func begin(timeField: String, sentence: String) -> (samples: [LocationSample], secondsOfDay: Double?)? {
        var secondsOfDay: Double?
        if !timeField.isEmpty {
            guard let parsed = NMEAFields.timeOfDay(timeField) else {
                _ = bad("\(sentence): time '\(timeField)' is not hhmmss")
                return nil
            }
            secondsOfDay = parsed
        }
        var flushed: [LocationSample] = []
        if let current = epoch, current.timeField != timeField || timeField.isEmpty {
            flushed = flush()
        }
        if epoch == nil { epoch = Epoch(timeField: timeField) }
        return (flushed, secondsOfDay)
    }

    private mutating func emitIfComplete() -> [LocationSample] {
        guard let current = epoch, !current.emitted, current.gga != nil, current.rmc != nil else { return [] }
        epoch?.emitted = true
        return sample(of: current)
    }

    private mutating func flush() -> [LocationSample] {
        guard let current = epoch else { return [] }
        epoch = nil
        guard !current.emitted else { return [] }
        return sample(of: current)
    }

    private mutating func sample(of e: Epoch) -> [LocationSample] {
        guard !e.invalid, let position = e.gga?.isValid == true ? e.gga : e.rmc, position.isValid else {
            if e.gga != nil || e.rmc != nil { statistics.noFix += 1 }
            return []
        }
        var time: Timestamp?
        if let secondsOfDay = e.secondsOfDay, let date = e.date ?? lastDate {
            time = NMEAFields.timestamp(date: date, secondsOfDay: secondsOfDay)
        }
        let sample = LocationSample(point: position.point, time: time, altitude: e.altitude, speed: e.speed,
                                    heading: e.heading, sensor: .gps)
        guard sample.isPlausible else {
            statistics.noFix += 1
            return []
        }
        statistics.samples += 1
        return [sample]
    }

    private mutating func bad(_ problem: String) -> [LocationSample] {
        statistics.bad += 1
        statistics.lastProblem = "line \(lineNumber): \(problem)"
        return []
    }

    /// Metres per second in one knot.
    static let metersPerSecondPerKnot = 1852.0 / 3600.0
}
