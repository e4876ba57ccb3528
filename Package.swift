// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "swift-nmea",
    products: [
        .library(name: "NMEA", targets: ["NMEA"]),
        .executable(name: "nmea", targets: ["NMEATool"]),
    ],
    targets: [
        // The parser core. Imports nothing, so anyone can embed it.
        .target(name: "NMEA"),
        // The command-line tool.
        .executableTarget(name: "NMEATool", dependencies: ["NMEA"], path: "Sources/nmea-cli"),
        // Test-only C shim that counts malloc/calloc/realloc/free.
        .target(
            name: "CAllocationCounter", path: "Tests/CAllocationCounter",
            // dlsym lives in libdl before glibc 2.34 and in libc after; naming libdl works for both.
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        .testTarget(name: "NMEATests", dependencies: ["NMEA", "CAllocationCounter"]),
        .testTarget(name: "CLITests", dependencies: ["NMEA"]),
    ],
    swiftLanguageModes: [.v6]
)
