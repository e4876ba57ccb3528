// swift-tools-version:6.0
import PackageDescription

// The libFuzzer targets: one binary, the target chosen by FUZZ_TARGET (see Sources/FuzzNMEA/Targets.swift). It lives
// in its own package so that the main package never depends on its harnesses. Build and run it with scripts/fuzz at
// the repository root.
let package = Package(
    name: "swift-nmea-fuzz",
    dependencies: [.package(name: "swift-nmea", path: "..")],
    targets: [
        // No main: libFuzzer (linked by --sanitize fuzzer) provides it and calls LLVMFuzzerTestOneInput.
        .executableTarget(
            name: "FuzzNMEA",
            dependencies: [
                .product(name: "NMEA", package: "swift-nmea"),
                .product(name: "AIS", package: "swift-nmea"),
                .product(name: "UBX", package: "swift-nmea"),
                .product(name: "RTCM", package: "swift-nmea"),
                .product(name: "NTRIP", package: "swift-nmea"),
                .product(name: "JSON", package: "swift-nmea"),
                .product(name: "Publisher", package: "swift-nmea"),
                .product(name: "Fleet", package: "swift-nmea"),
                .product(name: "Trips", package: "swift-nmea"),
                .product(name: "Web", package: "swift-nmea"),
                .product(name: "Tracks", package: "swift-nmea"),
                .product(name: "System", package: "swift-nmea"),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    ],
    swiftLanguageModes: [.v6]
)
