// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "swift-nmea",
    products: [
        .library(name: "NMEA", targets: ["NMEA"]),
        .library(name: "AIS", targets: ["AIS"]),
        .library(name: "UBX", targets: ["UBX"]),
        .library(name: "RTCM", targets: ["RTCM"]),
        .library(name: "NTRIP", targets: ["NTRIP"]),
        .library(name: "Pipeline", targets: ["Pipeline"]),
        .library(name: "Trips", targets: ["Trips"]),
        .library(name: "Tracks", targets: ["Tracks"]),
        .library(name: "Fleet", targets: ["Fleet"]),
        .library(name: "Publisher", targets: ["Publisher"]),
        .library(name: "Web", targets: ["Web"]),
        // For the fuzz package under Fuzz/ (the JSON reader is one of its targets).
        .library(name: "JSON", targets: ["JSON"]),
        // For the benchmark packages under Benchmarks/ (ptys, simulated receivers).
        .library(name: "SerialPort", targets: ["SerialPort"]),
        .library(name: "Threading", targets: ["Threading"]),
        .library(name: "Simulation", targets: ["Simulation"]),
        .library(name: "System", targets: ["System"]),
        // The benchmark packages spawn tools and find free ports with the test helpers.
        .library(name: "TestSupport", targets: ["TestSupport"]),
        .executable(name: "nmea", targets: ["NMEATool"]),
    ],
    targets: [
        // The parser core. Imports nothing, so anyone can embed it. Its rounding and square roots (`rounded()`,
        // `squareRoot()`) are libm's `rint`, `sqrt`… in a debug build, which no other import links on Linux: it
        // names libm itself, so that a package depending on it alone links in debug and release, with no flags.
        .target(name: "NMEA", linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // AIS: !AIVDM/!AIVDO sentences assembled and decoded, every message type, zero allocations. Only NMEA.
        .target(name: "AIS", dependencies: ["NMEA"]),
        // Fast JSON writing for output and protocols.
        .target(name: "JSON", dependencies: ["NMEA", "AIS", "UBX", "RTCM"]),
        // Deterministic journeys written as NMEA: samples, benchmarks, tests.
        .target(name: "Simulation", dependencies: ["NMEA", "AIS", "UBX"]),
        // Distances and bearings on the Earth (a sphere): the one distance every command uses; Earth-centred
        // coordinates to WGS 84. Only libm.
        .target(name: "Geodesy"),
        // u-blox UBX: navigation messages into the one fix stream, configuration messages out. Zero allocations.
        .target(name: "UBX", dependencies: ["NMEA", "Geodesy"]),
        // RTCM 3: every message's header, the station, descriptor, text and MSM messages. Zero allocations.
        .target(name: "RTCM", dependencies: ["NMEA"]),
        // NTRIP: the client that brings RTCM 3 corrections from a caster, and a caster of our own.
        .target(name: "NTRIP", dependencies: ["NMEA", "RTCM", "Geodesy", "Pipeline", "System", "Threading"]),
        // Track writers that leave a valid file on disk after every flush, and readers of every format they write.
        .target(name: "Tracks", dependencies: ["NMEA", "System", "Geodesy", "JSON"]),
        // SVG pictures of tracks: Web-Mercator map colored by speed or altitude, stops, profile over time.
        .target(name: "Plot", dependencies: ["NMEA", "Trips", "Geodesy"]),
        // The C reference loop of `nmea bench` (find `$`, `*` and line ends, XOR the checksum, record the commas):
        // what typed decoding is measured against. Used only by the benchmark.
        .target(name: "CChecksumSplit"),
        // Small C shims (pty functions, ioctls, futex, thread names) and libudev.
        .target(name: "CShims"),
        // Descriptors, errno, the EINTR retry, the monotonic clock, the eventfd wake-up, sockets: swift-system's
        // three layers (public throwing API, internal Result, raw call) over Glibc. And the one non-blocking TCP
        // server core (listening, accepting, bounded output queues, deadlines, closing) the servers' protocols use.
        .target(name: "System", dependencies: ["CShims"]),
        // Time from the receiver: which fixes may set a clock, chrony's SOCK and NTP's SHM reference clocks, PPS,
        // the system clock's step.
        .target(name: "Timekeeping", dependencies: ["NMEA", "System", "CShims"]),
        // Threads of our own and pthread locks (which Thread Sanitizer sees), for every module that blocks.
        .target(name: "Threading", dependencies: ["CShims", "System"]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        // zlib and libzstd, for reading .gz and .zst logs.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        // libsqlite3, for the page's map tiles from an MBTiles file.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Streaming decompression of gzip and Zstandard inputs, told by their first bytes.
        .target(name: "Compression", dependencies: ["CZlib", "CZstd", "System"]),
        // Serial ports: termios, autobaud, udev discovery and hotplug, reconnection.
        .target(name: "SerialPort", dependencies: ["NMEA", "System", "CUdev", "Threading"]),
        // The broadcast ring buffer and the reader thread that feeds it: bytes → fixes, sentences, raw chunks.
        .target(
            name: "Pipeline",
            dependencies: ["NMEA", "UBX", "CShims", "System", "Threading", "Compression", "SerialPort"]),
        // Trips and stops from fixes; offline place names (GeoNames, Resources/places.bin) behind a geohash cache.
        .target(name: "Trips", dependencies: ["NMEA", "JSON", "System", "Geodesy"]),
        // libmosquitto (MQTT client), for the fleet module, and libpq (PostgreSQL's client), for the fleet store: their
        // headers (Debian: libmosquitto-dev, libpq-dev), and trampolines to the libraries loaded when first used
        // (CShims' nmea_library), not linked: the commands that never use them start without them and their
        // dependencies (OpenSSL, Kerberos, LDAP, GnuTLS…), in about half the time.
        .target(name: "CMosquitto", dependencies: ["CShims"]),
        .target(name: "CPostgres", dependencies: ["CShims"]),
        // Fleets: OwnTracks payloads, an MQTT publisher with a disk-backed queue, the collector, the PostgreSQL store.
        .target(
            name: "Fleet",
            dependencies: [
                "NMEA", "JSON", "Tracks", "Trips", "Geodesy", "CMosquitto", "CPostgres", "System", "Threading",
            ]),
        // A receiver's records to tracks, raw capture, trips and MQTT: the consumers `nmea record` runs.
        .target(
            name: "Recording",
            dependencies: [
                "NMEA", "Pipeline", "Tracks", "Trips", "Fleet", "JSON", "System", "Threading", "Compression",
            ]),
        // Position and status streams for Swift code, and a gpsd-compatible JSON server and raw NMEA on TCP (protocol
        // handlers over System's server core).
        .target(name: "Publisher", dependencies: ["NMEA", "AIS", "Pipeline", "JSON", "System", "Threading"]),
        // The page in the browser: a small read-only HTTP/1.1 server with Server-Sent Events, the page, its API, the
        // map (Leaflet embedded, the offline places, tiles from a server or an MBTiles file).
        .target(
            name: "Web",
            dependencies: [
                "NMEA", "JSON", "Pipeline", "System", "Threading", "Tracks", "Trips", "Presentation", "CSQLite",
                "Geodesy", "AIS",
            ]),
        // How values are shown to people: coordinates, fix kinds, satellites, ages, rates; the screen's glyphs.
        .target(name: "Presentation", dependencies: ["NMEA", "Geodesy"]),
        // `nmea watch`: the screen as a pure function of state and size, screen diffs, gpsd JSON, replay pacing.
        .target(name: "Watch", dependencies: ["NMEA", "JSON", "Trips", "Presentation"]),
        // The command-line tool: the module and its directory are NMEATool, the program it makes `nmea` (a module
        // named `nmea` would differ from `NMEA` only in case, which case-insensitive file systems cannot hold apart).
        .executableTarget(
            name: "NMEATool",
            dependencies: [
                "NMEA", "AIS", "UBX", "RTCM", "JSON", "Simulation", "Tracks", "SerialPort", "Pipeline", "Trips",
                "Plot", "Fleet", "Publisher", "Watch", "System", "Threading", "Recording",
                "Compression", "Web", "Timekeeping", "Presentation", "Geodesy", "NTRIP",
                "CChecksumSplit",
            ]),
        // What every test target and benchmark shares: processes with a clean signal mask, temporary directories,
        // waiting with a deadline, free ports, finding tools and the built executables, the corpus.
        .target(name: "TestSupport", dependencies: ["CShims", "System", "Threading"], path: "Tests/TestSupport"),
        // Test-only C shim that counts malloc/calloc/realloc/free.
        .target(
            name: "CAllocationCounter", path: "Tests/CAllocationCounter",
            // dlsym lives in libdl before glibc 2.34 and in libc after; naming libdl works for both.
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        .testTarget(name: "NMEATests", dependencies: ["NMEA", "CAllocationCounter", "Simulation", "TestSupport"]),
        .testTarget(
            name: "CLITests",
            dependencies: ["NMEA", "UBX", "SerialPort", "Simulation", "GPSDFixtures", "System", "TestSupport"]),
        // A child process for the track crash test: writes a simulated track and reports each flush.
        .executableTarget(
            name: "TrackWriterChild", dependencies: ["NMEA", "Simulation", "Tracks"],
            path: "Tests/TrackWriterChild"),
        .testTarget(name: "PipelineTests", dependencies: ["Pipeline", "NMEA", "Simulation", "System", "TestSupport"]),
        .testTarget(
            name: "RecordingTests",
            dependencies: [
                "Recording", "Pipeline", "Tracks", "NMEA", "Simulation", "System", "TestSupport", "Compression",
            ]),
        .testTarget(
            name: "TripsTests", dependencies: ["Trips", "Geodesy", "NMEA", "Simulation", "System", "TestSupport"]),
        .testTarget(
            name: "TracksTests",
            dependencies: ["Tracks", "Geodesy", "NMEA", "Simulation", "System", "TestSupport", "TrackWriterChild"]),
        .testTarget(name: "PlotTests", dependencies: ["Plot", "Geodesy", "NMEA", "Trips"]),
        .testTarget(
            name: "TimekeepingTests",
            dependencies: ["Timekeeping", "NMEA", "Pipeline", "Simulation", "System", "TestSupport", "SerialPort"]),
        .testTarget(name: "SystemTests", dependencies: ["CShims", "System", "Threading", "TestSupport"]),
        .testTarget(name: "CompressionTests", dependencies: ["Compression", "TestSupport"]),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport", "System"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(
            name: "RTCMTests", dependencies: ["RTCM", "NMEA", "JSON", "CAllocationCounter", "TestSupport"]),
        .testTarget(
            name: "UBXTests",
            dependencies: ["UBX", "NMEA", "JSON", "Geodesy", "Simulation", "CAllocationCounter", "TestSupport"]),
        .testTarget(name: "NTRIPTests", dependencies: ["NTRIP", "NMEA", "RTCM", "System", "Threading", "TestSupport"]),
        .testTarget(
            name: "AISTests", dependencies: ["AIS", "NMEA", "JSON", "CAllocationCounter", "Simulation", "TestSupport"]),
        .testTarget(
            name: "WebTests",
            dependencies: ["Web", "Pipeline", "NMEA", "JSON", "Simulation", "System", "TestSupport", "Trips"]),
        .testTarget(name: "WatchTests", dependencies: ["Watch", "Presentation", "NMEA", "JSON", "Trips"]),
        .testTarget(
            name: "SerialPortTests", dependencies: ["SerialPort", "NMEA", "System", "TestSupport", "Threading"]),
        .testTarget(
            name: "FleetTests",
            dependencies: [
                "Fleet", "Geodesy", "NMEA", "JSON", "Simulation", "System", "TestSupport", "Trips", "Tracks",
            ]),
        // Simulated receivers with the exact values gpsd's reports carry, for the server's and the commands' tests.
        .target(
            name: "GPSDFixtures", dependencies: ["NMEA", "UBX", "SerialPort", "Simulation", "System", "Threading"],
            path: "Tests/GPSDFixtures"),
        .testTarget(
            name: "PublisherTests",
            dependencies: [
                "Publisher", "Pipeline", "NMEA", "JSON", "Simulation", "SerialPort", "GPSDFixtures",
                "System", "TestSupport", "Threading",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
