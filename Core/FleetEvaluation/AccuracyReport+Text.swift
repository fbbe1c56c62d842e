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
        return lines.joined(separator: "\n") + "\n"
    }

    /// The headline as JSON members (no braces): drives, the estimator's median and p90 beyond two minutes, the
    /// number of predictions, and both baselines.
    public var jsonMembers: String {
        let engine = beyondTwoMinutes[.estimator] ?? ErrorFigures(errors: [])
        func figures(_ predictor: Predictor) -> String {
            let f = beyondTwoMinutes[predictor] ?? ErrorFigures(errors: [])
            return #"{"medianErrorPercent":\#(number(f.medianPercent)),"p90ErrorPercent":\#(number(f.p90Percent))}"#
        }
        return #""drives":\#(drives),"medianErrorPercent":\#(number(engine.medianPercent)),"p90ErrorPercent":\#(number(engine.p90Percent)),"points":\#(engine.count),"straightLine":\#(figures(.straightLine)),"defaultSpeed":\#(figures(.defaultSpeed))"#
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
