import Testing

@Test func placeholder_FleetErrorsTests() {}
