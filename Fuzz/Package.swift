// swift-tools-version:6.0
import PackageDescription

// A libFuzzer target for the framer and the decoders. It lives in its own package so that the main package never
// depends on its harnesses. Build and run it with scripts/fuzz at the repository root.
let package = Package(
    name: "swift-nmea-fuzz",
    dependencies: [.package(name: "swift-nmea", path: "..")],
    targets: [
        // No main: libFuzzer (linked by --sanitize fuzzer) provides it and calls LLVMFuzzerTestOneInput.
        .executableTarget(
            name: "FuzzNMEA",
            dependencies: [.product(name: "NMEA", package: "swift-nmea")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    ],
    swiftLanguageModes: [.v6]
)
