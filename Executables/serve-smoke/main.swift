import FleetCLI
let root = Command("fleet-admin", abstract: "smoke", options: [
    .value("store", help: "store"), .value("provider", help: "provider")], subcommands: [serveCommand])
await CommandLineTool.main(root)
