// FileStore: placeholder until its first file lands.
