import Glibc
import SerialPort

/// scripts/bench-publisher runs this: fan-out to many gpsd clients, and position-at-once latency beside gpsd's.
///
///     PublisherBenchmark --nmea PATH [--clients 100] [--seconds 30] [--runs 100] [--server-runs 30] [--later 10]
///                        [--rate 10] [--skip-fanout] [--skip-latency] [--skip-gpsd] [--tcp-only]
let arguments = Array(CommandLine.arguments.dropFirst())
let text = { (name: String) -> String? in
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
let option = { (name: String, fallback: Int) -> Int in text(name).flatMap { Int($0) } ?? fallback }
guard let nmea = text("--nmea") else {
    print(
        "usage: PublisherBenchmark --nmea PATH [--clients N] [--seconds N] [--runs N] [--server-runs N] [--later N] [--rate HZ]"
    )
    exit(64)
}
let clients = option("--clients", 100)
let seconds = option("--seconds", 30)
let runs = option("--runs", 100)
let serverRuns = option("--server-runs", 30)
let later = option("--later", 10)
let rateHz = option("--rate", 10)

if !arguments.contains("--skip-fanout") {
    for line in runFanOut(nmea: nmea, clients: clients, seconds: seconds) { print(line) }
    print("")
    fflush(nil)
}

if !arguments.contains("--skip-latency") {
    guard let pty = try? PseudoTerminal.open() else {
        print("latency: cannot open a pty")
        exit(1)
    }
    print(
        "Latency on one pty (\(pty.slavePath)): a \(rateHz) Hz multi-GNSS receiver at 115200 baud (16 sentences per epoch,"
    )
    print("each written whole when its last byte would have arrived), a few epochs without a fix, then a drive:")
    print("  first fix: the first position-bearing sentence (RMC) written (the write(2) call) →")
    print("  first position received")
    print("  later fixes: last byte of the epoch (ZDA) written → that epoch's complete fix received (for a server:")
    print("  its last TPV for the epoch)")
    print("  later positions: last byte of the epoch written → the first report with that epoch's position (0 when")
    print("  it came before: a provisional position, or a TPV at an earlier sentence of the epoch)")
    print("  report: the last sentence written before the epoch's complete fix (a server's last TPV for it) →")
    print("  that report, whichever sentence it reports at")
    fflush(nil)
    var results: [Latencies] = []
    if arguments.contains("--tcp-only") {
        print("  tcp:// beside the pty: the same epochs written to both at once; later fixes only")
        results += measureTCPBesidePty(pty: pty, runs: runs, later: later, rateHz: rateHz)
        // Both servers reading the same epochs from a tcp:// receiver, through gpspipe.
        if let tcp = TCPReceiverSink(), !arguments.contains("--skip-gpsd") {
            results.append(
                measureServer(
                    name: "swift-nmea: nmea serve tcp:// → gpspipe -w", pty: tcp, runs: serverRuns,
                    later: later, rateHz: rateHz
                ) { port in [nmea, "serve", tcp.source, "--listen", "127.0.0.1:\(port)"] })
            results.append(
                measureServer(
                    name: "gpsd -N -n tcp:// → gpspipe -w", pty: tcp, runs: serverRuns, later: later, rateHz: rateHz
                ) { port in ["gpsd", "-N", "-n", "-S", "\(port)", tcp.source] })
        }
    } else {
        results.append(measurePublisher(pty: pty, runs: runs, later: later, rateHz: rateHz))
        results += measureTCPBesidePty(pty: pty, runs: runs, later: later, rateHz: rateHz)
    }
    if !arguments.contains("--tcp-only") {
        results.append(measurePublisher(pty: pty, runs: runs, later: later, rateHz: rateHz, hotStart: true))
        results.append(
            measureServer(
                name: "swift-nmea: nmea serve → gpspipe -w", pty: pty, runs: serverRuns,
                later: later, rateHz: rateHz
            ) { port in [nmea, "serve", pty.slavePath, "--listen", "127.0.0.1:\(port)"] })
        if !arguments.contains("--skip-gpsd") {
            results.append(
                measureServer(
                    name: "gpsd -N -n → gpspipe -w", pty: pty, runs: serverRuns, later: later, rateHz: rateHz
                ) { port in
                    ["gpsd", "-N", "-n", "-S", "\(port)", pty.slavePath]
                })
        }
    }
    print("")
    print(
        pad("", 46) + pad("runs", 6, right: true) + pad("first p50", 12, right: true)
            + pad("first p99", 12, right: true)
            + pad("later p50", 12, right: true) + pad("later p99", 12, right: true)
            + pad("pos. p50", 12, right: true) + pad("pos. p99", 12, right: true)
            + pad("report p50", 12, right: true) + pad("report p99", 12, right: true) + pad("fixes", 8, right: true))
    for result in results {
        let first = Summary(result.first)
        let laterSummary = Summary(result.later)
        let positionSummary = Summary(result.position)
        let reportSummary = Summary(result.afterSentence)
        func cell(_ value: Double?) -> String { pad(value.map { format($0, 3) + " ms" } ?? "–", 12, right: true) }
        print(
            pad(result.name, 46) + pad("\(max(result.first.count, result.later.count / max(later, 1)))", 6, right: true)
                + cell(first?.p50) + cell(first?.p99)
                + cell(laterSummary?.p50) + cell(laterSummary?.p99) + cell(positionSummary?.p50)
                + cell(positionSummary?.p99) + cell(reportSummary?.p50) + cell(reportSummary?.p99)
                + pad("\(result.later.count)", 8, right: true))
        if result.failures > 0 { print("    (\(result.failures) measurements missing)") }
        if let laterSummary, laterSummary.p50 < 0 {
            print("    (negative: it reports the epoch before the epoch's last sentence has arrived)")
        }
        for note in Set(result.notes).prefix(3) { print("    note: \(note)") }
    }
    pty.close()
}
