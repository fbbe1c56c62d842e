import Testing

@Test func placeholder_FleetGeoTests() {}
