/// A `FleetAPI` whose calls block at heart (a client over the network, a journal on disk): it
/// implements the blocking forms, and the completion forms (generated beside `FleetAPI`) run them on a
/// Dispatch queue.
///
/// Only this protocol gives `FleetAPI`'s completion forms a default, and only
/// `NonBlockingFleetAPI` gives the blocking forms one: whichever half an implementation leaves out,
/// the compiler says so, instead of the two defaults calling each other forever at run time. A type
/// adopts one of the two, never both.
public protocol BlockingFleetAPI: FleetAPI {}
