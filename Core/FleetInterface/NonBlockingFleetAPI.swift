/// A `FleetAPI` whose writes are non-blocking at heart (the engine: it commits through the store's
/// group commit): it implements the completion forms, and the blocking forms (generated beside
/// `FleetAPI`) wait for them.
///
/// A conforming type implements every completion form itself: `FleetAPI` gives them no default
/// (only `BlockingFleetAPI` does), so one left out fails to compile. A type adopts one of the two,
/// never both: their defaults would call each other forever.
public protocol NonBlockingFleetAPI: FleetAPI {}
