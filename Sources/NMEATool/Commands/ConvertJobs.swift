import Glibc
import System
import Threading

/// `nmea convert INPUTS… -o out/{name}.gpx`: one conversion per input, named after it, run `--jobs` at a time on
/// threads of their own. Each conversion is the same code as a single `nmea convert` and writes only its own files,
/// so the outputs are identical whatever the number of jobs; its messages are captured and printed whole, in the
/// order of the inputs, as each one's turn comes. Memory: one conversion per job.
enum ConvertJobs {
    static let namePlaceholder = "{name}"

    static func run(_ arguments: ParsedArguments, outputs: [ConvertOutput]) throws -> Int32 {
        guard outputs.allSatisfy({ $0.path.contains(namePlaceholder) }) else {
            throw arguments.usageError("Either every output names its input with {name}, or none does")
        }
        let inputs = arguments.value(SentenceInput.files)
        guard !inputs.isEmpty, !inputs.contains("-"), !inputs.contains(where: { $0.contains("://") }) else {
            throw arguments.usageError("{name} outputs need input files to be named after (not '-' or a stream)")
        }
        let jobs = try arguments.value(ConvertCommand.jobs) ?? processorCount()
        // Every input admitted before the first conversion opens an output (each conversion admits its own again).
        _ = try InputAdmission(inputs)
        let plans = try plan(inputs, outputs, arguments)
        let progress = makeProgress(inputs)
        let work = Work(arguments: arguments, inputs: inputs, plans: plans)
        let workers = (0..<min(jobs, inputs.count)).map { worker in
            NativeThread(name: "convert \(worker)") { work.run() }
        }
        var failed = report(work, progress: progress)
        for worker in workers { worker.join() }
        // One batch, one rule: every input's outputs are put in place only when every conversion succeeded.
        let completed = work.completed.withLock { $0 }
        for index in inputs.indices {
            guard let files = completed[index] else { continue }
            if failed {
                files.giveUp(because: "another input's conversion failed")
            } else if !files.publish() {
                failed = true
            }
        }
        return failed ? ExitStatus.failure : ExitStatus.success
    }

    /// Every input's outputs, checked before anything runs: two inputs of one name would write one file, and an
    /// output must not be its input.
    private static func plan(_ inputs: [String], _ outputs: [ConvertOutput], _ arguments: ParsedArguments)
        throws(UsageError) -> [[ConvertOutput]]
    {
        var plans: [[ConvertOutput]] = []
        var seen: [String: String] = [:]
        for input in inputs {
            let name = baseName(input)
            let own = outputs.map {
                ConvertOutput(path: $0.path.replacingAll(namePlaceholder, with: name), format: $0.format)
            }
            for output in own {
                if let other = seen[output.path] {
                    throw arguments.usageError(
                        "'\(other)' and '\(input)' would both write '\(output.path)': rename one, or convert apart")
                }
                seen[output.path] = input
            }
            try FileIdentity.refuseOverlaps(inputs: [input], outputs: own.map(\.path), arguments)
            plans.append(own)
        }
        return plans
    }

    /// Prints each input's messages in input order, as soon as it and all before it are done, with a progress bar
    /// on a terminal; `true` when a conversion failed.
    private static func report(_ work: Work, progress: (bar: ProgressBar, sizes: [Int])?) -> Bool {
        let inputs = work.inputs
        var failed = false
        var finishedBytes = 0
        for index in inputs.indices {
            var result = work.results.withLock { $0[index] }
            while result == nil {
                work.done.wait()
                result = work.results.withLock { $0[index] }
            }
            progress?.bar.clear()
            Console.error(result!.errors)
            failed = failed || result!.status != ExitStatus.success
            finishedBytes += progress?.sizes[index] ?? 0
            progress?.bar.update(finishedBytes, detail: "\(index + 1)/\(inputs.count) files")
        }
        progress?.bar.clear()
        return failed
    }

    /// What the workers share: the plan, the next input to take, and each input's result.
    final class Work: @unchecked Sendable {
        let arguments: ParsedArguments
        let inputs: [String]
        let plans: [[ConvertOutput]]
        let next = Locked(0)
        let results = Locked([Int: (status: Int32, errors: String)]())
        /// Each input's completed outputs, put in place (or given up) once every conversion is done.
        let completed = Locked([Int: TrackOutputs]())
        let done = Semaphore()

        init(arguments: ParsedArguments, inputs: [String], plans: [[ConvertOutput]]) {
            self.arguments = arguments
            self.inputs = inputs
            self.plans = plans
        }

        /// Converts inputs until none is left.
        func run() {
            while true {
                let index = next.withLock { (value: inout Int) -> Int in
                    defer { value += 1 }
                    return value
                }
                guard index < inputs.count else { return }
                let (status, errors) = Console.capturingErrors { () -> Int32 in
                    do {
                        return try ConvertCommand.convert(
                            arguments, outputs: plans[index], paths: [inputs[index]], showsProgress: false, jobs: 1
                        ) { files in
                            self.completed.withLock { $0[index] = files }
                        }
                    } catch {
                        Console.error("Error: \(error)\n")
                        return ExitStatus.failure
                    }
                }
                // Each message names its input: "nmea convert: logs/a.nmea: 3 lines rejected …".
                let named = errors.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                    line.hasPrefix("nmea convert: ") ? "nmea convert: \(inputs[index]): " + line.dropFirst(14) : line
                }.joined(separator: "\n")
                results.withLock { $0[index] = (status, named) }
                done.signal()
            }
        }
    }

    /// The input's file name without its directory and its extensions (`logs/2026-11-30.nmea.gz` →
    /// `2026-11-30`).
    static func baseName(_ path: String) -> String {
        var name = Substring(path.split(separator: "/").last ?? Substring(path))
        for compression in [".gz", ".zst"] where name.hasSuffix(compression) { name = name.dropLast(compression.count) }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
        return String(name)
    }

    /// The processors this process may run on.
    static func processorCount() -> Int { max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1) }

    /// A bar of files and bytes on a terminal.
    private static func makeProgress(_ inputs: [String]) -> (bar: ProgressBar, sizes: [Int])? {
        guard Console.standardErrorIsTerminal else { return nil }
        let sizes = inputs.map { regularFileBytes([$0]) }
        return (ProgressBar(label: "nmea convert", totalBytes: sizes.reduce(0, +)), sizes)
    }
}

/// A counting semaphore on a mutex and a condition variable.
final class Semaphore: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var count = 0

    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    deinit {
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    func signal() {
        pthread_mutex_lock(&mutex)
        count += 1
        pthread_cond_signal(&condition)
        pthread_mutex_unlock(&mutex)
    }

    func wait() {
        pthread_mutex_lock(&mutex)
        while count == 0 { pthread_cond_wait(&condition, &mutex) }
        count -= 1
        pthread_mutex_unlock(&mutex)
    }
}
