import Testing

@Test func placeholder_FleetCLITests() {}
