// FleetModel: placeholder until its first file lands.
