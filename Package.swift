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
        // Fast JSON writing for output and protocols.
        .target(name: "JSON", dependencies: ["NMEA"]),
        // Deterministic journeys written as NMEA: samples, benchmarks, tests.
        .target(name: "Simulation", dependencies: ["NMEA"]),
        // GPX and GeoJSON track writers that leave a valid file on disk after every flush.
        .target(name: "Tracks", dependencies: ["NMEA"]),
        // SVG pictures of tracks: Web-Mercator map colored by speed or altitude, stops, profile over time.
        .target(name: "Plot", dependencies: ["NMEA"]),
        // Small C shims (pty functions, ioctls) and libudev, for the serial port module.
        .target(name: "CShims"),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        // Serial ports: termios, autobaud, udev discovery and hotplug, reconnection.
        .target(name: "SerialPort", dependencies: ["NMEA", "CShims", "CUdev"]),
        // The command-line tool.
        .executableTarget(name: "NMEATool",
                          dependencies: ["NMEA", "JSON", "Simulation", "Tracks", "SerialPort", "Plot"],
                          path: "Sources/nmea-cli"),
        // Test-only C shim that counts malloc/calloc/realloc/free.
        .target(name: "CAllocationCounter", path: "Tests/CAllocationCounter"),
        .testTarget(name: "NMEATests", dependencies: ["NMEA", "CAllocationCounter"]),
        .testTarget(name: "CLITests", dependencies: ["NMEA", "Simulation"]),
        // A child process for the track crash test: writes a simulated track and reports each flush.
        .executableTarget(name: "TrackWriterChild", dependencies: ["NMEA", "Simulation", "Tracks"],
                          path: "Tests/TrackWriterChild"),
        .testTarget(name: "TracksTests", dependencies: ["Tracks", "NMEA", "Simulation", "TrackWriterChild"]),
        .testTarget(name: "PlotTests", dependencies: ["Plot", "NMEA"]),
        .testTarget(name: "SerialPortTests", dependencies: ["SerialPort", "NMEA", "CShims"]),
    ],
    swiftLanguageModes: [.v6]
)
