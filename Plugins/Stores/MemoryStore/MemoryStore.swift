// MemoryStore: placeholder until its first file lands.
