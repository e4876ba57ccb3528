// swift-tools-version:6.0
import PackageDescription

// The ring buffer's throughput benchmark, in a package of its own so the main package never depends on it.
// Run it with scripts/bench-ring.
let package = Package(
    name: "RingBenchmark",
    dependencies: [.package(name: "swift-nmea", path: "../..")],
    targets: [
        .executableTarget(name: "RingBenchmark", dependencies: [
            .product(name: "Pipeline", package: "swift-nmea"),
            .product(name: "NMEA", package: "swift-nmea"),
            .product(name: "System", package: "swift-nmea"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
