import Testing

@Test func placeholder_ExecutableTests() {}
