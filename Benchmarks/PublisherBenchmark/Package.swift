// swift-tools-version:6.0
import PackageDescription

// The publisher's benchmarks (fan-out to 100 gpsd clients; position-at-once latency beside gpsd's), in a package of
// its own so the main package never depends on it. Run it with scripts/bench-publisher.
let package = Package(
    name: "PublisherBenchmark",
    dependencies: [.package(name: "swift-nmea", path: "../..")],
    targets: [
        .executableTarget(name: "PublisherBenchmark", dependencies: [
            .product(name: "Publisher", package: "swift-nmea"),
            .product(name: "Pipeline", package: "swift-nmea"),
            .product(name: "NMEA", package: "swift-nmea"),
            .product(name: "System", package: "swift-nmea"),
            .product(name: "TestSupport", package: "swift-nmea"),
            .product(name: "SerialPort", package: "swift-nmea"),
            .product(name: "Threading", package: "swift-nmea"),
            .product(name: "Simulation", package: "swift-nmea"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
