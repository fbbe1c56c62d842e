import Testing

@Test func placeholder_FleetModelTests() {}
