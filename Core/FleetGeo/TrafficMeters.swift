/// A distance along the route split by traffic: the input of the time computation in ``ETAEstimator``.
public struct TrafficMeters: Sendable, Hashable {
    /// Metres with normal or unknown traffic.
    public var normal: Double
    /// Metres in slow traffic.
    public var slow: Double
    /// Metres in a traffic jam.
    public var trafficJam: Double

    /// Creates a split distance.
    public init(normal: Double, slow: Double, trafficJam: Double) {
        self.normal = normal
        self.slow = slow
        self.trafficJam = trafficJam
    }

    /// The whole distance, metres.
    public var total: Double { normal + slow + trafficJam }
}
