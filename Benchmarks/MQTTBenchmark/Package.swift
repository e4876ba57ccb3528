// swift-tools-version:6.0
import PackageDescription

// Figures for the fleet module against a local Mosquitto: publish throughput, collector throughput, and the CPU a
// thousand simulated vehicles cost. Its own package so the main one never depends on it; run it with
// scripts/bench-mqtt at the repository root.
let package = Package(
    name: "swift-nmea-mqtt-benchmark",
    dependencies: [.package(name: "swift-nmea", path: "../..")],
    targets: [
        .executableTarget(
            name: "MQTTBenchmark",
            dependencies: [
                .product(name: "Fleet", package: "swift-nmea"),
                .product(name: "NMEA", package: "swift-nmea"),
                .product(name: "System", package: "swift-nmea"),
                .product(name: "TestSupport", package: "swift-nmea"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
