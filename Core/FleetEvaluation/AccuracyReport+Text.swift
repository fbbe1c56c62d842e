extension AccuracyReport {
    /// The report as a table: one row per band and predictor, the median and 90th percentile of the absolute
    /// error in percent of the real remaining time, and how many predictions each figure stands on.
    public func table(title: String) -> String {
        var lines = ["\(title): \(drives) drives"]
        let header = pad("remaining", 11) + pad("predictor", 34) + pad("median", 9) + pad("p90", 9) + "points"
        lines.append(header)
        lines.append(String(repeating: "-", count: header.count))
        let rows: [(String, [Predictor: ErrorFigures])] =
            [("> 2 min", beyondTwoMinutes)]
            + bands.enumerated().map { index, band in (band.name, byBand.mapValues { $0[index] }) }
            + [("all", overall)]
        for (name, figures) in rows {
            for predictor in Predictor.allCases {
                let f = figures[predictor] ?? ErrorFigures(errors: [])
                lines.append(pad(predictor == .estimator ? name : "", 11) + pad(predictor.title, 34)
                             + pad(percent(f.medianPercent), 9) + pad(percent(f.p90Percent), 9) + "\(f.count)")
            }
        }
        lines.append("")
        lines.append("where the engine's error comes from (> 2 min to go; signed: negative = estimate too short)")
        let phaseHeader = pad("phase", 18) + pad("median", 9) + pad("p90", 9) + pad("signed", 9) + "points"
        lines.append(phaseHeader)
        lines.append(String(repeating: "-", count: phaseHeader.count))
        for phase in phases {
            lines.append(pad(phase.name, 18) + pad(percent(phase.figures.medianPercent), 9)
                         + pad(percent(phase.figures.p90Percent), 9) + pad(percent(phase.medianSignedPercent), 9)
                         + "\(phase.figures.count)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The headline as JSON members (no braces): drives, the estimator's median and p90 beyond two minutes, the
    /// number of predictions, both baselines, the hindsight bound, and the engine's error by phase.
    public var jsonMembers: String {
        let engine = beyondTwoMinutes[.estimator] ?? ErrorFigures(errors: [])
        func figures(_ predictor: Predictor) -> String {
            let f = beyondTwoMinutes[predictor] ?? ErrorFigures(errors: [])
            return #"{"medianErrorPercent":\#(number(f.medianPercent)),"p90ErrorPercent":\#(number(f.p90Percent))}"#
        }
        return #""drives":\#(drives),"medianErrorPercent":\#(number(engine.medianPercent)),"p90ErrorPercent":\#(number(engine.p90Percent)),"points":\#(engine.count),"straightLine":\#(figures(.straightLine)),"defaultSpeed":\#(figures(.defaultSpeed)),"hindsight":\#(figures(.hindsight)),"phases":[\#(phaseMembers)]"#
    }

    /// The phases as JSON objects, comma-separated.
    private var phaseMembers: String {
        phases.map { phase in
            #"{"name":"\#(phase.name)","medianErrorPercent":\#(number(phase.figures.medianPercent)),"p90ErrorPercent":\#(number(phase.figures.p90Percent)),"medianSignedErrorPercent":\#(number(phase.medianSignedPercent)),"points":\#(phase.figures.count)}"#
        }.joined(separator: ",")
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }

    private func percent(_ value: Double?) -> String {
        value.map { "\(rounded($0))%" } ?? "–"
    }

    private func number(_ value: Double?) -> String {
        value.map { "\(rounded($0))" } ?? "null"
    }

    private func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
