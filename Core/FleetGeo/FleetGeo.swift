// FleetGeo: placeholder until its first file lands.
