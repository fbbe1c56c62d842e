import Testing

@Test func placeholder_StoreTests() {}
