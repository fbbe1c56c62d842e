// SQLiteStore: placeholder until its first file lands.
