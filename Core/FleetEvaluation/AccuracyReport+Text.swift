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
            for predictor in predictors {
                let f = figures[predictor] ?? ErrorFigures(errors: [])
                lines.append(pad(predictor == predictors.first ? name : "", 11) + pad(predictor.title, 34)
                             + pad(percent(f.medianPercent), 9) + pad(percent(f.p90Percent), 9) + "\(f.count)")
            }
        }
        lines.append("")
        lines.append("ETA Accuracy Benchmark (share of predictions inside each window: 0–3 min 30 s early / 90 s late, 3–6 min 1 / 2.5 min, 6–10 min 1 / 3.5 min, 10–15 min 1.5 / 4.5 min)")
        let scoreHeader = pad("predictor", 36) + ETAAccuracyScore.windows.map { pad($0.name, 11) }.joined() + "mean"
        lines.append(scoreHeader)
        lines.append(String(repeating: "-", count: scoreHeader.count))
        for predictor in predictors {
            guard let score = benchmarkScores[predictor] else { continue }
            lines.append(pad(predictor.title, 36) + score.windowPercents.map { pad(percent($0), 11) }.joined() + percent(score.meanPercent))
        }
        lines.append("")
        lines.append("where the \(headline == .learned ? "learned estimate's" : "engine's") error comes from (> 2 min to go; signed: negative = estimate too short)")
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

    /// The headline as JSON members (no braces): drives, the headline predictor's median and p90 beyond two
    /// minutes, the number of predictions, the baselines and the hindsight bound, the ETA Accuracy Benchmark's
    /// score, and the headline's error by phase. With history the headline is the learned estimate, and the engine
    /// without history and the plain history baseline stand beside it (`withoutHistory`, `plainHistory`), and the
    /// learned estimate knowing the waits ahead, a bound (`learnedWaitsKnown`).
    public var jsonMembers: String {
        let main = beyondTwoMinutes[headline] ?? ErrorFigures(errors: [])
        func figures(_ predictor: Predictor) -> String {
            let f = beyondTwoMinutes[predictor] ?? ErrorFigures(errors: [])
            return #"{"medianErrorPercent":\#(number(f.medianPercent)),"p90ErrorPercent":\#(number(f.p90Percent)),"points":\#(f.count)}"#
        }
        var members = #""drives":\#(drives),"medianErrorPercent":\#(number(main.medianPercent)),"p90ErrorPercent":\#(number(main.p90Percent)),"points":\#(main.count)"#
        if headline == .learned {
            members += #","withoutHistory":\#(figures(.estimator)),"plainHistory":\#(figures(.plainHistory))"#
        }
        members += #","straightLine":\#(figures(.straightLine)),"defaultSpeed":\#(figures(.defaultSpeed)),"hindsight":\#(figures(.hindsight))"#
        if headline == .learned { members += #","learnedWaitsKnown":\#(figures(.learnedWaitsKnown))"# }
        members += #","etaAccuracyBenchmark":\#(scoreMembers(headline))"#
        if headline == .learned { members += #","etaAccuracyBenchmarkWithoutHistory":\#(scoreMembers(.estimator))"# }
        return members + #","phases":[\#(phaseMembers)]"#
    }

    /// A predictor's ETA Accuracy Benchmark score as a JSON object.
    private func scoreMembers(_ predictor: Predictor) -> String {
        guard let score = benchmarkScores[predictor] else { return "null" }
        let windows = zip(ETAAccuracyScore.windows, zip(score.windowPercents, score.windowCounts)).map { window, figures in
            #"{"window":"\#(window.name)","accuratePercent":\#(number(figures.0)),"points":\#(figures.1)}"#
        }
        return #"{"meanPercent":\#(number(score.meanPercent)),"windows":[\#(windows.joined(separator: ","))]}"#
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
