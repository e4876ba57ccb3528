// swift-tools-version:6.0
import PackageDescription

// Figures for the fleet store: positions/s from a local Mosquitto into a local PostgreSQL with PostGIS through one
// collector and through two sharing a subscription, and the query times of 'nmea fleet' on 10 M rows. Its own
// package so the main one never depends on it; run it with scripts/bench-fleet-db at the repository root.
let package = Package(
    name: "swift-nmea-fleet-db-benchmark",
    dependencies: [.package(name: "swift-nmea", path: "../..")],
    targets: [
        .executableTarget(
            name: "FleetDBBenchmark",
            dependencies: [
                .product(name: "Fleet", package: "swift-nmea"),
                .product(name: "NMEA", package: "swift-nmea"),
                .product(name: "System", package: "swift-nmea"),
                .product(name: "Threading", package: "swift-nmea"),
                .product(name: "TestSupport", package: "swift-nmea"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
