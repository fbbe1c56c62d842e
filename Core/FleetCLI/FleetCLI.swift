// FleetCLI: placeholder until its first file lands.
